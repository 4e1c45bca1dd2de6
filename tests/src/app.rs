//! Drives the real desktop app: a private Xvfb display, tauri-driver (WebKitWebDriver), a
//! fresh data folder (so the app sees a first launch), and WebDriver helpers.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator, elements::Element};

use crate::{bin, scratch_dir};

pub const WAIT: Duration = Duration::from_secs(30);

/// The demo server's entry in the sidebar once it is connected.
pub const DEMO_READY: &str =
    r#"[data-testid="server-item"][data-server-id="demo"][data-status="ready"]"#;

/// The frame of an MCP App panel (any view).
pub const APP_FRAME: &str = r#"iframe[data-testid="mcp-app-frame"]"#;

/// The tool result pane.
const TOOL_RESULT: &str = r#"[data-testid="tool-result"]"#;

/// One app at a time: the app is single-instance, and two would fight over two cores.
pub static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Which app to start and how: the build's app by default; the installed one for the package
/// test; arguments (`tauri:options.args`) and extra environment for the launch tests.
#[derive(Clone, Default)]
pub struct Launch {
    /// None: the workspace build's `periscope-app`.
    pub app: Option<PathBuf>,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
}

pub struct Harness {
    pub client: Client,
    /// The X display the app runs on (e.g. `:7`), for a second process on the same screen.
    pub display: String,
    /// The app's data folder (XDG_DATA_HOME).
    pub data: PathBuf,
    /// When the WebDriver session (and so the app) was asked to start.
    pub launched_at: Instant,
    xvfb: Child,
    driver: Child,
    shots: PathBuf,
    step: usize,
    launch: Launch,
}

fn which(name: &str) -> PathBuf {
    let home_bin = std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo/bin").join(name));
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(name))
        .chain(home_bin)
        .find(|p| p.exists())
        .unwrap_or_else(|| {
            panic!("{name} is not installed: run scripts/bootstrap.sh (make test does)")
        })
}

/// Every process under `pid` (from /proc), e.g. the app under tauri-driver.
fn descendants(pid: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let child: u32 = e.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            // `pid (comm) state ppid …`: comm may hold spaces, so read after the last ')'.
            let ppid = stat
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()?;
            Some((child, ppid))
        })
        .collect();
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            parents
                .iter()
                .filter(|(_, p)| *p == parent)
                .map(|(c, _)| *c),
        );
        i += 1;
    }
    found.remove(0);
    found
}

fn app_env(data: &Path, display: &str, launch: &Launch) -> Vec<(String, std::ffi::OsString)> {
    let mut env: Vec<(String, std::ffi::OsString)> = vec![
        ("DISPLAY".into(), display.into()),
        ("XDG_DATA_HOME".into(), data.join("data").into()),
        ("XDG_CONFIG_HOME".into(), data.join("config").into()),
        ("XDG_CACHE_HOME".into(), data.join("cache").into()),
        // The app's browser opener writes here instead: no browser ever starts under test,
        // and the test sees exactly what would have been opened, and when.
        (
            "PERISCOPE_OPEN_URL_LOG".into(),
            data.join("opened-urls.txt").into(),
        ),
        // Exports are written here instead of asking where in a save dialog.
        ("PERISCOPE_SAVE_DIR".into(), data.join("saved-files").into()),
        // File → Open opens this file instead of asking in an open dialog (a test puts a
        // recording there first).
        (
            "PERISCOPE_OPEN_FILE".into(),
            data.join("open-file.jsonl").into(),
        ),
        // Tokens in the 0600 file of this run's data folder, never in a desktop keychain.
        ("PERISCOPE_CREDENTIALS_FILE_ONLY".into(), "1".into()),
    ];
    // WebKit's compositing stays on, as the suite always ran: with no GPU the app would turn
    // it off (src-tauri/src/rendering.rs), and then WebKitWebDriver's commands can hang for
    // good once a test has entered an MCP App's frame (e2e_apps). A launch whose env gives
    // this variable an empty value lets the app decide (the app_flood benchmark).
    if std::env::var_os(COMPOSITING).is_none() && !app_decides_compositing(launch) {
        env.push((COMPOSITING.into(), "0".into()));
    }
    env.extend(
        launch
            .env
            .iter()
            .filter(|(k, v)| !(k == COMPOSITING && v.is_empty()))
            .map(|(k, v)| (k.clone(), v.into())),
    );
    env
}

