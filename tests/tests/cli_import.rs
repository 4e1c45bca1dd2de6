//! `periscope import` and `periscope export`, the real binary on real-world host config files
//! (crates/periscope-core/tests/fixtures/host-configs) and on a catalog.json written the way the
//! desktop app writes it.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use periscope_tests::{bin, ok_json, scratch_dir, stderr, stdout};
use serde_json::{Value, json};

fn fixture(name: &str) -> PathBuf {
    periscope_tests::tests_dir()
        .join("../crates/periscope-core/tests/fixtures/host-configs")
        .join(name)
}

/// `periscope ARGS` with `home` as HOME and XDG_DATA_HOME under it, and `input` on stdin.
fn periscope(home: &Path, args: &[&str], input: Option<&str>) -> Output {
    let mut child = Command::new(bin("periscope"))
        .args(args)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("BRAVE_API_KEY")
        .current_dir(home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("periscope runs");
    let mut stdin = child.stdin.take().unwrap();
    if let Some(input) = input {
        stdin.write_all(input.as_bytes()).unwrap();
    }
    drop(stdin);
    child.wait_with_output().unwrap()
}

#[test]
fn import_previews_a_claude_desktop_file_with_secrets_masked_and_refusals_named() {
    let home = scratch_dir("import-claude");
    let file = fixture("claude_desktop_config.json");
    let out = periscope(&home, &["import", file.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("From Claude Desktop"), "{text}");
    assert!(text.contains("4 servers to import, 1 refused."), "{text}");
    assert!(
        text.contains("github  [stdio]  npx -y @modelcontextprotocol/server-github"),
        "{text}"
    );
    assert!(
        text.contains("env GITHUB_PERSONAL_ACCESS_TOKEN=••••  (secret store)"),
        "{text}"
    );
    assert!(
        text.contains("broken: a local server needs a command to run"),
        "{text}"
    );
    assert!(
        text.contains("Preview only: nothing was written."),
        "{text}"
    );
    // Neither the secret nor an ordinary value is printed.
    assert!(
        !text.contains("ghp_") && !text.contains("db.internal"),
        "{text}"
    );
    // Nothing was written to the app's data folder.
    assert!(!home.join("data").exists());
}

#[test]
fn import_json_lists_what_goes_to_the_secret_store_and_what_must_be_typed() {
    let home = scratch_dir("import-vscode-json");
    let file = fixture(".vscode/mcp.json");
    let preview = ok_json(&periscope(
        &home,
        &["import", "--format", "json", file.to_str().unwrap()],
        None,
    ));
    assert_eq!(preview["dialect"], "vscode");
    let names: Vec<&str> = preview["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["entry"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Perplexity", "Fetch", "sqlite", "github"]);
    let perplexity = &preview["entries"][0];
    assert_eq!(
        perplexity["to_secret_store"],
        json!([{"slot": "env", "name": "PERPLEXITY_API_KEY"}])
    );
    assert_eq!(
        perplexity["needs"][0]["placeholder"],
        "${input:perplexity-key}"
    );
    assert_eq!(preview["refused"][0]["name"], "clock");
    assert_eq!(
        preview["refused"][0]["reason"]["kind"],
        "unsupported_variable"
    );
}

#[test]
fn import_reads_a_pasted_command_line_or_json_from_stdin() {
    let home = scratch_dir("import-stdin");
    let out = periscope(
        &home,
        &["import", "-"],
        Some("npx -y @modelcontextprotocol/server-everything\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out)
            .contains("server-everything  [stdio]  npx -y @modelcontextprotocol/server-everything")
    );

    let zed = std::fs::read_to_string(fixture("zed/settings.json")).unwrap();
    let preview = ok_json(&periscope(
        &home,
        &["import", "-", "--format", "json"],
        Some(&zed),
    ));
    assert_eq!(preview["dialect"], "zed");
    assert_eq!(preview["refused"][0]["reason"]["kind"], "zed_extension");

    // A dialect that does not fit is said in words, exit 2.
    let out = periscope(
        &home,
        &["import", "-", "--from", "zed"],
        Some(r#"{"mcpServers": {}}"#),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("expected context_servers"),
        "{}",
        stderr(&out)
    );
    let out = periscope(&home, &["import", "-", "--from", "atom"], Some("{}"));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown dialect \"atom\""),
        "{}",
        stderr(&out)
    );
}

#[test]
fn detect_lists_the_host_files_that_exist_under_home() {
    let home = scratch_dir("import-detect");
    let out = periscope(&home, &["import", "--detect"], None);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "");
    std::fs::create_dir_all(home.join(".config/Claude")).unwrap();
    std::fs::copy(
        fixture("claude_desktop_config.json"),
        home.join(".config/Claude/claude_desktop_config.json"),
    )
    .unwrap();
    std::fs::copy(fixture(".mcp.json"), home.join(".mcp.json")).unwrap();
    let found = ok_json(&periscope(
        &home,
        &["import", "--detect", "--format", "json"],
        None,
    ));
    let dialects: Vec<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["dialect"].as_str().unwrap())
        .collect();
    assert_eq!(dialects, ["claude-desktop", "claude-code"]);
}

