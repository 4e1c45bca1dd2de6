//! Launch from the command line, on the real app: `periscope-app -- <command>` opens that
//! server as a temporary entry (connected, not saved), and `periscope open-app --url <url>`
//! while the app runs hands the server to the running instance (the single-instance plugin,
//! over a private D-Bus session bus) instead of starting a second app. Save keeps an entry.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use periscope_tests::app::{Harness, Launch, ONE_AT_A_TIME, WAIT};
use periscope_tests::{HttpServerProcess, bin, bin_str};

/// A D-Bus session bus of this test's own: the single-instance handover goes through it, and
/// no other app on the machine can answer for ours.
struct SessionBus {
    daemon: Child,
    address: String,
}

impl SessionBus {
    fn start() -> SessionBus {
        let mut daemon = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("dbus-daemon starts (Debian package dbus-daemon)");
        let mut address = String::new();
        BufReader::new(daemon.stdout.take().unwrap())
            .read_line(&mut address)
            .expect("dbus-daemon prints its address");
        SessionBus {
            daemon,
            address: address.trim().to_string(),
        }
    }
}

impl Drop for SessionBus {
    fn drop(&mut self) {
        let _ = self.daemon.kill();
        let _ = self.daemon.wait();
    }
}

fn item(id: &str) -> String {
    format!(r#"[data-testid="server-item"][data-server-id="{id}"]"#)
}

/// The app processes running on this test's data folder (read from their environment).
fn apps_on(data: &Path) -> usize {
    let wanted = format!("XDG_DATA_HOME={}", data.join("data").display());
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            std::fs::read_to_string(e.path().join("comm"))
                .is_ok_and(|c| c.trim() == "periscope-app")
        })
        .filter(|e| {
            std::fs::read(e.path().join("environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|var| var == wanted.as_bytes()))
        })
        .count()
}

fn catalog_file(h: &Harness) -> String {
    std::fs::read_to_string(h.data.join("data/dev.periscope.app/catalog.json")).unwrap_or_default()
}

#[tokio::test]
async fn a_server_named_on_the_command_line_opens_as_a_temporary_entry_in_the_one_running_app() {
    let _one = ONE_AT_A_TIME.lock().await;
    let bus = SessionBus::start();
    let launch = Launch {
        args: vec![
            "--".into(),
            bin_str("periscope-demo-server"),
            "--eras".into(),
            "dual".into(),
        ],
        env: vec![("DBUS_SESSION_BUS_ADDRESS".into(), bus.address.clone())],
        ..Launch::default()
    };
    let mut h = Harness::start_launch("launch", launch, |_| {}).await;

    // The command became entry cli-1, connected, marked temporary and where it came from.
    h.find(&format!(r#"{}[data-status="ready"]"#, item("cli-1")))
        .await;
    let mark = h
        .text_containing(
            &format!(r#"{} [data-testid="temporary-mark"]"#, item("cli-1")),
            "from the command line",
        )
        .await;
    assert!(
        mark.contains("temporary") && mark.contains("Save"),
        "{mark}"
    );
    assert!(
        !catalog_file(&h).contains("cli-1"),
        "a temporary entry was saved"
    );
    h.shot("temporary-entry").await;

    // A second launch through the CLI while the app runs: the running app gets the server.
    let server = HttpServerProcess::start(
        Command::new(bin("periscope-demo-server")).args(["--http", "127.0.0.1:0"]),
    );
    let status = Command::new(bin("periscope"))
        .args(["open-app", "--url", &server.url])
        .envs(h.app_env())
        .env("DBUS_SESSION_BUS_ADDRESS", &bus.address)
        .status()
        .expect("periscope open-app runs");
    assert!(status.success(), "periscope open-app: {status}");
    h.find(&format!(r#"{}[data-status="ready"]"#, item("cli-2")))
        .await;
    h.text_containing(
        &format!(r#"{} [data-testid="temporary-mark"]"#, item("cli-2")),
        "temporary",
    )
    .await;
    // The second app handed over and quit: one app on this data folder.
    let deadline = Instant::now() + WAIT;
    while apps_on(&h.data) != 1 {
        assert!(
            Instant::now() < deadline,
            "{} app processes run on the test's data folder, expected 1",
            apps_on(&h.data)
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    h.shot("second-entry-in-running-app").await;

    // Save keeps cli-1 in the catalog file; cli-2 stays temporary.
    h.click(&format!(r#"{} [data-testid="keep-server"]"#, item("cli-1")))
        .await;
    h.gone(&format!(
        r#"{} [data-testid="temporary-mark"]"#,
        item("cli-1")
    ))
    .await;
    let saved = catalog_file(&h);
    assert!(
        saved.contains("\"cli-1\"") && !saved.contains("\"cli-2\""),
        "{saved}"
    );
    h.stop().await;
}

#[tokio::test]
async fn a_command_that_cannot_start_opens_selected_with_its_failure_and_nothing_else_said() {
    let _one = ONE_AT_A_TIME.lock().await;
    let bus = SessionBus::start();
    let launch = Launch {
        args: vec![
            "--".into(),
            "/nonexistent/mcp-server".into(),
            "--flag".into(),
        ],
        env: vec![
            ("DBUS_SESSION_BUS_ADDRESS".into(), bus.address.clone()),
            ("LANG".into(), "zh_CN.UTF-8".into()),
            ("LC_ALL".into(), "zh_CN.UTF-8".into()),
            ("LANGUAGE".into(), String::new()),
        ],
        ..Launch::default()
    };
    let mut h = Harness::start_launch("launch-missing", launch, |_| {}).await;

    // The server asked for is the one shown (not the demo), failed, and says why.
    h.find(&format!(
        r#"{}[data-status="failed"][aria-current="true"]"#,
        item("cli-1")
    ))
    .await;
    let failure = h.text(r#"[data-testid="connection-error"]"#).await;
    assert!(failure.contains("/nonexistent/mcp-server"), "{failure}");
    // What to do next, in Chinese: the command was not found.
    h.text_containing(
        r#"[data-testid="diagnosis"][data-kind="command_not_found"]"#,
        "未找到 `/nonexistent/mcp-server`",
    )
    .await;
    // Its failure is the only problem said: no banner about traffic it never had.
    h.count_is(".server-view .error-box", 1).await;
    h.shot("missing-command-selected").await;
}
