//! The Agent Skills (SEP-2640, `skills.rs`) over stdio, in both eras: the real handler behind
//! the real stdio transport, driven with raw JSON-RPC lines (see `e2e_tests.rs`).

use std::{fmt::Write, sync::Arc};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::{e2e_tests::Client, era::Eras, server::DemoServer};

const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";
const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";
const MODERN: &str = "2026-07-28";

/// A legacy session of `eras`, opened with `initialize` (2025-11-25); the initialize result.
async fn legacy(eras: Eras) -> (Client, Value) {
    let mut client = Client::start_with(DemoServer::with_eras(eras, Arc::default()));
    let init = client
        .request(
            0,
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": { "name": "skills-tests", "version": "0" }
            }),
        )
        .await;
    client
        .send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
        .await;
    (client, init)
}

/// `params` with the `_meta` of a 2026-07-28 request.
fn modern(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "skills-tests", "version": "0" }
    });
    params
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .fold(String::from("sha256:"), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

fn error_code(response: &Value) -> i64 {
    response["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("no error in {response}"))
}

#[tokio::test]
async fn the_extension_is_declared_in_both_eras() {
    let (client, init) = legacy(Eras::Legacy).await;
    assert_eq!(
        init["result"]["capabilities"]["extensions"],
        json!({ SKILLS_EXTENSION: { "directoryRead": true } }),
        "{init}"
    );
    client.close().await;

    // Dual: the legacy session still leaves the tasks extension out, and keeps skills.
    let (client, init) = legacy(Eras::Dual).await;
    assert_eq!(
        init["result"]["capabilities"]["extensions"],
        json!({ SKILLS_EXTENSION: { "directoryRead": true } }),
        "{init}"
    );
    client.close().await;

    let mut client = Client::start_with(DemoServer::with_eras(Eras::Dual, Arc::default()));
    let discover = client
        .request(1, "server/discover", modern(json!({})))
        .await;
    let extensions = &discover["result"]["capabilities"]["extensions"];
    assert_eq!(
        extensions[SKILLS_EXTENSION],
        json!({ "directoryRead": true }),
        "{discover}"
    );
    assert_eq!(extensions[TASKS_EXTENSION], json!({}));
    assert!(
        discover["result"]["instructions"]
            .as_str()
            .unwrap()
            .contains("skills/list")
    );
    client.close().await;
}

#[tokio::test]
async fn list_gives_both_skills_with_the_digests_of_the_served_bytes() {
    let (mut client, init) = legacy(Eras::Legacy).await;
    assert!(
        init["result"]["instructions"]
            .as_str()
            .unwrap()
            .contains("Agent Skills")
    );
    let response = client.request(1, "skills/list", json!({})).await;
    let result = &response["result"];
    assert!(result.get("ttlMs").is_none(), "{response}");
    assert!(result.get("resultType").is_none(), "{response}");
    let skills = result["skills"].as_array().unwrap();
    assert_eq!(skills.len(), 2);

    assert_eq!(skills[0]["uri"], "skill://release-notes/SKILL.md");
    assert_eq!(
        skills[0]["frontmatter"],
        json!({
            "name": "release-notes",
            "description": "Write release notes for a version of the demo server from its changelog",
            "license": "MIT"
        })
    );
    assert_eq!(skills[1]["uri"], "skill://arithmetic/SKILL.md");
    assert_eq!(
        skills[1]["frontmatter"],
        json!({
            "name": "arithmetic",
            "description": "Add numbers with the demo server's add tool and show the working",
            "metadata": { "version": "1.0" }
        })
    );

    let mut id = 10;
    let mut files = Vec::new();
    for skill in skills {
        for file in skill["resources"].as_array().unwrap() {
            let uri = file["uri"].as_str().unwrap();
            id += 1;
            let read = client
                .request(id, "resources/read", json!({ "uri": uri }))
                .await;
            let contents = &read["result"]["contents"];
            assert_eq!(contents.as_array().unwrap().len(), 1, "{read}");
            assert_eq!(contents[0]["uri"], uri);
            assert_eq!(contents[0]["mimeType"], "text/markdown");
            let served = contents[0]["text"].as_str().unwrap().as_bytes();
            assert_eq!(file["digest"], sha256(served), "{uri}");
            assert_eq!(file["size"], served.len(), "{uri}");
            if uri.ends_with("/SKILL.md") {
                assert!(served.starts_with(b"---\nname: "), "{uri}");
            }
            files.push(uri.to_string());
        }
    }
    assert_eq!(
        files,
        [
            "skill://release-notes/SKILL.md",
            "skill://arithmetic/SKILL.md",
            "skill://arithmetic/references/OPERATIONS.md",
            "skill://arithmetic/templates/receipt.md",
        ]
    );

    // The arithmetic skill's body points at its other files by relative path.
    let read = client
        .request(
            30,
            "resources/read",
            json!({ "uri": "skill://arithmetic/SKILL.md" }),
        )
        .await;
    let body = read["result"]["contents"][0]["text"].as_str().unwrap();
    assert!(body.contains("references/OPERATIONS.md") && body.contains("templates/"));

    // One page only: any cursor is one the server never gave.
    let response = client
        .request(31, "skills/list", json!({ "cursor": "next" }))
        .await;
    assert_eq!(error_code(&response), -32602, "{response}");
    client.close().await;
}

#[tokio::test]
async fn the_skill_files_are_not_in_resources_list() {
    let (mut client, _) = legacy(Eras::Legacy).await;
    let mut params = json!({});
    for id in 1.. {
        let response = client.request(id, "resources/list", params).await;
        let result = &response["result"];
        for resource in result["resources"].as_array().unwrap() {
            assert!(!resource["uri"].as_str().unwrap().starts_with("skill://"));
        }
        match result.get("nextCursor") {
            Some(cursor) => params = json!({ "cursor": cursor }),
            None => break,
        }
    }
    client.close().await;
}

#[tokio::test]
async fn get_returns_one_skill_or_invalid_params() {
    let (mut client, _) = legacy(Eras::Legacy).await;
    let listed = client.request(1, "skills/list", json!({})).await;
    let response = client
        .request(
            2,
            "skills/get",
            json!({ "uri": "skill://arithmetic/SKILL.md" }),
        )
        .await;
    assert_eq!(
        response["result"],
        json!({ "skill": listed["result"]["skills"][1] })
    );
    let resources = response["result"]["skill"]["resources"].as_array().unwrap();
    assert_eq!(resources.len(), 3);

    for (id, params) in [
        (3, json!({ "uri": "skill://nope/SKILL.md" })),
        (4, json!({ "uri": "skill://arithmetic" })),
        (
            5,
            json!({ "uri": "skill://arithmetic/references/OPERATIONS.md" }),
        ),
        // No uri: rmcp cannot read the params, and the method is one the server serves.
        (6, json!({})),
    ] {
        let response = client.request(id, "skills/get", params.clone()).await;
        assert_eq!(error_code(&response), -32602, "{params}: {response}");
    }
    // Other unknown methods are still "method not found".
    let response = client.request(7, "skills/nope", json!({})).await;
    assert_eq!(error_code(&response), -32601, "{response}");
    client.close().await;
}

#[tokio::test]
async fn directory_read_lists_direct_children() {
    let (mut client, _) = legacy(Eras::Legacy).await;
    let response = client
        .request(
            1,
            "resources/directory/read",
            json!({ "uri": "skill://arithmetic" }),
        )
        .await;
    assert_eq!(
        response["result"],
        json!({ "resources": [
            {
                "uri": "skill://arithmetic/SKILL.md",
                "name": "SKILL.md",
                "mimeType": "text/markdown"
            },
            {
                "uri": "skill://arithmetic/references",
                "name": "references",
                "mimeType": "inode/directory"
            },
            {
                "uri": "skill://arithmetic/templates",
                "name": "templates",
                "mimeType": "inode/directory"
            }
        ] }),
        "{response}"
    );
    let response = client
        .request(
            2,
            "resources/directory/read",
            json!({ "uri": "skill://arithmetic/templates" }),
        )
        .await;
    assert_eq!(
        response["result"],
        json!({ "resources": [{
            "uri": "skill://arithmetic/templates/receipt.md",
            "name": "receipt.md",
            "mimeType": "text/markdown"
        }] }),
        "{response}"
    );
    for (id, params) in [
        (3, json!({ "uri": "skill://arithmetic/SKILL.md" })),
        (4, json!({ "uri": "skill://arithmetic/" })),
        (5, json!({ "uri": "skill://nope" })),
        (6, json!({ "uri": "demo://text/1" })),
        (7, json!({ "uri": "skill://arithmetic", "cursor": "next" })),
        (8, json!({})),
    ] {
        let response = client
            .request(id, "resources/directory/read", params.clone())
            .await;
        assert_eq!(error_code(&response), -32602, "{params}: {response}");
    }
    client.close().await;
}

#[tokio::test]
async fn modern_results_carry_cache_hints() {
    let mut client = Client::start_with(DemoServer::with_eras(Eras::Dual, Arc::default()));
    let list = client.request(1, "skills/list", modern(json!({}))).await;
    let result = &list["result"];
    assert_eq!(result["resultType"], "complete", "{list}");
    assert_eq!(result["ttlMs"], 3_600_000);
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(result["skills"].as_array().unwrap().len(), 2);

    let get = client
        .request(
            2,
            "skills/get",
            modern(json!({ "uri": "skill://release-notes/SKILL.md" })),
        )
        .await;
    let result = &get["result"];
    assert_eq!(result["ttlMs"], 3_600_000, "{get}");
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(result["skill"], list["result"]["skills"][0]);

    let directory = client
        .request(
            3,
            "resources/directory/read",
            modern(json!({ "uri": "skill://release-notes" })),
        )
        .await;
    assert_eq!(directory["result"]["ttlMs"], 3_600_000, "{directory}");
    assert_eq!(
        directory["result"]["resources"],
        json!([{
            "uri": "skill://release-notes/SKILL.md",
            "name": "SKILL.md",
            "mimeType": "text/markdown"
        }])
    );

    let read = client
        .request(
            4,
            "resources/read",
            modern(json!({ "uri": "skill://release-notes/SKILL.md" })),
        )
        .await;
    let file = &list["result"]["skills"][0]["resources"][0];
    let served = read["result"]["contents"][0]["text"].as_str().unwrap();
    assert_eq!(file["digest"], sha256(served.as_bytes()), "{read}");
    assert_eq!(read["result"]["cacheScope"], "public");

    let unknown = client
        .request(
            5,
            "skills/get",
            modern(json!({ "uri": "skill://nope/SKILL.md" })),
        )
        .await;
    assert_eq!(error_code(&unknown), -32602, "{unknown}");
    client.close().await;
}