/// The app's catalog.json: a local server with a secret (kept empty, as the app keeps it) and a
/// remote one with a secret header.
fn app_catalog(home: &Path) {
    let dir = home.join("data/dev.periscope.app");
    std::fs::create_dir_all(&dir).unwrap();
    let catalog = json!({"servers": [
        {"id": "gh", "name": "GitHub", "target": {"transport": "stdio", "command": "npx",
          "args": ["-y", "@modelcontextprotocol/server-github"],
          "env": [["GITHUB_TOKEN", ""], ["LOG_LEVEL", "debug"]], "secret_env": ["GITHUB_TOKEN"]}},
        {"id": "docs", "name": "Docs", "target": {"transport": "http", "url": "https://docs.example.com/mcp",
          "headers": [["X-Api-Key", ""]], "secret_headers": ["X-Api-Key"], "mode": "auto"}},
    ]});
    std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
}

#[test]
fn export_writes_the_catalog_in_a_host_dialect_that_import_reads_back() {
    let home = scratch_dir("export-vscode");
    app_catalog(&home);
    let out = periscope(&home, &["export", "--to", "vscode"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let written: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        written["servers"]["GitHub"]["env"]["GITHUB_TOKEN"],
        "${input:github-github-token}"
    );
    assert_eq!(
        written["servers"]["Docs"]["headers"]["X-Api-Key"],
        "${input:docs-x-api-key}"
    );
    assert_eq!(written["inputs"][0]["password"], true);

    let back = ok_json(&periscope(
        &home,
        &["import", "-", "--format", "json"],
        Some(&stdout(&out)),
    ));
    let names: Vec<&str> = back["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["entry"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["GitHub", "Docs"]);
    assert_eq!(
        back["entries"][0]["entry"]["target"]["secret_env"],
        json!(["GITHUB_TOKEN"])
    );
}

#[test]
fn export_one_server_as_a_claude_mcp_add_line_and_refuse_an_unknown_one() {
    let home = scratch_dir("export-claude");
    app_catalog(&home);
    let out = periscope(&home, &["export", "--to", "claude-mcp-add", "gh"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "claude mcp add --transport stdio --env 'GITHUB_TOKEN=<secret: GITHUB_TOKEN>' --env 'LOG_LEVEL=debug' GitHub -- npx -y @modelcontextprotocol/server-github\n"
    );
    // Claude Desktop's file takes local servers only: the remote one is left out, saying so.
    let out = periscope(&home, &["export", "--to", "claude-desktop"], None);
    assert!(out.status.success());
    assert!(stderr(&out).contains("Docs: left out"), "{}", stderr(&out));
    let out = periscope(&home, &["export", "--to", "cursor", "nope"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no server \"nope\"; it has: gh (GitHub), docs (Docs)"),
        "{}",
        stderr(&out)
    );
    let out = periscope(&home, &["export", "--to", "registry"], None);
    assert_eq!(out.status.code(), Some(2));
}
