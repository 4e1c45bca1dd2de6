//! The CLI signs in to the demo server's OAuth mode the way a person does: the authorization
//! URL is printed, "the browser" (this test) follows it, the redirect comes back to Periscope's
//! loopback listener. Then: the tokens are stored (an owner-only file here, no keychain on CI),
//! reused, never in the record or the output, and forgotten on --sign-out.

use std::process::Command;

use periscope_tests::{
    HttpServerProcess, bin, periscope_signed_in as periscope, run_signing_in, scratch_dir,
};
use serde_json::Value;

#[test]
fn the_cli_signs_in_reuses_the_token_keeps_secrets_out_of_records_and_signs_out() {
    let server = HttpServerProcess::start(Command::new(bin("periscope-demo-server")).args([
        "--http",
        "127.0.0.1:0",
        "--oauth",
    ]));
    let dir = scratch_dir("oauth-demo-cli");
    let data = dir.join("data");
    let record = dir.join("record.jsonl");
    let (code, out, err, redirect) = run_signing_in(
        &data,
        &[
            "tools",
            "call",
            "add",
            "-a",
            "a=2",
            "-a",
            "b=3",
            "--url",
            &server.url,
            "--no-browser",
            "--record",
            record.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains('5'), "{out}");
    assert!(
        err.contains("sign in at 127.0.0.1 (scopes: mcp:read mcp:write)"),
        "{err}"
    );
    assert!(redirect.contains("/callback?code="), "{redirect}");

    // Stored, owner-only.
    let file = data.join("dev.periscope.app/credentials.json");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let entry = &stored["entries"][0];
    let secrets: Vec<String> = ["access_token", "refresh_token"]
        .iter()
        .map(|k| {
            entry[k]
                .as_str()
                .unwrap_or_else(|| panic!("{k} stored"))
                .to_string()
        })
        .collect();
    let code_value = redirect
        .split("code=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap()
        .to_string();

    // Never in the record, the output or the logs.
    let recorded = std::fs::read_to_string(&record).unwrap();
    assert!(
        recorded.contains("[redacted]"),
        "the bearer header is recorded redacted"
    );
    for secret in secrets.iter().chain([&code_value]) {
        assert!(
            !recorded.contains(secret.as_str()),
            "a secret in the record"
        );
        assert!(
            !out.contains(secret.as_str()) && !err.contains(secret.as_str()),
            "a secret in the output"
        );
    }

    // The stored token is used: no sign-in the second time.
    let again = periscope(&data, &["ping", "--url", &server.url, "--no-browser"])
        .output()
        .unwrap();
    let again_err = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{again_err}");
    assert!(!again_err.contains("sign in at"), "{again_err}");

    // Signed out: the tokens are gone from the store, and the next call asks again.
    let (code, _, err, _) = run_signing_in(
        &data,
        &["ping", "--url", &server.url, "--no-browser", "--sign-out"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("sign in at"),
        "signing out forgets the token: {err}"
    );
}

#[test]
fn an_expiring_token_is_refreshed_without_a_new_sign_in() {
    let server = HttpServerProcess::start(Command::new(bin("periscope-demo-server")).args([
        "--http",
        "127.0.0.1:0",
        "--oauth",
        "--token-ttl",
        "2",
    ]));
    let dir = scratch_dir("oauth-demo-refresh");
    let data = dir.join("data");
    let (code, _, err, _) = run_signing_in(&data, &["ping", "--url", &server.url, "--no-browser"]);
    assert_eq!(code, 0, "{err}");
    let file = data.join("dev.periscope.app/credentials.json");
    let token_of = || -> String {
        let stored: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        stored["entries"][0]["access_token"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let first = token_of();
    std::thread::sleep(std::time::Duration::from_millis(2500));
    // Expired now: the refresh token gets a new one, no browser involved.
    let again = periscope(&data, &["ping", "--url", &server.url, "--no-browser"])
        .output()
        .unwrap();
    let again_err = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{again_err}");
    assert!(!again_err.contains("sign in at"), "{again_err}");
    assert_ne!(token_of(), first, "a new access token was stored");
}
