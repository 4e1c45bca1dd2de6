//! The .deb, built by `scripts/package.sh --debug` from the test build's binaries (the release
//! package is the same script with the release profile: `make package`). Its control fields and
//! contents are read, then it is installed: with `dpkg -i` on this machine when the test runs as
//! root and no `periscope` package is installed yet (CI), else unpacked with `dpkg -x` into a
//! scratch root. The installed app is launched under Xvfb and must connect its built-in demo
//! server (which it finds beside itself), and the installed `periscope --version` must answer.
//! An installed package is removed again, on failure too.

use std::path::{Path, PathBuf};
use std::process::Command;

use periscope_tests::app::{DEMO_READY, Harness, Launch, ONE_AT_A_TIME};
use periscope_tests::{scratch_dir, target_dir};

const ICON_SIZES: [u32; 8] = [16, 24, 32, 48, 64, 128, 256, 512];

fn repo() -> PathBuf {
    periscope_tests::tests_dir().join("..")
}

/// Runs the packaging script on the debug profile; returns the .deb's path (its last line).
fn build_deb() -> PathBuf {
    let target = target_dir();
    let out = Command::new(repo().join("scripts/package.sh"))
        .arg("--debug")
        .env("CARGO_TARGET_DIR", target.parent().expect("target/debug"))
        .output()
        .expect("scripts/package.sh runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "scripts/package.sh --debug failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let deb = PathBuf::from(stdout.lines().last().unwrap_or_default().trim());
    assert!(deb.is_file(), "the script named no .deb: {stdout}");
    deb
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("the command starts");
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn control_field(deb: &Path, field: &str) -> String {
    run(Command::new("dpkg-deb").arg("-f").arg(deb).arg(field))
        .trim()
        .to_string()
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(&bytes[1..4], b"PNG", "{} is not a PNG", path.display());
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Removes the package installed by the test, whether the test passes or panics.
struct Installed;

impl Drop for Installed {
    fn drop(&mut self) {
        let _ = Command::new("dpkg").args(["-r", "periscope"]).status();
    }
}

fn may_install_here() -> bool {
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let installed = Command::new("dpkg")
        .args(["-s", "periscope"])
        .output()
        .is_ok_and(|o| o.status.success());
    root && !installed
}

#[tokio::test]
async fn the_deb_installs_an_app_that_connects_its_demo_server_and_a_working_cli() {
    let _one = ONE_AT_A_TIME.lock().await;
    let deb = build_deb();

    assert_eq!(control_field(&deb, "Package"), "periscope");
    let depends = control_field(&deb, "Depends");
    let depends: Vec<&str> = depends.split(',').map(str::trim).collect();
    for needed in ["libwebkit2gtk-4.1-0", "libgtk-3-0", "libdbus-1-3"] {
        assert!(
            depends.contains(&needed),
            "Depends lacks {needed}: {depends:?}"
        );
    }
    // Every dependency names a real package: this machine runs the app, so has them all.
    for dep in &depends {
        let name = dep.split_whitespace().next().unwrap();
        run(Command::new("dpkg").args(["-s", name]));
    }

    let scratch = scratch_dir("package-deb");
    let unpacked = scratch.join("root");
    run(Command::new("dpkg").arg("-x").arg(&deb).arg(&unpacked));
    let desktop =
        std::fs::read_to_string(unpacked.join("usr/share/applications/Periscope.desktop"))
            .expect("the package has a desktop entry");
    for line in [
        "Name=Periscope",
        "Exec=periscope-app",
        "Icon=periscope-app",
        "Categories=Development;",
        "Type=Application",
    ] {
        assert!(
            desktop.lines().any(|l| l == line),
            "the desktop entry lacks {line}:\n{desktop}"
        );
    }
    for size in ICON_SIZES {
        let icon = unpacked.join(format!(
            "usr/share/icons/hicolor/{size}x{size}/apps/periscope-app.png"
        ));
        assert_eq!(png_size(&icon), (size, size), "{}", icon.display());
    }
    for bin in ["periscope-app", "periscope", "periscope-demo-server"] {
        assert!(
            is_executable(&unpacked.join("usr/bin").join(bin)),
            "usr/bin/{bin} is not in the package"
        );
    }

    // Installed for real where that is safe, else run from the unpacked tree.
    let (root, installed) = if may_install_here() {
        run(Command::new("dpkg").arg("-i").arg(&deb));
        (PathBuf::from("/"), Some(Installed))
    } else {
        (unpacked.clone(), None)
    };
    let app = root.join("usr/bin/periscope-app");
    let cli = root.join("usr/bin/periscope");

    let version = run(Command::new(&cli).arg("--version"));
    assert_eq!(
        version.trim(),
        format!("periscope {}", control_field(&deb, "Version"))
    );

    // A first launch: the built-in demo entry connects by itself, which needs the demo server
    // the package put beside the app.
    let launch = Launch {
        app: Some(app),
        ..Launch::default()
    };
    let mut h = Harness::start_launch("package-deb", launch, |_| {}).await;
    h.find(DEMO_READY).await;
    h.shot("installed-app-demo-ready").await;
    h.stop().await;

    if let Some(installed) = installed {
        drop(installed);
        assert!(
            !Path::new("/usr/bin/periscope-app").exists(),
            "dpkg -r left the app behind"
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
