//! `periscope tools call --args-file` and `periscope saved list|run`, against the demo server,
//! with a saved.json (and catalog.json) written the way the desktop app writes them.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use periscope_tests::{bin, bin_str, names, ok_json, scratch_dir, stderr, stdout};
use serde_json::{Value, json};

/// `periscope ARGS` with `data` as XDG_DATA_HOME (and `-- demo server` when `with_server`).
fn periscope(data: &Path, args: &[&str], with_server: bool) -> Output {
    let mut command = Command::new(bin("periscope"));
    command.args(args).env("XDG_DATA_HOME", data);
    if with_server {
        command.arg("--").arg(bin("periscope-demo-server"));
    }
    command.output().expect("periscope runs")
}

/// Writes the app's saved.json (and catalog.json, with the demo server as `demo`).
fn app_files(data: &Path) {
    let dir = data.join("dev.periscope.app");
    std::fs::create_dir_all(&dir).unwrap();
    let call = |id: &str, server: &str, name: &str, kind: &str, target: &str, args: Value| {
        json!({"id": id, "server_id": server, "name": name, "kind": kind, "target": target,
               "arguments": args, "created_wall_us": 1_700_000_000_000_000u64})
    };
    let saved = json!({"calls": [
        call("1", "demo", "two plus three", "tool", "add", json!({"a": 2, "b": 3})),
        call("2", "demo", "pirate hello", "prompt", "greeting", json!({"name": "Ada", "style": "pirate"})),
        call("3", "demo", "first text", "resource", "demo://text/1", json!({})),
        call("4", "demo", "always fails", "tool", "fail", json!({})),
        call("5", "elsewhere", "two plus three", "tool", "add", json!({"a": 1, "b": 1})),
        {"something": "the app does not write"},
    ]});
    std::fs::write(dir.join("saved.json"), saved.to_string()).unwrap();
    let catalog = json!({"servers": [{"id": "demo", "name": "Demo server",
        "target": {"transport": "stdio", "command": bin_str("periscope-demo-server"), "args": [], "env": [], "cwd": null}}]});
    std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
}

#[test]
fn tools_call_takes_its_arguments_from_a_file_and_from_stdin() {
    let dir = scratch_dir("args-file");
    let file = dir.join("args.json");
    std::fs::write(&file, r#"{"a": 2, "b": 40}"#).unwrap();
    let args = ["tools", "call", "add", "--format", "json", "--args-file"];
    let mut with_file = args.to_vec();
    with_file.push(file.to_str().unwrap());
    let result = ok_json(&periscope(&dir, &with_file, true));
    assert_eq!(result["structuredContent"]["sum"], 42);

    // `-a` still wins over the file.
    let mut with_pair = with_file.clone();
    with_pair.extend(["-a", "b=1"]);
    let result = ok_json(&periscope(&dir, &with_pair, true));
    assert_eq!(result["structuredContent"]["sum"], 3);

    // `-`: standard input.
    let mut child = Command::new(bin("periscope"))
        .args([
            "tools",
            "call",
            "add",
            "--format",
            "json",
            "--args-file",
            "-",
        ])
        .arg("--")
        .arg(bin("periscope-demo-server"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"a": 1.5, "b": 2}"#)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(ok_json(&out)["structuredContent"]["sum"], 3.5);

    // Not an object, a missing file, and both --args and --args-file: usage errors.
    std::fs::write(&file, "[1, 2]").unwrap();
    let out = periscope(&dir, &with_file, true);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--args-file") && stderr(&out).contains("JSON object"),
        "{}",
        stderr(&out)
    );
    let missing = dir.join("missing.json");
    let out = periscope(
        &dir,
        &[
            "tools",
            "call",
            "add",
            "--args-file",
            missing.to_str().unwrap(),
        ],
        true,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
    let out = periscope(
        &dir,
        &[
            "tools",
            "call",
            "add",
            "--args",
            "{}",
            "--args-file",
            "x.json",
        ],
        true,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn saved_list_reads_the_apps_file_without_a_server() {
    let data = scratch_dir("saved-list");
    let out = periscope(&data, &["saved", "list"], false);
    assert_eq!(out.status.code(), Some(0), "no file yet is not an error");
    assert!(stderr(&out).contains("no saved calls"), "{}", stderr(&out));

    app_files(&data);
    let out = periscope(&data, &["saved", "list"], false);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("two plus three\t[demo] tool add {\"a\":2,\"b\":3}"),
        "{text}"
    );
    assert!(
        text.contains("first text\t[demo] resource demo://text/1\n"),
        "{text}"
    );
    assert_eq!(
        text.lines().count(),
        5,
        "the unreadable entry is skipped: {text}"
    );

    let json = ok_json(&periscope(
        &data,
        &["saved", "list", "--server", "demo", "--format", "json"],
        false,
    ));
    let names = names(&json);
    assert_eq!(
        names,
        [
            "two plus three",
            "pirate hello",
            "first text",
            "always fails"
        ]
    );
}

#[test]
fn saved_run_runs_a_tool_a_prompt_and_a_resource_against_the_given_server() {
    let data = scratch_dir("saved-run");
    app_files(&data);
    let run = |name: &str| {
        periscope(
            &data,
            &["saved", "run", name, "--server", "demo", "--format", "json"],
            true,
        )
    };
    let result = ok_json(&run("two plus three"));
    assert_eq!(result["structuredContent"]["sum"], 5);
    let prompt = ok_json(&run("pirate hello"));
    assert_eq!(
        prompt["messages"][0]["content"]["text"],
        "Ahoy, Ada! Welcome aboard, matey!"
    );
    let resource = ok_json(&run("first text"));
    assert_eq!(resource["contents"][0]["uri"], "demo://text/1");
    // A tool that reports isError exits 5, as `tools call` does.
    assert_eq!(run("always fails").status.code(), Some(5));
}

#[test]
fn saved_run_without_a_server_uses_the_apps_catalog_entry() {
    let data = scratch_dir("saved-run-catalog");
    app_files(&data);
    // Two servers have a call of this name: the CLI asks which.
    let out = periscope(&data, &["saved", "run", "two plus three"], false);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--server"), "{}", stderr(&out));

    let out = periscope(
        &data,
        &["saved", "run", "two plus three", "--server", "demo"],
        false,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("\"sum\": 5"), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("running \"two plus three\": tool add"),
        "{}",
        stderr(&out)
    );

    // A call whose server is not in the catalog, and a name nobody saved.
    let out = periscope(
        &data,
        &["saved", "run", "two plus three", "--server", "elsewhere"],
        false,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("has no server \"elsewhere\""),
        "{}",
        stderr(&out)
    );
    let out = periscope(&data, &["saved", "run", "nope"], false);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no saved call named"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn saved_run_refuses_a_catalog_entry_the_app_would_refuse_in_the_apps_words() {
    let data = scratch_dir("saved-run-broken-entry");
    app_files(&data);
    // The same check as the app's server form (periscope_core::config::validate_entry).
    let catalog = json!({"servers": [{"id": "demo", "name": "Demo server",
        "target": {"transport": "stdio", "command": "  ", "args": [], "env": [], "cwd": null}}]});
    let dir = data.join("dev.periscope.app");
    std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
    let out = periscope(
        &data,
        &["saved", "run", "two plus three", "--server", "demo"],
        false,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("has a broken server \"demo\": a server needs a command to run"),
        "{}",
        stderr(&out)
    );
}
