//! Helpers shared by the end-to-end tests: where the built binaries and the npm-installed
//! interop servers are.

pub mod app;
pub mod chaos;
pub mod http_fixture;
pub mod locale;
pub mod modern;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

/// This package's folder (`tests/`) in the checkout being tested. Cargo sets
/// `CARGO_MANIFEST_DIR` when it runs a test or bench binary (to that package's folder: `tests/`
/// or `benches/`, both at the workspace root); the path compiled in is only the fallback, since
/// a target folder shared between checkouts keeps this library built from another one (CI's
/// clone wrote its screenshots and read its locale files there).
pub fn tests_dir() -> PathBuf {
    let compiled = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .and_then(|package| package.parent().map(|root| root.join("tests")))
        .filter(|dir| dir.join("Cargo.toml").exists() && dir.join("src/app.rs").exists())
        .unwrap_or(compiled)
}

/// The workspace's target directory for the current profile, where `cargo build --workspace
/// --bins` puts every binary.
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    // target/<profile>/deps/<test-binary>
    exe.parent()
        .and_then(|deps| deps.parent())
        .expect("test binaries live in target/<profile>/deps")
        .to_path_buf()
}

/// A binary built from this workspace, e.g. `periscope` or `periscope-demo-server`.
pub fn bin(name: &str) -> PathBuf {
    let path = target_dir().join(name);
    assert!(
        path.exists(),
        "{} is missing: build every binary first, with the test seams (`make unit` does: `cargo build --workspace --bins --features periscope-cli/test-seams,periscope-app/test-seams`)",
        path.display()
    );
    path
}

/// Every probe the hostile-app fixture's page A makes and reports (`hostile-app-server`):
/// each must come out blocked (`webkit_ipc`: posted and refused, see e2e_app_sandbox).
pub const HOSTILE_APP_PROBES: [&str; 10] = [
    "storage",
    "tauri_global",
    "parent_tauri",
    "ipc_fetch",
    "webkit_ipc",
    "net_fetch",
    "net_img",
    "net_script",
    "other_app",
    "navigate",
];

pub fn bin_str(name: &str) -> String {
    bin(name).to_string_lossy().into_owned()
}

/// `@modelcontextprotocol/server-everything`, installed project-locally by `make test`.
pub fn server_everything() -> PathBuf {
    interop_bin("mcp-server-everything")
}

/// A command of the npm packages in tests/interop (`node_modules/.bin/<name>`).
fn interop_bin(name: &str) -> PathBuf {
    let path = tests_dir().join("interop/node_modules/.bin").join(name);
    assert!(
        path.exists(),
        "{} is missing: `make test` installs it (npm install in tests/interop)",
        path.display()
    );
    path
}

/// `@modelcontextprotocol/server-basic-vanillajs`, the MCP Apps example of the ext-apps SDK
/// (tool `get-time` rendering `ui://get-time/mcp-app.html`), installed project-locally like
/// [`server_everything`]; `--stdio` serves it over stdio.
pub fn server_basic_vanillajs() -> PathBuf {
    interop_bin("mcp-server-basic-vanillajs")
}

/// `@modelcontextprotocol/server-filesystem` and `server-memory`, installed project-locally
/// like [`server_everything`].
pub fn server_filesystem() -> PathBuf {
    interop_bin("mcp-server-filesystem")
}

pub fn server_memory() -> PathBuf {
    interop_bin("mcp-server-memory")
}

/// tests/interop/python/run.sh, which runs Python with the project-local venv (the MCP Python
/// SDK and the Python reference servers): `run.sh -m mcp_server_time`.
pub fn python_run() -> PathBuf {
    tests_dir().join("interop/python/run.sh")
}

