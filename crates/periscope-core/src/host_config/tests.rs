//! Import from real-world files of each host (tests/fixtures/host-configs, shaped after the
//! examples in each host's documentation), refused entries, masked secrets, and round trips.

use std::path::PathBuf;

use super::*;
use crate::config::{HttpMode, HttpTarget, ServerTarget, StdioTarget};

fn fixture(path: &str) -> String {
    let full = format!(
        "{}/tests/fixtures/host-configs/{path}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn read_with(
    text: &str,
    file_name: Option<&str>,
    dialect: Option<Dialect>,
    vars: &[(&str, &str)],
) -> ImportPreview {
    let lookup = |name: &str| {
        vars.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    };
    let context = ImportContext {
        env: &lookup,
        home: Some(PathBuf::from("/home/ada")),
        workspace_folder: Some(PathBuf::from("/work/proj")),
    };
    import(
        ImportSource {
            text,
            file_name,
            dialect,
        },
        &context,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

fn read(path: &str, vars: &[(&str, &str)]) -> ImportPreview {
    read_with(&fixture(path), Some(path), None, vars)
}

fn names(preview: &ImportPreview) -> Vec<&str> {
    preview
        .entries
        .iter()
        .map(|e| e.entry.name.as_str())
        .collect()
}

fn refused(preview: &ImportPreview) -> Vec<String> {
    preview.refused.iter().map(ToString::to_string).collect()
}

fn entry<'a>(preview: &'a ImportPreview, name: &str) -> &'a ImportedEntry {
    preview
        .entries
        .iter()
        .find(|e| e.entry.name == name)
        .unwrap_or_else(|| panic!("no {name} in {:?}", names(preview)))
}

fn stdio(imported: &ImportedEntry) -> &StdioTarget {
    match &imported.entry.target {
        ServerTarget::Stdio(t) => t,
        other => panic!("not stdio: {other:?}"),
    }
}

fn http(imported: &ImportedEntry) -> (&HttpTarget, HttpMode) {
    match &imported.entry.target {
        ServerTarget::Http { target, mode } => (target, *mode),
        other => panic!("not http: {other:?}"),
    }
}

#[test]
fn claude_desktop_servers_import_with_the_token_marked_secret_and_the_one_without_command_refused()
{
    let preview = read("claude_desktop_config.json", &[]);
    assert_eq!(preview.dialect, Dialect::ClaudeDesktop);
    assert_eq!(
        names(&preview),
        ["filesystem", "github", "fetch", "postgres"]
    );
    let fs = stdio(entry(&preview, "filesystem"));
    assert_eq!(fs.command, "npx");
    assert_eq!(fs.args[1], "@modelcontextprotocol/server-filesystem");
    let github = stdio(entry(&preview, "github"));
    assert_eq!(github.secret_env, ["GITHUB_PERSONAL_ACCESS_TOKEN"]);
    // The secret's value is kept (for the secret store) but never shown.
    assert!(github.env[0].1.starts_with("ghp_"));
    let masked = format!("{:?}", entry(&preview, "github").masked());
    assert!(
        !masked.contains("ghp_") && masked.contains("••••"),
        "{masked}"
    );
    let postgres = stdio(entry(&preview, "postgres"));
    assert!(postgres.secret_env.is_empty(), "{postgres:?}");
    assert_eq!(
        refused(&preview),
        ["broken: a local server needs a command to run"]
    );
    assert_eq!(entry(&preview, "github").entry.id, "github");
}

#[test]
fn claude_code_fills_its_variables_and_refuses_an_unset_one_or_an_unknown_transport() {
    let preview = read(".mcp.json", &[("AIRTABLE_API_KEY", "key-from-env")]);
    assert_eq!(preview.dialect, Dialect::ClaudeCode);
    assert_eq!(names(&preview), ["shared-server", "sentry", "airtable"]);
    assert_eq!(http(entry(&preview, "sentry")).1, HttpMode::LegacySse);
    let airtable = stdio(entry(&preview, "airtable"));
    assert_eq!(
        airtable.env,
        [("AIRTABLE_API_KEY".to_string(), "key-from-env".to_string())]
    );
    assert_eq!(airtable.secret_env, ["AIRTABLE_API_KEY"]);
    assert_eq!(
        refused(&preview),
        [
            "api-server: it uses the environment variable API_KEY, which is not set here: set it and import again",
            "socket: transport \"websocket\" is not one Periscope speaks (stdio, http, sse)",
        ]
    );

    // With API_KEY set, the default of ${API_BASE_URL:-…} fills the URL.
    let preview = read(
        ".mcp.json",
        &[("API_KEY", "sk-123"), ("AIRTABLE_API_KEY", "k")],
    );
    let (target, mode) = http(entry(&preview, "api-server"));
    assert_eq!(target.url, "https://api.example.com/mcp");
    assert_eq!(mode, HttpMode::Auto);
    assert_eq!(
        target.headers,
        [("Authorization".to_string(), "Bearer sk-123".to_string())]
    );
    assert_eq!(target.secret_headers, ["Authorization"]);
}

#[test]
fn cursor_files_with_comments_and_trailing_commas_read_and_fill_env_and_home() {
    let preview = read(".cursor/mcp.json", &[("BRAVE_API_KEY", "BSA-xyz")]);
    assert_eq!(preview.dialect, Dialect::Cursor);
    assert_eq!(names(&preview), ["brave-search", "remote-server", "notes"]);
    assert_eq!(
        stdio(entry(&preview, "brave-search")).secret_env,
        ["BRAVE_API_KEY"]
    );
    let (remote, _) = http(entry(&preview, "remote-server"));
    assert_eq!(remote.secret_headers, ["API_KEY"]);
    assert_eq!(
        stdio(entry(&preview, "notes")).args,
        ["/home/ada/mcp/notes/server.py"]
    );
}

#[test]
fn windsurf_server_urls_are_remote_and_a_disabled_server_is_imported_with_a_note() {
    let preview = read("mcp_config.json", &[("FIGMA_TOKEN", "figd_abc")]);
    assert_eq!(preview.dialect, Dialect::Windsurf);
    let (figma, _) = http(entry(&preview, "figma"));
    assert_eq!(figma.url, "https://mcp.figma.com/mcp");
    assert_eq!(figma.secret_headers, ["Authorization"]);
    let disabled = entry(&preview, "disabled-one");
    assert_eq!(
        disabled.notes,
        [
            "not carried over from Windsurf: disabledTools",
            "disabled in Windsurf; imported anyway"
        ]
    );
    assert!(preview.refused.is_empty());
}

#[test]
fn cline_settings_keep_their_transports_and_name_what_is_not_carried() {
    let preview = read("cline_mcp_settings.json", &[]);
    assert_eq!(preview.dialect, Dialect::Cline);
    let weather = entry(&preview, "weather");
    assert_eq!(stdio(weather).secret_env, ["OPENWEATHER_API_KEY"]);
    assert_eq!(weather.notes, ["not carried over from Cline: autoApprove"]);
    assert_eq!(http(entry(&preview, "remote-docs")).1, HttpMode::Auto);
    assert_eq!(
        http(entry(&preview, "legacy-events")).1,
        HttpMode::LegacySse
    );
}

#[test]
fn vscode_inputs_become_values_to_type_and_host_only_variables_are_refused() {
    let preview = read(".vscode/mcp.json", &[]);
    assert_eq!(preview.dialect, Dialect::VsCode);
    assert_eq!(names(&preview), ["Perplexity", "Fetch", "sqlite", "github"]);
    let perplexity = entry(&preview, "Perplexity");
    // A whole value that is a password input: kept secret, empty, with the prompt to ask.
    assert_eq!(
        stdio(perplexity).env,
        [("PERPLEXITY_API_KEY".to_string(), String::new())]
    );
    assert_eq!(stdio(perplexity).secret_env, ["PERPLEXITY_API_KEY"]);
    assert_eq!(perplexity.needs.len(), 1);
    assert_eq!(perplexity.needs[0].placeholder, "${input:perplexity-key}");
    assert_eq!(
        perplexity.needs[0].prompt.as_deref(),
        Some("Perplexity API Key")
    );
    assert!(perplexity.needs[0].password);
    // Inside a longer value: kept as written, listed; ${workspaceFolder} filled.
    let sqlite = entry(&preview, "sqlite");
    assert_eq!(stdio(sqlite).args[2], "/work/proj/db/${input:db-name}.db");
    assert_eq!(sqlite.needs[0].place, ValuePlace::Argument(3));
    assert_eq!(sqlite.notes, ["not carried over from VS Code: envFile"]);
    assert_eq!(
        refused(&preview),
        ["clock: it uses ${command:pickClockServer}, which only its host can fill in"]
    );
}

#[test]
fn vscode_settings_json_servers_are_found_under_mcp() {
    let text = r#"{ "editor.fontSize": 14, "mcp": { "servers": { "time": { "command": "uvx", "args": ["mcp-server-time"] } } } }"#;
    let preview = read_with(
        text,
        Some("/home/ada/.config/Code/User/settings.json"),
        None,
        &[],
    );
    assert_eq!(preview.dialect, Dialect::VsCode);
    assert_eq!(names(&preview), ["time"]);
}

#[test]
fn zed_custom_and_remote_servers_import_and_an_extension_server_is_refused() {
    let preview = read("zed/settings.json", &[]);
    assert_eq!(preview.dialect, Dialect::Zed);
    assert_eq!(
        names(&preview),
        ["local-mcp-server", "remote-mcp-server", "old-style"]
    );
    assert_eq!(
        stdio(entry(&preview, "local-mcp-server")).secret_env,
        ["SOME_TOKEN"]
    );
    assert_eq!(
        stdio(entry(&preview, "old-style")).command,
        "/usr/local/bin/old-server"
    );
    assert_eq!(
        http(entry(&preview, "remote-mcp-server")).0.secret_headers,
        ["Authorization"]
    );
    assert_eq!(
        refused(&preview),
        [
            "mcp-server-github: it is provided by a Zed extension, whose command is not in the settings file"
        ]
    );
}

#[test]
fn a_registry_server_json_runs_each_package_with_its_runner_and_refuses_what_it_cannot() {
    let preview = read("server.json", &[]);
    assert_eq!(preview.dialect, Dialect::Registry);
    assert_eq!(
        names(&preview),
        [
            "Weather (npm)",
            "Weather (pypi)",
            "Weather (oci)",
            "Weather (remote)"
        ]
    );
    let npm = entry(&preview, "Weather (npm)");
    assert_eq!(stdio(npm).command, "npx");
    assert_eq!(
        stdio(npm).args,
        [
            "-y",
            "@ada/weather-mcp@1.2.0",
            "--units",
            "metric",
            "<region>"
        ]
    );
    assert_eq!(
        stdio(npm).env,
        [
            ("WEATHER_API_KEY".to_string(), String::new()),
            ("WEATHER_CACHE".to_string(), "/tmp/weather".to_string())
        ]
    );
    assert_eq!(stdio(npm).secret_env, ["WEATHER_API_KEY"]);
    let needs: Vec<String> = npm
        .needs
        .iter()
        .map(|n| format!("{} {}", n.place, n.placeholder))
        .collect();
    assert_eq!(
        needs,
        [
            "environment variable WEATHER_API_KEY <WEATHER_API_KEY>",
            "argument 5 <region>"
        ]
    );
    assert_eq!(
        npm.notes,
        ["optional WEATHER_DEBUG has no default: left out"]
    );
    let pypi = stdio(entry(&preview, "Weather (pypi)"));
    assert_eq!(
        (pypi.command.as_str(), pypi.args.as_slice()),
        ("uvx", &["weather-mcp==1.2.0".to_string()][..])
    );
    let oci = stdio(entry(&preview, "Weather (oci)"));
    assert_eq!(
        oci.args,
        [
            "run",
            "-i",
            "--rm",
            "-e",
            "WEATHER_API_KEY",
            "docker.io/ada/weather-mcp:1.2.0"
        ]
    );
    let (remote, _) = http(entry(&preview, "Weather (remote)"));
    assert_eq!(remote.secret_headers, ["X-API-Key"]);
    assert_eq!(
        refused(&preview),
        [
            "Weather (mcpb): package type \"mcpb\" has no runner Periscope knows",
            "Weather (npm): the package serves over streamable-http once started: start it yourself and import its URL",
        ]
    );
    // Two entries named alike get distinct ids.
    let ids: Vec<&str> = preview
        .entries
        .iter()
        .map(|e| e.entry.id.as_str())
        .collect();
    assert_eq!(
        ids,
        [
            "weather-npm",
            "weather-pypi",
            "weather-oci",
            "weather-remote"
        ]
    );
}

#[test]
fn a_pasted_command_line_becomes_a_local_server_named_for_its_package() {
    let preview = read_with(
        "npx -y @modelcontextprotocol/server-everything",
        None,
        None,
        &[],
    );
    assert_eq!(preview.dialect, Dialect::CommandLine);
    let everything = entry(&preview, "server-everything");
    assert_eq!(
        stdio(everything).args,
        ["-y", "@modelcontextprotocol/server-everything"]
    );

    let preview = read_with(
        "FOO=1 API_TOKEN=abc python server.py --port 3",
        None,
        None,
        &[],
    );
    let server = stdio(entry(&preview, "server.py"));
    assert_eq!(server.command, "python");
    assert_eq!(
        server.env,
        [
            ("FOO".into(), "1".into()),
            ("API_TOKEN".into(), "abc".into())
        ]
    );
    assert_eq!(server.secret_env, ["API_TOKEN"]);

    let preview = read_with("https://mcp.example.com/mcp", None, None, &[]);
    assert_eq!(
        http(entry(&preview, "mcp.example.com")).0.url,
        "https://mcp.example.com/mcp"
    );

    let error = import(
        ImportSource {
            text: "npx 'unclosed",
            ..Default::default()
        },
        &ImportContext::of_this_process(None),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the command line cannot be read: a quote is not closed"
    );
}

#[test]
fn pasted_json_of_one_server_or_a_bare_map_is_detected() {
    let one = read_with(
        r#"{"command": "uvx", "args": ["mcp-server-git"]}"#,
        None,
        None,
        &[],
    );
    assert_eq!(names(&one), ["server"]);
    let named = read_with(
        r#"{"name": "git", "command": "uvx", "args": ["mcp-server-git"]}"#,
        None,
        None,
        &[],
    );
    assert_eq!(named.dialect, Dialect::VsCode);
    assert_eq!(names(&named), ["git"]);
    let bare = read_with(
        r#"{"svelte": {"command": "npx", "args": ["-y", "@sveltejs/mcp"]}}"#,
        None,
        None,
        &[],
    );
    assert_eq!(names(&bare), ["svelte"]);
    let fragment = read_with(
        r#""github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"]},"#,
        None,
        None,
        &[],
    );
    assert_eq!(names(&fragment), ["github"]);
    let error = import(
        ImportSource {
            text: r#"{"theme": "dark"}"#,
            ..Default::default()
        },
        &ImportContext::of_this_process(None),
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("top-level keys found: theme"),
        "{error}"
    );
}

#[test]
fn a_named_dialect_wins_over_detection() {
    let text = fixture("claude_desktop_config.json");
    let preview = read_with(&text, None, Some(Dialect::Cline), &[]);
    assert_eq!(preview.dialect, Dialect::Cline);
}

// --- Export and round trips -------------------------------------------------------------

/// Entries as the catalog keeps them: secret values empty and marked, ids from names.
fn catalog() -> Vec<ServerEntry> {
    let stdio = ServerEntry {
        id: "github".into(),
        name: "github".into(),
        target: ServerTarget::Stdio(StdioTarget {
            command: "npx".into(),
            args: vec![
                "-y".into(),
                "@modelcontextprotocol/server-github".into(),
                "with space".into(),
            ],
            env: vec![
                ("GITHUB_TOKEN".into(), String::new()),
                ("LOG_LEVEL".into(), "debug".into()),
                ("DSN".into(), String::new()),
            ],
            secret_env: vec!["GITHUB_TOKEN".into(), "DSN".into()],
            ..StdioTarget::default()
        }),
        era: EraChoice::Auto,
    };
    let remote = ServerEntry {
        id: "remote-docs".into(),
        name: "Remote docs".into(),
        target: ServerTarget::Http {
            target: HttpTarget {
                url: "https://docs.example.com/mcp".into(),
                headers: vec![
                    ("X-Api-Key".into(), String::new()),
                    ("Accept-Language".into(), "en".into()),
                ],
                secret_headers: vec!["X-Api-Key".into()],
                ..HttpTarget::default()
            },
            mode: HttpMode::Auto,
        },
        era: EraChoice::Auto,
    };
    let sse = ServerEntry {
        id: "events".into(),
        name: "events".into(),
        target: ServerTarget::Http {
            target: HttpTarget {
                url: "https://events.example.com/sse".into(),
                ..HttpTarget::default()
            },
            mode: HttpMode::LegacySse,
        },
        era: EraChoice::Auto,
    };
    vec![stdio, remote, sse]
}

use crate::config::{EraChoice, ServerEntry};

fn round_trip(format: ExportFormat, dialect: Dialect, entries: &[ServerEntry]) {
    let exported = export(entries, format).unwrap();
    let preview = read_with(&exported.text, None, Some(dialect), &[]);
    assert!(
        preview.refused.is_empty(),
        "{format:?}: {:?}\n{}",
        preview.refused,
        exported.text
    );
    let back: Vec<ServerEntry> = preview.entries.into_iter().map(|e| e.entry).collect();
    assert_eq!(back, entries, "{format:?}:\n{}", exported.text);
    // Detection finds the same dialect in what was written.
    if dialect != Dialect::CommandLine {
        let detected = read_with(&exported.text, None, None, &[]);
        assert_eq!(
            back,
            detected
                .entries
                .into_iter()
                .map(|e| e.entry)
                .collect::<Vec<_>>(),
            "{format:?} detected"
        );
    }
}

#[test]
fn every_dialect_reads_back_what_it_writes() {
    let all = catalog();
    let local_only = &all[..1];
    let without_sse: Vec<ServerEntry> = all[..2].to_vec();
    round_trip(
        ExportFormat::File(Dialect::ClaudeDesktop),
        Dialect::ClaudeDesktop,
        local_only,
    );
    round_trip(
        ExportFormat::File(Dialect::ClaudeCode),
        Dialect::ClaudeCode,
        &all,
    );
    round_trip(
        ExportFormat::File(Dialect::Cursor),
        Dialect::Cursor,
        &without_sse,
    );
    round_trip(
        ExportFormat::File(Dialect::Windsurf),
        Dialect::Windsurf,
        &without_sse,
    );
    round_trip(ExportFormat::File(Dialect::Cline), Dialect::Cline, &all);
    round_trip(ExportFormat::File(Dialect::VsCode), Dialect::VsCode, &all);
    round_trip(ExportFormat::File(Dialect::Zed), Dialect::Zed, &without_sse);
    round_trip(ExportFormat::ClaudeMcpAdd, Dialect::CommandLine, &all);
    round_trip(ExportFormat::CodeAddMcp, Dialect::CommandLine, &all);
    let no_headers: Vec<ServerEntry> = vec![all[0].clone(), all[2].clone()];
    let mut no_headers = no_headers;
    if let ServerTarget::Http { mode, .. } = &mut no_headers[1].target {
        *mode = HttpMode::Auto;
    }
    round_trip(
        ExportFormat::File(Dialect::CommandLine),
        Dialect::CommandLine,
        &no_headers,
    );
}

#[test]
fn secret_values_are_never_written_whatever_the_entry_holds() {
    let mut entries = catalog();
    if let ServerTarget::Stdio(t) = &mut entries[0].target {
        t.env[0].1 = "ghp_supersecretvalue123".into();
        t.env[2].1 = "postgres://u:hunter2@db".into();
    }
    if let ServerTarget::Http { target, .. } = &mut entries[1].target {
        target.headers[0].1 = "k-live-987".into();
    }
    let formats = [
        ExportFormat::File(Dialect::ClaudeDesktop),
        ExportFormat::File(Dialect::ClaudeCode),
        ExportFormat::File(Dialect::Cursor),
        ExportFormat::File(Dialect::Windsurf),
        ExportFormat::File(Dialect::Cline),
        ExportFormat::File(Dialect::VsCode),
        ExportFormat::File(Dialect::Zed),
        ExportFormat::File(Dialect::CommandLine),
        ExportFormat::ClaudeMcpAdd,
        ExportFormat::CodeAddMcp,
    ];
    for format in formats {
        let text = export(&entries, format).unwrap().text;
        for secret in ["ghp_supersecretvalue123", "hunter2", "k-live-987"] {
            assert!(!text.contains(secret), "{format:?} wrote {secret}:\n{text}");
        }
    }
    let vscode = export(&entries, ExportFormat::File(Dialect::VsCode))
        .unwrap()
        .text;
    assert!(
        vscode.contains("\"GITHUB_TOKEN\": \"${input:github-github-token}\""),
        "{vscode}"
    );
    assert!(vscode.contains("\"password\": true"), "{vscode}");
    let desktop = export(&entries, ExportFormat::File(Dialect::ClaudeDesktop)).unwrap();
    assert!(
        desktop
            .text
            .contains("\"GITHUB_TOKEN\": \"<secret: GITHUB_TOKEN>\""),
        "{}",
        desktop.text
    );
}

#[test]
fn what_a_format_cannot_hold_is_named_in_a_note() {
    let entries = catalog();
    let desktop = export(&entries, ExportFormat::File(Dialect::ClaudeDesktop)).unwrap();
    assert_eq!(desktop.notes.len(), 2, "{:?}", desktop.notes);
    assert!(
        desktop.notes[0]
            .starts_with("Remote docs: left out: Claude Desktop's file holds local servers only")
    );
    let claude = export(&entries[..1], ExportFormat::ClaudeMcpAdd).unwrap();
    assert_eq!(
        claude.text,
        "claude mcp add --transport stdio --env 'GITHUB_TOKEN=<secret: GITHUB_TOKEN>' --env 'LOG_LEVEL=debug' --env 'DSN=<secret: DSN>' github -- npx -y @modelcontextprotocol/server-github 'with space'\n"
    );
    assert_eq!(
        export(&entries, ExportFormat::File(Dialect::Registry)),
        Err(ExportError::RegistryNotWritable)
    );
}

#[test]
fn usual_locations_are_listed_and_only_existing_files_are_found() {
    let root =
        std::env::temp_dir().join(format!("periscope-host-locations-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let roots = locations::Roots {
        home: root.join("home"),
        config: root.join("home/.config"),
        project: Some(root.join("proj")),
    };
    assert!(locations::found(&roots).is_empty());
    std::fs::create_dir_all(root.join("home/.config/Claude")).unwrap();
    std::fs::write(
        root.join("home/.config/Claude/claude_desktop_config.json"),
        "{}",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("proj/.vscode")).unwrap();
    std::fs::write(root.join("proj/.vscode/mcp.json"), "{}").unwrap();
    let found: Vec<Dialect> = locations::found(&roots).iter().map(|f| f.dialect).collect();
    assert_eq!(found, [Dialect::ClaudeDesktop, Dialect::VsCode]);
    assert!(locations::candidates(&roots).len() >= 12);
    assert_eq!(
        locations::workspace_folder(&root.join("proj/.vscode/mcp.json")),
        Some(root.join("proj"))
    );
    let _ = std::fs::remove_dir_all(&root);
}
