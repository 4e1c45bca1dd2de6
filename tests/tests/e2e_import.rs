//! End-to-end: the app's Import dialog on the real app (WebDriver, as e2e_app.rs). A Claude
//! Desktop config in the app's XDG_CONFIG_HOME is found and offered; its preview names the
//! refused server and marks the token for the keychain without showing it; importing adds the
//! servers, and the catalog file never holds the token. A pasted command line and a VS Code
//! config whose secret is an input to type go the same way.

use periscope_tests::app::{Harness, ONE_AT_A_TIME};

const TOKEN: &str = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";

#[tokio::test(flavor = "multi_thread")]
async fn servers_from_a_found_claude_config_a_command_line_and_a_vscode_config_are_imported() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::start_with("import", |data| {
        // The harness gives the app XDG_CONFIG_HOME = <scratch>/config beside <scratch>/data.
        let claude = data.parent().unwrap().join("config/Claude");
        std::fs::create_dir_all(&claude).unwrap();
        let config = serde_json::json!({"mcpServers": {
            "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
                       "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": TOKEN}},
            "fetch": {"command": "uvx", "args": ["mcp-server-fetch"]},
            "broken": {"args": ["--no-command"]},
        }});
        std::fs::write(
            claude.join("claude_desktop_config.json"),
            config.to_string(),
        )
        .unwrap();
    })
    .await;
    h.ready_demo().await;

    // The found file is offered; its preview lists two servers and the refused one.
    h.click(r#"[data-testid="import-button"]"#).await;
    h.click(r#"[data-testid="import-host-file"][data-dialect="claude-desktop"]"#)
        .await;
    h.count_is(r#"[data-testid="import-row"]"#, 2).await;
    h.text_containing(
        r#"[data-testid="import-refused"]"#,
        "broken: a local server needs a command to run",
    )
    .await;
    let github = h
        .text(r#"[data-testid="import-row"][data-name="github"]"#)
        .await;
    assert!(
        github.contains("GITHUB_PERSONAL_ACCESS_TOKEN") && github.contains("keychain"),
        "{github}"
    );
    let shown = h.text(r#"[data-testid="import-preview"]"#).await;
    assert!(!shown.contains("ghp_"), "the token is never shown: {shown}");
    h.shot("import-preview").await;

    h.click(r#"[data-testid="import-confirm"]"#).await;
    h.gone(r#"[data-testid="import-preview"]"#).await;
    h.find(r#"[data-testid="server-item"][data-server-name="github"]"#)
        .await;
    h.find(r#"[data-testid="server-item"][data-server-name="fetch"]"#)
        .await;
    let catalog =
        std::fs::read_to_string(h.data.join("data/dev.periscope.app/catalog.json")).unwrap();
    assert!(
        catalog.contains("GITHUB_PERSONAL_ACCESS_TOKEN"),
        "{catalog}"
    );
    assert!(
        !catalog.contains(TOKEN),
        "the token went to the secret store, not the catalog"
    );
    h.shot("imported").await;

    // A pasted command line.
    h.click(r#"[data-testid="import-button"]"#).await;
    h.type_into(
        r#"[data-testid="import-text"]"#,
        "npx -y @modelcontextprotocol/server-everything",
    )
    .await;
    h.click(r#"[data-testid="import-preview-button"]"#).await;
    h.find(r#"[data-testid="import-row"][data-name="server-everything"]"#)
        .await;
    h.click(r#"[data-testid="import-confirm"]"#).await;
    h.find(r#"[data-testid="server-item"][data-server-name="server-everything"]"#)
        .await;

    // VS Code: a password input must be typed before the import.
    h.click(r#"[data-testid="import-button"]"#).await;
    let vscode = r#"{"inputs": [{"type": "promptString", "id": "api-key", "description": "Docs API key", "password": true}],
        "servers": {"docs": {"type": "http", "url": "https://docs.example.com/mcp", "headers": {"X-Api-Key": "${input:api-key}"}}}}"#;
    h.type_into(r#"[data-testid="import-text"]"#, vscode).await;
    h.click(r#"[data-testid="import-preview-button"]"#).await;
    h.find(r#"[data-testid="import-row"][data-name="docs"]"#)
        .await;
    h.attr_is(r#"[data-testid="import-confirm"]"#, "disabled", "true")
        .await;
    h.type_into(r#"[data-testid="import-need"]"#, "k-typed-123")
        .await;
    h.shot("import-vscode-input").await;
    h.click(r#"[data-testid="import-confirm"]"#).await;
    h.find(r#"[data-testid="server-item"][data-server-name="docs"]"#)
        .await;
    let catalog =
        std::fs::read_to_string(h.data.join("data/dev.periscope.app/catalog.json")).unwrap();
    assert!(!catalog.contains("k-typed-123"), "{catalog}");
    h.stop().await;
}