/// A fresh, empty directory for one test's files.
pub fn scratch_dir(test: &str) -> PathBuf {
    remove_stale_scratch(test);
    let dir = std::env::temp_dir().join(format!("periscope-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir is writable");
    dir
}

/// Removes the folders of `test` that earlier runs left (their process is gone): CI runs on
/// the same machine again and again, and a flood test's folder holds 100 MB.
fn remove_stale_scratch(test: &str) {
    let suffix = format!("-{test}");
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("periscope-test-"))
            .and_then(|n| n.strip_suffix(&suffix))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if !std::path::Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A server process that serves HTTP and printed its URL as its first stdout line; killed
/// when dropped.
pub struct HttpServerProcess {
    pub child: Child,
    pub url: String,
}

impl HttpServerProcess {
    /// Starts `command` and waits for the URL it prints.
    pub fn start(command: &mut Command) -> HttpServerProcess {
        let mut child = command
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let mut url = String::new();
        BufReader::new(child.stdout.take().expect("stdout is piped"))
            .read_line(&mut url)
            .expect("the server prints its URL");
        HttpServerProcess {
            child,
            url: url.trim().to_string(),
        }
    }
}

impl Drop for HttpServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `periscope ARGS --url URL` (30 s per response at most).
pub fn periscope_at(url: &str, args: &[&str]) -> Output {
    Command::new(bin("periscope"))
        .args(args)
        .args(["--url", url, "--timeout", "30"])
        .output()
        .expect("periscope runs")
}

/// Runs `periscope ARGS` (the server, if any, in ARGS after `--`).
pub fn periscope(args: &[&str]) -> Output {
    Command::new(bin("periscope"))
        .args(args)
        .output()
        .expect("periscope runs")
}

/// The demo server over Streamable HTTP, speaking both eras (the modern one shares its state
/// between requests, so one client's change reaches the next).
pub fn demo_http() -> HttpServerProcess {
    HttpServerProcess::start(
        Command::new(bin("periscope-demo-server"))
            .args(["--http", "127.0.0.1:0", "--eras", "dual"])
            .stderr(Stdio::null()),
    )
}

/// A command's stdout as JSON, whatever its exit (a failed check or audit still reports).
pub fn stdout_json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            stderr(out)
        )
    })
}

/// A command's stdout, as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A command's stderr, as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The JSON a command that must have exited 0 printed (`--format json`).
pub fn ok_json(out: &Output) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(out));
    serde_json::from_slice(&out.stdout).expect("--format json prints JSON")
}

/// The `name` of every object in a JSON array (a `--format json` list).
pub fn names(list: &serde_json::Value) -> Vec<&str> {
    list.as_array()
        .expect("a JSON array")
        .iter()
        .map(|item| item["name"].as_str().unwrap())
        .collect()
}

/// The stdout of a command that must have exited 0 (its stderr is shown if it did not).
pub fn stdout_of_success(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(out));
    stdout(out)
}

/// A plain `GET` to an `http://` URL that does not follow redirects: (status, Location, body).
/// How tests play the browser in a sign-in.
pub fn http_get(url: &str) -> (u16, Option<String>, String) {
    use std::io::{Read, Write};
    let rest = url.strip_prefix("http://").expect("an http:// URL");
    let (authority, path) = rest
        .split_once('/')
        .map_or((rest, "/".to_string()), |(a, p)| (a, format!("/{p}")));
    let mut stream = std::net::TcpStream::connect(authority).expect("the server listens");
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let location = head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case("location")
            .then(|| v.trim().to_string())
    });
    (status, location, body.to_string())
}

/// `periscope ARGS` with its data (and stored sign-ins) in `data`, tokens in an owner-only
/// file rather than the keychain (CI has none).
pub fn periscope_signed_in(data: &std::path::Path, args: &[&str]) -> std::process::Command {
    let mut command = std::process::Command::new(bin("periscope"));
    command
        .args(args)
        .env("XDG_DATA_HOME", data)
        .env("PERISCOPE_CREDENTIALS_FILE_ONLY", "1");
    command
}

/// Runs `periscope ARGS`, plays the browser when it prints the sign-in URL, and returns
/// (exit code, stdout, stderr, the redirect's URL).
pub fn run_signing_in(data: &std::path::Path, args: &[&str]) -> (i32, String, String, String) {
    let mut child = periscope_signed_in(data, args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    use std::io::BufRead;
    let mut lines = std::io::BufReader::new(stderr).lines();
    let mut err = String::new();
    let mut redirect = String::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        err.push_str(&line);
        err.push('\n');
        if let Some(url) = line
            .trim()
            .strip_prefix("http://")
            .filter(|_| line.contains("/authorize?"))
        {
            let (status, location, _) = http_get(&format!("http://{url}"));
            assert_eq!(status, 302, "the demo AS approves at once");
            redirect = location.expect("a redirect");
            let (status, _, body) = http_get(&redirect);
            assert_eq!(status, 200);
            assert!(body.contains("Signed in"), "{body}");
            break;
        }
    }
    for line in lines {
        err.push_str(&line.unwrap());
        err.push('\n');
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        err,
        redirect,
    )
}
