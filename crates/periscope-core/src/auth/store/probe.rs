//! Proving the OS keychain works before trusting it: a test entry written, read back and
//! deleted on its own thread, abandoned after a timeout.

use std::sync::{Arc, mpsc};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::error::keyring_detail;
use super::keychain::Vault;

/// Writes, reads back through a fresh handle and deletes a test entry on a thread, giving up
/// after `timeout`. `Err` holds the reason shown to the user.
pub(super) fn probe(vault: Arc<dyn Vault>, timeout: Duration) -> Result<(), String> {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let account = format!("probe:{}:{nanos}", std::process::id());
    let value = format!("periscope keychain probe {nanos}").into_bytes();
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("keychain-probe".to_string())
        .spawn(move || {
            let _ = tx.send(run_probe(vault.as_ref(), &account, &value));
        })
        .map_err(|e| format!("could not start the keychain probe: {e}"))?;
    match rx.recv_timeout(timeout) {
        Ok(result) => result,
        Err(mpsc::RecvTimeoutError::Timeout) => Err(format!(
            "the keychain did not answer within {} s",
            timeout.as_secs_f32()
        )),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err("the keychain probe stopped unexpectedly".to_string())
        }
    }
}

fn run_probe(vault: &dyn Vault, account: &str, value: &[u8]) -> Result<(), String> {
    vault
        .set(account, value)
        .map_err(|e| probe_reason("write a test entry", &e))?;
    let read = vault.get(account);
    let removed = vault.remove(account);
    match read {
        Ok(Some(read)) if read == value => {}
        Ok(Some(_)) => return Err("the keychain returned a different test value".to_string()),
        Ok(None) => {
            return Err(
                "the keychain did not keep a test entry (no persistent keychain on this \
                        platform)"
                    .to_string(),
            );
        }
        Err(e) => return Err(probe_reason("read a test entry back", &e)),
    }
    removed
        .map(|_| ())
        .map_err(|e| probe_reason("delete a test entry", &e))
}

/// A short reason for the user, with the usual Linux cases in plain words.
fn probe_reason(op: &str, err: &keyring::Error) -> String {
    let detail = keyring_detail(err);
    if cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd"
    )) {
        let bus_unset = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none_or(|v| v.is_empty());
        if detail.contains("org.freedesktop.secrets")
            || detail.contains("ServiceUnknown")
            || detail.contains("Unavailable")
            || detail.contains("not provided by any .service files")
        {
            return format!("no Secret Service on the session bus ({detail})");
        }
        if bus_unset
            && (detail.contains("DBUS_SESSION_BUS_ADDRESS")
                || detail.contains("autolaunch")
                || detail.contains("DISPLAY")
                || detail.contains("session bus"))
        {
            return format!("no D-Bus session bus ({detail})");
        }
    }
    format!("the keychain could not {op}: {detail}")
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::auth::store::PROBE_TIMEOUT;
    use crate::auth::store::test_support::MemoryVault;

    /// A keychain that never answers.
    struct HangingVault;
    impl Vault for HangingVault {
        fn get(&self, _: &str) -> Result<Option<Vec<u8>>, keyring::Error> {
            std::thread::sleep(Duration::from_secs(30));
            Ok(None)
        }
        fn set(&self, _: &str, _: &[u8]) -> Result<(), keyring::Error> {
            std::thread::sleep(Duration::from_secs(30));
            Ok(())
        }
        fn remove(&self, _: &str) -> Result<bool, keyring::Error> {
            Ok(false)
        }
    }

    /// A keychain that forgets everything between handles, like keyring's mock store.
    struct ForgetfulVault;
    impl Vault for ForgetfulVault {
        fn get(&self, _: &str) -> Result<Option<Vec<u8>>, keyring::Error> {
            Ok(None)
        }
        fn set(&self, _: &str, _: &[u8]) -> Result<(), keyring::Error> {
            Ok(())
        }
        fn remove(&self, _: &str) -> Result<bool, keyring::Error> {
            Ok(false)
        }
    }

    #[test]
    fn probe_gives_up_on_a_hanging_keychain_and_rejects_a_forgetful_one() {
        let started = Instant::now();
        let reason = probe(Arc::new(HangingVault), Duration::from_millis(200)).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(reason.contains("did not answer"), "{reason}");

        let reason = probe(Arc::new(ForgetfulVault), PROBE_TIMEOUT).unwrap_err();
        assert!(reason.contains("did not keep"), "{reason}");

        assert_eq!(
            probe(Arc::new(MemoryVault::default()), PROBE_TIMEOUT),
            Ok(())
        );
    }
}
