//! `periscope check` through the real CLI: the demo server passes every rule it is asked, in
//! both eras over stdio; every rule fails where `faulty-server` breaks it (the rules come from
//! `--list-rules`, so a rule added without a fault fails here); exit codes, `--fail-on`, the
//! JUnit and SARIF reports, and the record the frames point into.

use std::collections::BTreeSet;
use std::process::{Command, Output};
use std::sync::Mutex;

use periscope_tests::{
    HttpServerProcess, bin, bin_str, periscope, run_signing_in, scratch_dir, stderr, stdout_json,
};
use serde_json::Value;

fn json(out: &Output) -> Value {
    stdout_json(out)
}

fn demo() -> String {
    bin_str("periscope-demo-server")
}

/// The demo server over Streamable HTTP on a free loopback port.
fn demo_http(extra: &[&str]) -> HttpServerProcess {
    HttpServerProcess::start(
        Command::new(bin("periscope-demo-server"))
            .args(["--http", "127.0.0.1:0"])
            .args(extra),
    )
}

/// `faulty-http RULE` in front of `upstream`.
fn faulty_http(rule: &str, upstream: &str) -> HttpServerProcess {
    HttpServerProcess::start(Command::new(bin("faulty-http")).args([rule, upstream]))
}

fn http_rules() -> Vec<(String, String)> {
    rules()
        .into_iter()
        .filter(|(r, _)| r.starts_with("http."))
        .collect()
}

/// The verdicts `--only RULE` gave (the rule's own, in each era it was asked).
fn fired(rule: &str, severity: &str, report: &Value) -> bool {
    let expected = if severity == "error" {
        "fail"
    } else {
        "warning"
    };
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["rule"] == rule && r["verdict"] == expected)
}

