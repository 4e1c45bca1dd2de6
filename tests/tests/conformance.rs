//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, installed with a
//! Node 22 into tests/conformance by its run.sh) drives `periscope conformance-client` through
//! the client scenarios Periscope claims. Any FAILURE or WARNING fails the scenario.
//!
//! The suite's `core` set also holds the OAuth scenarios (`auth/*`); they belong to the
//! sign-in work and are not claimed here yet.

use std::process::Command;

use periscope_tests::bin;

const SCENARIOS: &[&str] = &[
    "initialize",
    "tools_call",
    "elicitation-sep1034-client-defaults",
    "sse-retry",
];

#[test]
fn the_conformance_suite_passes_the_client_scenarios_periscope_claims() {
    let run = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/run.sh");
    let client = format!("{} conformance-client", bin("periscope").display());
    let mut failed = Vec::new();
    // One at a time: sse-retry measures reconnection timing, which a loaded machine can skew.
    for scenario in SCENARIOS {
        let out = Command::new(&run)
            .args(["--command", &client, "--scenario", scenario])
            .output()
            .expect("the conformance runner starts");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        if !out.status.success()
            || !text.contains("OVERALL: PASSED")
            || !text.contains(" 0 warnings")
        {
            failed.push(format!(
                "--- {scenario} (exit {:?})\n{text}",
                out.status.code()
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "scenarios failed:\n{}",
        failed.join("\n")
    );
}
