//! The newest pre-release of the official MCP conformance suite (0.2.0-alpha.12, pinned in
//! tests/conformance/next/ beside the stable 0.1.16 that conformance.rs runs) drives
//! `periscope conformance-client` through every client scenario (`--suite all`) and through
//! exactly the scenarios the 2026-07-28 revision requires (`--requirements 2026-07-28`, all at
//! the stateless wire).
//!
//! Each run takes an expected-failures baseline (tests/conformance/next/*.yaml): the suite
//! itself fails the run on a failure the baseline does not list AND on a listed one that now
//! passes ("stale"), so the files shrink as the work lands; the goal is that both are empty.
//! Two files, because three scenarios fail only at the 2026-07-28 wire and a line for them
//! would be stale in the `--suite all` run. Each run takes 5 to 10 s (all scenarios in
//! parallel); a scenario that fails there is run again alone and must pass alone (`settle`).

use std::path::PathBuf;
use std::process::Command;

use periscope_tests::bin;

fn next_dir() -> PathBuf {
    periscope_tests::tests_dir().join("conformance/next")
}

/// One run of the pre-release line: `run.sh --line next ARGS --command "periscope
/// conformance-client"`. Returns (exit code, stdout + stderr without colour codes).
fn run_next(args: &[&str]) -> (Option<i32>, String) {
    let run = periscope_tests::tests_dir().join("conformance/run.sh");
    let client = format!("{} conformance-client", bin("periscope").display());
    let out = Command::new(&run)
        .args(["--line", "next", "--command", &client])
        .args(args)
        .output()
        .expect("the conformance runner starts");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), strip_colour(&text))
}

/// The runner colours its baseline verdict (ESC [ … m); the tests read it as plain text.
fn strip_colour(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for end in chars.by_ref() {
                if end.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}

/// The entries the runner printed under one heading of its baseline verdict, e.g.
/// "Unexpected failures (not in baseline):" (each entry on its own indented line).
fn entries_under<'a>(text: &'a str, heading: &str) -> Vec<&'a str> {
    text.lines()
        .skip_while(|l| !l.starts_with(heading))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim_start_matches([' ', '✗', '✓', '~']))
        .collect()
}

/// The baseline file `name` in next/, checked to be a baseline before the suite reads it: a
/// `client:` key at the start of a line outside the comments. A file of comments only is an
/// empty YAML document, which the suite takes without a word for "no baseline"; it would let
/// through whatever the file's author meant to list.
fn baseline_file(name: &str) -> PathBuf {
    let path = next_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the baseline {} cannot be read: {e}", path.display()));
    let has_client = text.lines().any(|line| line.starts_with("client:"));
    assert!(
        has_client,
        "the baseline {} has no `client:` key outside its comments (the empty baseline is \
         `client: []` on its own line)",
        path.display()
    );
    path
}

const UNEXPECTED: &str = "Unexpected failures (not in baseline):";
const STALE: &str = "Stale baseline entries (now passing - remove from baseline):";

fn passed(code: Option<i32>, text: &str) -> bool {
    code == Some(0) && text.contains("Baseline check passed")
}

/// The verdict on one parallel run. A pass is a pass. A stale baseline line fails at once. A
/// scenario that failed unexpectedly is run again alone, and must pass alone: the two runs of
/// this file start some 80 scenarios at the same moment on 2 shared cores, and a mock server
/// timing a step (sse-retry's 500 ms reconnection, a keep-alive connection the mock closes
/// after 5 s idle) then measures the machine, not the client. A client fault fails alone too.
/// `alone` holds the arguments that put a lone scenario on the run's wire.
fn settle(code: Option<i32>, text: &str, baseline: &std::path::Path, run: &str, alone: &[&str]) {
    if passed(code, text) {
        return;
    }
    let unexpected = entries_under(text, UNEXPECTED);
    let stale = entries_under(text, STALE);
    assert!(
        code == Some(1) && stale.is_empty() && !unexpected.is_empty(),
        "{run} (exit {code:?}): unexpected failures {unexpected:?}, stale baseline entries \
         {stale:?} (delete a stale line from {}):\n{text}",
        baseline.display()
    );
    for scenario in unexpected {
        let args: Vec<&str> = ["--scenario", scenario]
            .iter()
            .chain(alone)
            .copied()
            .collect();
        let (alone_code, alone_text) = run_next(&args);
        assert!(
            alone_code == Some(0) && alone_text.contains("OVERALL: PASSED"),
            "{scenario} failed in {run} and again alone:\n{alone_text}\n--- {run}:\n{text}"
        );
        eprintln!("{scenario} failed in the parallel {run} run and passed alone");
    }
}

#[test]
fn the_conformance_pre_release_passes_every_client_scenario_but_its_baseline() {
    let baseline = baseline_file("expected-failures.yaml");
    let (code, text) = run_next(&[
        "--suite",
        "all",
        "--expected-failures",
        baseline.to_str().unwrap(),
    ]);
    settle(code, &text, &baseline, "--suite all", &[]);
}

#[test]
fn the_conformance_pre_release_passes_the_2026_07_28_requirements_but_its_baseline() {
    let baseline = baseline_file("expected-failures-2026-07-28.yaml");
    let (code, text) = run_next(&[
        "--requirements",
        "2026-07-28",
        "--expected-failures",
        baseline.to_str().unwrap(),
    ]);
    // --requirements runs each scenario at the 2026-07-28 wire, extension ones included.
    let wire = ["--spec-version", "2026-07-28", "--force"];
    settle(code, &text, &baseline, "--requirements 2026-07-28", &wire);
}

#[test]
fn the_pinned_pre_release_is_the_one_that_runs() {
    // A bump of next/package.json without its lockfile (or the reverse) would silently run
    // another suite than the baselines were written for.
    let run = periscope_tests::tests_dir().join("conformance/run.sh");
    let out = Command::new(&run)
        .args(["--line", "next", "--version"])
        .output()
        .expect("the conformance runner starts");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "0.2.0-alpha.12",
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The skills extension's client scenarios (SEP-2640) skip every check for a client that never
/// lists skills, and a scenario of skipped checks still says "passed" ("Passed: 0/0"). Each
/// must run its checks and pass them all: at least one check counted, none failed.
#[test]
fn the_skills_scenarios_pass_with_their_checks_executed() {
    for scenario in [
        "sep-2640-client-no-prefetch",
        "sep-2640-client-verify-digest",
        "sep-2640-client-verify-size",
        "sep-2640-client-verify-frontmatter",
    ] {
        let (code, text) = run_next(&["--scenario", scenario]);
        let counted = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("Passed: "))
            .and_then(|rest| rest.split(',').next())
            .and_then(|ratio| ratio.split_once('/'))
            .map(|(passed, of)| (passed.trim().to_string(), of.trim().to_string()));
        let Some((passed, of)) = counted else {
            panic!("{scenario}: no \"Passed: a/b\" line:\n{text}");
        };
        assert!(
            code == Some(0) && text.contains("OVERALL: PASSED"),
            "{scenario} failed:\n{text}"
        );
        assert!(
            of != "0" && passed == of,
            "{scenario}: {passed} of {of} checks passed (a scenario of skipped checks proves \
             nothing):\n{text}"
        );
    }
}