/// `(rule, era, verdict)` of every result.
fn verdicts(report: &Value) -> Vec<(String, String, String)> {
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["rule"].as_str().unwrap().to_string(),
                r["era"].as_str().unwrap_or("-").to_string(),
                r["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The results that failed or warned.
fn broken(results: &[(String, String, String)]) -> Vec<&(String, String, String)> {
    results
        .iter()
        .filter(|(_, _, v)| v == "fail" || v == "warning")
        .collect()
}

/// The rules that passed in no era, in `--list-rules` order.
fn not_passed(results: &[(String, String, String)]) -> Vec<String> {
    let passed: BTreeSet<&str> = results
        .iter()
        .filter(|(_, _, v)| v == "pass")
        .map(|(r, _, _)| r.as_str())
        .collect();
    rules()
        .into_iter()
        .map(|(r, _)| r)
        .filter(|r| !passed.contains(r.as_str()))
        .collect()
}

fn rules() -> Vec<(String, String)> {
    let out = periscope(&["check", "--list-rules", "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    json(&out)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["rule"].as_str().unwrap().to_string(),
                r["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_demo_server_passes_every_rule_it_is_asked_in_both_eras_over_stdio() {
    let demo = demo();
    let out = periscope(&["check", "--format", "json", "--", &demo, "--eras", "dual"]);
    let report = json(&out);
    let results = verdicts(&report);
    let broken = broken(&results);
    assert!(broken.is_empty(), "the demo breaks {broken:?}");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(report["eras"].as_array().unwrap().len(), 2, "{report}");
    // Every rule was asked and passed in at least one era, but the few the demo gives
    // nothing to ask (it declares every list; no resource it lists first is binary).
    let not_passed = not_passed(&results);
    // The HTTP rules are asked over HTTP only (their test is below).
    let expected: Vec<String> = ["lifecycle.undeclared-refused", "resources.base64"]
        .into_iter()
        .map(str::to_string)
        .chain(http_rules().into_iter().map(|(r, _)| r))
        .collect();
    assert_eq!(not_passed, expected, "{results:?}");

    // A server of the legacy era only: the modern rules are skipped as of another era.
    let out = periscope(&["check", "--format", "json", "--", &demo]);
    let report = json(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let results = verdicts(&report);
    assert!(
        results
            .iter()
            .all(|(_, _, v)| v == "pass" || v == "skipped"),
        "{results:?}"
    );
    let cache = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rule"] == "utilities.cache-hints")
        .unwrap();
    assert_eq!(cache["skipped"]["why"], "other_era", "{cache}");
}

#[test]
fn every_rule_fails_where_its_fixture_breaks_it() {
    let all = rules();
    assert!(all.len() >= 60, "{} rules", all.len());
    // The HTTP rules have a proxy of their own (below); the rest break behind faulty-server.
    let rules: Vec<(String, String)> = all
        .into_iter()
        .filter(|(r, _)| !r.starts_with("http."))
        .collect();
    let queue = Mutex::new(rules.clone());
    let found = Mutex::new(Vec::new());
    let (demo, faulty) = (demo(), bin_str("faulty-server"));
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                loop {
                    let Some((rule, severity)) = queue.lock().unwrap().pop() else {
                        return;
                    };
                    let out = periscope(&[
                        "check",
                        "-q",
                        "--timeout",
                        "3",
                        "--only",
                        &rule,
                        "--format",
                        "json",
                        "--",
                        &faulty,
                        &rule,
                        "--",
                        &demo,
                        "--eras",
                        "dual",
                    ]);
                    found.lock().unwrap().push((rule, severity, out));
                }
            });
        }
    });
    let mut quiet = Vec::new();
    for (rule, severity, out) in found.into_inner().unwrap() {
        let report = json(&out);
        let results = report["results"].as_array().unwrap();
        assert!(
            results.iter().all(|r| r["rule"] == rule.as_str()),
            "--only {rule}: {report}"
        );
        let expected = if severity == "error" {
            "fail"
        } else {
            "warning"
        };
        let fired: Vec<&Value> = results
            .iter()
            .filter(|r| r["verdict"] == expected)
            .collect();
        if fired.is_empty() {
            quiet.push(format!("{rule}: {results:?}"));
            continue;
        }
        for result in fired {
            assert!(!result["message"].as_str().unwrap().is_empty(), "{result}");
            assert!(
                result["hint"].as_str().is_some_and(|h| h.len() > 10),
                "{result}"
            );
        }
        // Only a failure fails the check by default.
        let code = if expected == "fail" { 1 } else { 0 };
        assert_eq!(out.status.code(), Some(code), "{rule}: {}", stderr(&out));
    }
    assert!(
        quiet.is_empty(),
        "rules that did not fire on their fixture:\n{}",
        quiet.join("\n")
    );
}

#[test]
fn the_exit_code_follows_fail_on_and_the_reports_name_the_broken_rule() {
    let (demo, faulty) = (demo(), bin_str("faulty-server"));
    let warning_rule = "lists.bogus-cursor";
    let server = [faulty.as_str(), warning_rule, "--", demo.as_str()];
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "-q", "--only", "lists"];
        args.extend_from_slice(extra);
        args.push("--");
        args.extend_from_slice(&server);
        periscope(&args)
    };
    // A warning passes by default and fails with --fail-on warning.
    assert_eq!(check(&[]).status.code(), Some(0));
    assert_eq!(check(&["--fail-on", "warning"]).status.code(), Some(1));

    let junit = check(&["--format", "junit", "--fail-on", "warning"]);
    let xml = String::from_utf8(junit.stdout).unwrap();
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert!(xml.contains("<testsuite name=\"lists\""), "{xml}");
    assert!(
        xml.contains("name=\"lists.bogus-cursor (legacy)\">\n      <failure type=\"warning\""),
        "{xml}"
    );
    assert!(xml.contains("name=\"lists.tools (legacy)\"/>"), "{xml}");

    let sarif = json(&check(&[
        "--format",
        "sarif",
        "--sarif-location",
        "src/server.rs",
    ]));
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{sarif}");
    assert_eq!(results[0]["ruleId"], warning_rule);
    assert_eq!(results[0]["level"], "warning");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "src/server.rs"
    );
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let index = results[0]["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index]["id"], warning_rule);

    let markdown = String::from_utf8(check(&["--format", "markdown"]).stdout).unwrap();
    assert!(
        markdown.contains("lists.bogus-cursor (legacy)"),
        "{markdown}"
    );

    // Usage errors and a server that is not there.
    let out = periscope(&["check", "--only", "no.such-rule", "--", &demo]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no rule or area is named \"no.such-rule\""));
    let out = periscope(&["tools", "list", "--format", "junit", "--", &demo]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = periscope(&["check", "--", "/no/such/server"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
}

#[test]
fn a_failures_frames_are_in_the_record_it_wrote() {
    let dir = scratch_dir("check-record");
    let record = dir.join("check.jsonl");
    let (demo, faulty) = (demo(), bin_str("faulty-server"));
    let out = periscope(&[
        "check",
        "-q",
        "--format",
        "json",
        "--record",
        record.to_str().unwrap(),
        "--only",
        "jsonrpc.unknown-method",
        "--",
        &faulty,
        "jsonrpc.unknown-method",
        "--",
        &demo,
    ]);
    let report = json(&out);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let failed = &report["results"][0];
    assert_eq!(failed["verdict"], "fail", "{report}");
    let frames: Vec<u64> = failed["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_u64().unwrap())
        .collect();
    assert_eq!(frames.len(), 2, "the request and its answer: {failed}");
    assert_eq!(report["eras"][0]["record"], record.to_str().unwrap());
    let text = std::fs::read_to_string(&record).unwrap();
    let recorded: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["type"] == "frame" && frames.contains(&e["seq"].as_u64().unwrap_or(0)))
        .collect();
    assert_eq!(recorded.len(), 2, "{text}");
    let bodies: Vec<String> = recorded.iter().map(|e| e.to_string()).collect();
    assert!(bodies[0].contains("periscope/no-such-method"), "{bodies:?}");
}

#[test]
fn over_http_the_demo_server_passes_every_rule_in_both_eras() {
    let server = demo_http(&["--eras", "dual"]);
    let out = periscope(&["check", "-q", "--format", "json", "--url", &server.url]);
    let report = json(&out);
    let results = verdicts(&report);
    let broken = broken(&results);
    assert!(broken.is_empty(), "the demo over HTTP breaks {broken:?}");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let not_passed = not_passed(&results);
    assert_eq!(
        not_passed,
        [
            "lifecycle.undeclared-refused",
            "resources.base64",
            "http.auth-challenge",
            "http.token-in-query",
            "stdio.stdout-only-json",
            "stdio.exits-on-stdin-close",
            "stdio.no-orphans",
            "stdio.exits-on-sigterm",
        ],
        "{results:?}"
    );

    // A protected server: the check signs in (the demo's authorization server approves at
    // once), and its 401 without a token is a proper challenge.
    let protected = demo_http(&["--oauth"]);
    let data = scratch_dir("check-oauth");
    let (code, stdout, err) = check_signing_in(&data, "http", &protected.url);
    let report: Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{err}"));
    assert_eq!(code, 0, "{err}");
    // With the sign-in's token, the rest of the transport's rules are asked too.
    let results = verdicts(&report);
    let protected_broken = self::broken(&results);
    assert!(
        protected_broken.is_empty(),
        "the protected demo breaks {protected_broken:?}"
    );
    for rule in [
        "http.auth-challenge",
        "http.token-in-query",
        "http.session-id-ascii",
        "http.origin",
    ] {
        assert!(
            results.iter().any(|(r, _, v)| r == rule && v == "pass"),
            "{rule}: {results:?}"
        );
    }
}

/// `periscope check --only ONLY --format json --url URL`, signing in to a protected demo
/// (its authorization server approves at once) with the credentials kept in `data`:
/// (exit code, stdout, stderr).
fn check_signing_in(data: &std::path::Path, only: &str, url: &str) -> (i32, String, String) {
    let (code, stdout, err, _) = run_signing_in(
        data,
        &[
            "check",
            "-q",
            "--no-browser",
            "--only",
            only,
            "--format",
            "json",
            "--url",
            url,
        ],
    );
    (code, stdout, err)
}

/// The access token a signed-in check left in the credentials file of `data`.
fn stored_access_token(data: &std::path::Path) -> String {
    let file = data.join("dev.periscope.app/credentials.json");
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    stored["entries"][0]["access_token"]
        .as_str()
        .expect("a stored access token")
        .to_string()
}

#[test]
fn every_http_rule_fails_behind_the_proxy_that_breaks_it() {
    let upstream = demo_http(&["--eras", "dual"]);
    let protected = demo_http(&["--oauth"]);
    let mut quiet = Vec::new();
    // A token of the protected demo's, for the rule about tokens (a sign-in through the proxy
    // is refused: the metadata names the server behind it).
    let signed_in = scratch_dir("check-http-token");
    let (code, _, err) = check_signing_in(&signed_in, "http.auth-challenge", &protected.url);
    assert_eq!(code, 0, "{err}");
    let token = format!("Authorization: Bearer {}", stored_access_token(&signed_in));
    for (rule, severity) in http_rules() {
        let protected_rule = matches!(rule.as_str(), "http.auth-challenge" | "http.token-in-query");
        let behind = if protected_rule {
            &protected.url
        } else {
            &upstream.url
        };
        let proxy = faulty_http(&rule, behind);
        let data = scratch_dir("check-http-faults");
        // The transport's rules are asked without a session when the sign-in fails.
        let mut args = vec![
            "check",
            "-q",
            "--no-browser",
            "--timeout",
            "3",
            "--only",
            &rule,
            "--format",
            "json",
            "--url",
            &proxy.url,
        ];
        if rule == "http.token-in-query" {
            args.extend(["--header", &token]);
        }
        let out = Command::new(bin("periscope"))
            .args(&args)
            .env("XDG_DATA_HOME", &data)
            .env("PERISCOPE_CREDENTIALS_FILE_ONLY", "1")
            .output()
            .unwrap();
        let report = json(&out);
        if !fired(&rule, &severity, &report) {
            quiet.push(format!("{rule}: {report}"));
        }
    }
    assert!(
        quiet.is_empty(),
        "rules that did not fire behind their proxy:\n{}",
        quiet.join("\n")
    );
}

#[test]
fn the_docs_list_every_rule() {
    let page = std::fs::read_to_string(periscope_tests::tests_dir().join("../docs/check.md"))
        .expect("docs/check.md");
    let missing: Vec<String> = rules()
        .into_iter()
        .map(|(r, _)| r)
        .filter(|r| !page.contains(&format!("| `{r}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/check.md does not list {missing:?}"
    );
}
