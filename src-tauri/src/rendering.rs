//! How WebKitGTK draws the window on Linux. With no GPU device to render on (no
//! `/dev/dri/renderD*`: a virtual machine, a remote X display, Xvfb), WebKit's accelerated
//! compositing runs through Mesa's software rasterizer, and every frame of a scrolled list costs
//! about three frames' time (`benches/run.sh app_flood`: 49 ms a scrolled frame against 16 ms
//! with compositing off, on the same machine). There, Periscope turns compositing off before
//! WebKit starts, unless the user chose (`WEBKIT_DISABLE_COMPOSITING_MODE` set either way).

/// The variable WebKitGTK reads when its first web view is created.
#[cfg(target_os = "linux")]
const DISABLE_COMPOSITING: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";

/// What `choose_compositing` decided, and why (logged at start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compositing {
    /// The user set `WEBKIT_DISABLE_COMPOSITING_MODE`: left as they set it.
    UserChoice,
    /// A GPU render node is there: WebKit composites on the GPU.
    Gpu,
    /// No GPU render node: compositing turned off (software compositing is slower than none).
    TurnedOff,
    /// Not Linux: the platform's web view decides.
    NotWebKitGtk,
}

/// Decides, and sets the variable when compositing should be off. Call it first thing in
/// `main`, while the process has one thread (setting the environment is not thread-safe).
pub fn choose_compositing() -> Compositing {
    #[cfg(target_os = "linux")]
    {
        let decision = decide(
            std::env::var_os(DISABLE_COMPOSITING).is_some(),
            has_render_node(std::path::Path::new("/dev/dri")),
        );
        if decision == Compositing::TurnedOff {
            // SAFETY: called from `main` before any other thread exists (Tauri, tokio and
            // WebKit start later), so nothing reads the environment concurrently.
            unsafe { std::env::set_var(DISABLE_COMPOSITING, "1") };
        }
        decision
    }
    #[cfg(not(target_os = "linux"))]
    {
        Compositing::NotWebKitGtk
    }
}

#[cfg(target_os = "linux")]
fn decide(user_set: bool, render_node: bool) -> Compositing {
    match (user_set, render_node) {
        (true, _) => Compositing::UserChoice,
        (false, true) => Compositing::Gpu,
        (false, false) => Compositing::TurnedOff,
    }
}

/// A DRM render node (`renderD128`, …) in `dri`: a GPU the web process can draw with.
#[cfg(target_os = "linux")]
fn has_render_node(dri: &std::path::Path) -> bool {
    std::fs::read_dir(dri).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
    })
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn compositing_goes_off_only_without_a_gpu_and_without_the_users_word() {
        assert_eq!(decide(false, false), Compositing::TurnedOff);
        assert_eq!(decide(false, true), Compositing::Gpu);
        assert_eq!(decide(true, false), Compositing::UserChoice);
        assert_eq!(decide(true, true), Compositing::UserChoice);
    }

    #[test]
    fn a_render_node_is_found_by_its_name() {
        let dir = std::env::temp_dir().join(format!("periscope-dri-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(!has_render_node(&dir));
        assert!(!has_render_node(&dir.join("missing")));
        std::fs::write(dir.join("card0"), b"").unwrap();
        assert!(!has_render_node(&dir));
        std::fs::write(dir.join("renderD128"), b"").unwrap();
        assert!(has_render_node(&dir));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