/// WebKitGTK's switch for accelerated compositing (`1`: off, `0`: on).
const COMPOSITING: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";

/// Whether `launch` leaves compositing to the app: the variable is then removed from the
/// driver's environment (and so from the app's).
fn app_decides_compositing(launch: &Launch) -> bool {
    launch
        .env
        .iter()
        .any(|(k, v)| k == COMPOSITING && v.is_empty())
}

/// Two distinct free ports: both are held open while the second is picked, so they cannot
/// be the same one.
fn free_ports() -> (u16, u16) {
    let bind = || std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let (a, b) = (bind(), bind());
    (
        a.local_addr().unwrap().port(),
        b.local_addr().unwrap().port(),
    )
}

/// Writes the app's catalog in the data folder `start_with` prepares: one legacy-era stdio
/// entry `id` named `name` that runs `command` with `args`.
pub fn catalog_of_one(data: &Path, id: &str, name: &str, command: &str, args: &[&str]) {
    catalog_of(data, &[(id, name, command, args)]);
}

/// A catalog of legacy stdio servers, each `(id, name, command, args)`.
pub fn catalog_of(data: &Path, servers: &[(&str, &str, &str, &[&str])]) {
    let dir = data.join("dev.periscope.app");
    std::fs::create_dir_all(&dir).unwrap();
    let servers: Vec<_> = servers
        .iter()
        .map(|(id, name, command, args)| {
            serde_json::json!({"id": id, "name": name, "era": "legacy",
                "target": {"transport": "stdio", "command": command, "args": args,
                    "env": [], "cwd": null}})
        })
        .collect();
    let catalog = serde_json::json!({ "servers": servers });
    std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
}

impl Harness {
    /// Starts a display, the driver and the app. `prepare` runs on the data folder first
    /// (e.g. to write a catalog).
    pub async fn start_with(name: &str, prepare: impl FnOnce(&Path)) -> Harness {
        Self::start_launch(name, Launch::default(), prepare).await
    }

    /// Like `start_with`, with another app binary, arguments or environment.
    pub async fn start_launch(name: &str, launch: Launch, prepare: impl FnOnce(&Path)) -> Harness {
        let data = scratch_dir(&format!("e2e-{name}"));
        prepare(&data.join("data"));
        let shots = crate::tests_dir().join("../test-artifacts/e2e").join(name);
        let _ = std::fs::remove_dir_all(&shots);
        std::fs::create_dir_all(&shots).unwrap();
        Self::launch(data, shots, 0, launch).await
    }

    /// Quits the app (and its display and driver), waits until it is gone, and starts it again
    /// on the same data folder: what the user sees after a restart. Screenshots carry on.
    pub async fn restart(self) -> Harness {
        let (data, shots, step) = (self.data.clone(), self.shots.clone(), self.step);
        let launch = self.launch.clone();
        let app = descendants(self.driver.id());
        self.stop().await;
        // The app is single-instance: a new one would hand over to the old one if it lingered.
        let deadline = Instant::now() + WAIT;
        while app
            .iter()
            .any(|pid| Path::new(&format!("/proc/{pid}")).exists())
        {
            assert!(Instant::now() < deadline, "the app did not quit");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Self::launch(data, shots, step, launch).await
    }

    /// The environment the app runs in (display, data folders, test switches, the launch's
    /// own), for another process that must see the same app.
    pub fn app_env(&self) -> Vec<(String, std::ffi::OsString)> {
        app_env(&self.data, &self.display, &self.launch)
    }

    async fn launch(data: PathBuf, shots: PathBuf, step: usize, launch: Launch) -> Harness {
        let app = launch.app.clone().unwrap_or_else(|| bin("periscope-app"));
        // Xvfb picks a free display and tells us its number.
        let mut xvfb = Command::new(which("Xvfb"))
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let mut display = String::new();
        BufReader::new(xvfb.stdout.take().unwrap())
            .read_line(&mut display)
            .unwrap();
        let display = format!(":{}", display.trim());

        let (port, native_port) = free_ports();
        let mut driver = Command::new(which("tauri-driver"));
        driver
            .args([
                "--port",
                &port.to_string(),
                "--native-port",
                &native_port.to_string(),
            ])
            .envs(app_env(&data, &display, &launch));
        if app_decides_compositing(&launch) {
            driver.env_remove(COMPOSITING);
        }
        let driver = driver
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("tauri-driver starts");
        // tauri-driver listens before the WebKitWebDriver it started does, and drops a new
        // session's connection when it cannot reach it (hyper's IncompleteMessage): both ports
        // must accept before the session is asked for.
        let deadline = Instant::now() + WAIT;
        for (listener, p) in [("tauri-driver", port), ("WebKitWebDriver", native_port)] {
            while std::net::TcpStream::connect(("127.0.0.1", p)).is_err() {
                assert!(
                    Instant::now() < deadline,
                    "{listener} did not listen on {p}"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        let mut caps = serde_json::Map::new();
        caps.insert(
            "tauri:options".into(),
            serde_json::json!({"application": app.to_string_lossy(), "args": launch.args}),
        );
        let launched_at = Instant::now();
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a WebDriver session on the app starts");
        Harness {
            client,
            display,
            data,
            launched_at,
            xvfb,
            driver,
            shots,
            step,
            launch,
        }
    }

    pub async fn start(name: &str) -> Harness {
        Self::start_with(name, |_| {}).await
    }

    pub async fn shot(&mut self, what: &str) {
        self.step += 1;
        // WebKit snapshots what was last painted: let two frames go by first, so the picture
        // shows the state the test just checked.
        let _ = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(() => done()));",
                vec![],
            )
            .await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        let png = self.client.screenshot().await.expect("screenshot");
        std::fs::write(self.shots.join(format!("{:02}-{what}.png", self.step)), png).unwrap();
    }

    /// Waits until `css` matches an element, and returns it.
    pub async fn find(&self, css: &str) -> Element {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Ok(e) = self.client.find(Locator::Css(css)).await {
                return e;
            }
            if Instant::now() > deadline {
                let body = self
                    .client
                    .find(Locator::Css("body"))
                    .await
                    .unwrap()
                    .text()
                    .await
                    .unwrap_or_default();
                panic!("nothing matched {css} within {WAIT:?}; the page says:\n{body}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits for `css`, then clicks it. An element the driver cannot reach where it is (a tab
    /// scrolled out of the tab bar's sight, under its edge arrows) is first brought to the
    /// middle of its scrolling box, as a user would scroll to it.
    ///
    /// The driver clicks at a point on the screen. Now and then, on a loaded machine, the click
    /// never reaches the element (seen: an app's Call button, a button in an MCP App's frame):
    /// the element then gets no `click` event at all, and the test waits in vain for its effect.
    /// So the element is watched for the click, and clicked again, at most twice more, only
    /// when it got none; an element that got the click and did nothing is the app's failure
    /// and is left to the test. An element that got none of the three clicks fails the test
    /// here, naming it: a step followed only by a check that nothing happened must not pass
    /// without its click.
    pub async fn click(&self, css: &str) {
        const ATTEMPTS: usize = 3;
        for attempt in 1..=ATTEMPTS {
            let element = self.find(css).await;
            self.steady(&element).await;
            let watched = self
                .client
                .execute(
                    "const el = arguments[0]; el.__periscopeClicked = false;
                     el.addEventListener('click', () => { el.__periscopeClicked = true; },
                       {capture: true, once: true});",
                    vec![serde_json::to_value(&element).expect("an element as JSON")],
                )
                .await
                .is_ok();
            self.click_element(&element).await;
            if !watched || self.clicked(&element).await {
                return;
            }
            if attempt < ATTEMPTS {
                eprintln!(
                    "the click on {css} did not reach it (attempt {attempt}); clicking again"
                );
            }
        }
        panic!("the click on {css} never reached it: {ATTEMPTS} clicks, no click event");
    }

    /// Whether `element` got the click it was watched for. An element the click removed (a
    /// dialog's button) or replaced (a page that moved on) counts as clicked, and so does an
    /// `<option>` now selected. A click the
    /// driver already sent may still be on its way: asked twice, 200 ms apart.
    async fn clicked(&self, element: &Element) -> bool {
        for _ in 0..2 {
            let got = self
                .client
                .execute(
                    // An <option> is chosen, not clicked: WebKit sends its select a change
                    // event and the option no click, so for an option its being selected is
                    // the click's effect.
                    "const el = arguments[0]; return !el.isConnected || el.__periscopeClicked === true
                       || (el instanceof HTMLOptionElement && el.selected);",
                    vec![serde_json::to_value(element).expect("an element as JSON")],
                )
                .await;
            match got {
                Ok(serde_json::Value::Bool(false)) => {}
                _ => return true,
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        false
    }

    /// Scrolls the view so `css` is at the top of its scrolling box (a screenshot of what is
    /// under a form).
    pub async fn scroll_to(&self, css: &str) {
        let element = self.find(css).await;
        self.client
            .execute(
                "arguments[0].scrollIntoView({block: 'start'});",
                vec![serde_json::to_value(&element).expect("an element as JSON")],
            )
            .await
            .expect("scroll into view");
    }

    async fn click_element(&self, element: &Element) {
        if element.clone().click().await.is_ok() {
            return;
        }
        self.client
            .execute(
                "arguments[0].scrollIntoView({block: 'center', inline: 'center'});",
                vec![serde_json::to_value(element).expect("an element as JSON")],
            )
            .await
            .expect("scroll into view");
        element.clone().click().await.expect("click");
    }

    /// Waits (at most 2 s) until `element` has the same box in two painted frames in a row (what
    /// Playwright calls stable). The driver clicks at the point where it finds an element: one
    /// still moving (an app's frame growing to the size its app asks, a page still laying out on
    /// a loaded machine) takes the click somewhere else, as a user's would, and the test then
    /// waits in vain for its effect (seen in `e2e_apps`: about one run in four under load).
    async fn steady(&self, element: &Element) {
        let _ = self
            .client
            .execute_async(
                "const [el, done] = arguments; let last = '', same = 0, finished = false;
                 const finish = () => { if (!finished) { finished = true; done(); } };
                 // A page that paints no frames (hidden) must not hold the click for long.
                 setTimeout(finish, 2000);
                 const tick = () => {
                   if (finished) return;
                   const r = el.getBoundingClientRect();
                   const now = [r.x, r.y, r.width, r.height].join();
                   same = now === last ? same + 1 : 0;
                   last = now;
                   if (same >= 1) finish(); else requestAnimationFrame(tick);
                 };
                 requestAnimationFrame(tick);",
                vec![serde_json::to_value(element).expect("an element as JSON")],
            )
            .await;
    }

    /// Waits for `css`, then types `text` into it.
    pub async fn type_into(&self, css: &str, text: &str) {
        self.find(css).await.send_keys(text).await.expect("typing");
    }

    /// Waits for the input `css`, then empties it as a user would (select all, Backspace), so
    /// React hears the change.
    pub async fn clear(&self, css: &str) {
        let input = self.find(css).await;
        input
            .send_keys("\u{E009}a\u{E009}")
            .await
            .expect("select all");
        input.send_keys("\u{E003}").await.expect("backspace");
    }

    /// Waits for `css`, then returns its text. An element React replaced between finding and
    /// reading (a stale reference) is found again.
    pub async fn text(&self, css: &str) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            match self.find(css).await.text().await {
                Ok(text) => return text,
                Err(error) => assert!(
                    Instant::now() < deadline,
                    "the text of {css} could not be read: {error}"
                ),
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The URLs the app handed to the system browser so far, in order.
    pub fn opened_urls(&self) -> Vec<String> {
        std::fs::read_to_string(self.data.join("opened-urls.txt"))
            .map(|s| s.lines().map(str::to_string).collect())
            .unwrap_or_default()
    }

    /// The file the app saved through its save-dialog seam (`PERISCOPE_SAVE_DIR`) whose name
    /// ends with `suffix`, once it is there.
    pub async fn saved_file(&self, suffix: &str) -> PathBuf {
        let dir = self.data.join("saved-files");
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            let found = std::fs::read_dir(&dir).ok().and_then(|d| {
                d.flatten()
                    .map(|e| e.path())
                    .find(|p| p.to_string_lossy().ends_with(suffix))
            });
            if let Some(path) = found {
                return path;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "nothing saved as *{suffix} in {}",
                dir.display()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until `css` matches nothing.
    pub async fn gone(&self, css: &str) {
        let deadline = Instant::now() + WAIT;
        while self.count(css).await > 0 {
            assert!(
                Instant::now() < deadline,
                "{css} is still there after {WAIT:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// How many elements match `css` right now (counted inside the page, so a re-render
    /// between finding and counting cannot leave a stale element behind).
    pub async fn count(&self, css: &str) -> usize {
        let n = self
            .client
            .execute(
                "return document.querySelectorAll(arguments[0]).length;",
                vec![serde_json::Value::from(css)],
            )
            .await
            .expect("the page answers");
        n.as_u64().unwrap_or(0) as usize
    }

    /// Waits until `script` (run in the page) returns true; `what` says what never happened.
    pub async fn until_script_true(&self, script: &str, what: &str) {
        let deadline = Instant::now() + WAIT;
        loop {
            let got = self.client.execute(script, vec![]).await;
            if matches!(got, Ok(serde_json::Value::Bool(true))) {
                return;
            }
            assert!(Instant::now() < deadline, "{what} (after {WAIT:?})");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the text of `css` contains `expected`; returns the text.
    pub async fn text_containing(&self, css: &str, expected: &str) -> String {
        self.text_of_saying(css, css, expected).await
    }

    /// Waits until the tool result says `expected`; returns its text.
    pub async fn result_saying(&self, expected: &str) -> String {
        self.text_of_saying(TOOL_RESULT, "the result", expected)
            .await
    }

    /// Waits until the text of `css` contains `expected`; `what` names it if it never does.
    async fn text_of_saying(&self, css: &str, what: &str, expected: &str) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let text = self.text(css).await;
            if text.contains(expected) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "{what} never said {expected:?}; it says:\n{text}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until `css` matches exactly `n` elements.
    pub async fn count_is(&self, css: &str, n: usize) {
        let deadline = Instant::now() + WAIT;
        loop {
            let now = self.count(css).await;
            if now == n {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{css}: {now} elements, expected {n}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until `css` has `attr` = `value`; returns the element.
    pub async fn attr_is(&self, css: &str, attr: &str, value: &str) -> Element {
        let deadline = Instant::now() + WAIT;
        loop {
            let element = self.find(css).await;
            let now = element.attr(attr).await.ok().flatten();
            if now.as_deref() == Some(value) {
                return element;
            }
            assert!(
                Instant::now() < deadline,
                "{css} has {attr}={now:?}, never {value:?}; it says: {}",
                element.text().await.unwrap_or_default()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until the demo server is connected, then selects it.
    pub async fn ready_demo(&self) {
        self.click(DEMO_READY).await;
    }

    /// Selects the demo server and clicks Connect (after a restart, only the first launch
    /// connects by itself).
    pub async fn connect_demo(&self) {
        self.click(r#"[data-testid="server-item"][data-server-id="demo"]"#)
            .await;
        self.click(r#"[data-testid="connect-button"]"#).await;
    }

    /// Selects the built-in "Demo server (legacy era)" entry (pinned to the `initialize`
    /// handshake), connects it and waits until it is ready: for what only the legacy era has
    /// (server-to-client requests, ping, logging/setLevel, resources/subscribe).
    pub async fn connect_legacy_demo(&self) {
        let item = r#"[data-testid="server-item"][data-server-id="demo-legacy"]"#;
        self.click(item).await;
        self.click(r#"[data-testid="connect-button"]"#).await;
        self.find(&format!(r#"{item}[data-status="ready"]"#)).await;
    }

    /// Opens the Tools tab on `tool`.
    /// Asserts the window's layout holds at its size: the server view's tab bar scrolls no
    /// way (every view's tab lies inside the window, none clipped), and the sidebar and the
    /// main view each fill the window's height (nothing else takes a share of it).
    pub async fn assert_layout_fits(&self) {
        let problems = self
            .client
            .execute(
                "const out = []; const w = innerWidth, h = innerHeight;
                 const bar = document.querySelector('.tab-bar');
                 if (!bar) out.push('no tab bar');
                 else {
                   if (bar.scrollWidth > bar.clientWidth + 1) out.push(`the tab bar scrolls: ${bar.scrollWidth} > ${bar.clientWidth}`);
                   for (const tab of bar.querySelectorAll('[role=tab]')) {
                     const r = tab.getBoundingClientRect();
                     if (r.width === 0 || r.left < 0 || r.right > w + 0.5 || r.bottom > h)
                       out.push(`${tab.dataset.testid} lies outside the window: ${r.left}..${r.right}`);
                   }
                 }
                 for (const sel of ['.sidebar', '.main']) {
                   const el = document.querySelector(sel);
                   const r = el && el.getBoundingClientRect();
                   if (!r || Math.abs(r.height - h) > 0.5) out.push(`${sel} is ${r && r.height} px tall in a ${h} px window`);
                 }
                 return out;",
                vec![],
            )
            .await
            .expect("the page runs the layout check");
        assert_eq!(
            problems,
            serde_json::json!([]),
            "the layout does not fit the window"
        );
    }

    pub async fn pick_tool(&self, tool: &str) {
        self.click(r#"[data-testid="tab-tools"]"#).await;
        self.click(&format!(
            r#"[data-testid="tool-item"][data-tool-name="{tool}"]"#
        ))
        .await;
    }

    /// Clicks the tool form's Call button.
    pub async fn call_tool_button(&self) {
        self.click(r#"[data-testid="call-tool-button"]"#).await;
    }

    /// Opens the Tools tab on `tool` and calls it as it stands.
    pub async fn call_tool(&self, tool: &str) {
        self.pick_tool(tool).await;
        self.call_tool_button().await;
    }

    /// Switches into the MCP App frame `frame` (waiting for it): `find`, `click`, `text` and
    /// `count` then act on the app's page. `leave_app` comes back.
    pub async fn enter_app(&self, frame: &str) {
        let element = self.find(frame).await;
        // WebKit's driver does not scroll a frame into view for what is typed or clicked in it.
        self.client
            .execute(
                "arguments[0].scrollIntoView({block: 'center'});",
                vec![serde_json::to_value(&element).unwrap()],
            )
            .await
            .expect("the frame scrolls into view");
        self.steady(&element).await;
        element
            .enter_frame()
            .await
            .unwrap_or_else(|e| panic!("cannot enter the app frame {frame}: {e}"));
    }

    /// Back from an app frame to Periscope's page.
    pub async fn leave_app(&self) {
        self.client
            .enter_parent_frame()
            .await
            .expect("back to Periscope's page");
    }

    /// Inside the app frame `frame`: waits until `css` says `expected`, returns its text, and
    /// comes back to Periscope's page.
    pub async fn app_text_containing(&self, frame: &str, css: &str, expected: &str) -> String {
        self.enter_app(frame).await;
        let text = self.text_containing(css, expected).await;
        self.leave_app().await;
        text
    }

    /// Inside the app frame `frame`: clicks `css`, and comes back to Periscope's page.
    pub async fn app_click(&self, frame: &str, css: &str) {
        self.enter_app(frame).await;
        self.click(css).await;
        self.leave_app().await;
    }

    /// Ends the WebDriver session (which quits the app), then the driver and the display.
    pub async fn stop(self) {
        let _ = self.client.clone().close().await;
        // Drop does the rest.
    }
}

/// Runs on `stop` and on a panic alike: a failed test must not leave a display, a driver or an
/// app running to slow (or confuse) the tests after it.
impl Drop for Harness {
    fn drop(&mut self) {
        // After a normal stop the app is quitting on its own (and may still be saving); after a
        // panic nothing closed the session, so the app is killed once the driver is gone.
        let app = if std::thread::panicking() {
            descendants(self.driver.id())
        } else {
            Vec::new()
        };
        // tauri-driver stops WebKitWebDriver only on SIGTERM (a SIGKILL would leave it running).
        let _ = Command::new("kill")
            .arg(self.driver.id().to_string())
            .status();
        let _ = self.driver.wait();
        for pid in app {
            if Path::new(&format!("/proc/{pid}")).exists() {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            }
        }
        let _ = self.xvfb.kill();
        let _ = self.xvfb.wait();
    }
}
