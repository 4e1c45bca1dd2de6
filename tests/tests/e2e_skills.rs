//! End-to-end: the Skills view in the real app (SEP-2640). Against the demo server: its two
//! skills listed (arithmetic marked changed and release-notes new against the fingerprints the
//! user last saw), nothing fetched before a click, arithmetic's SKILL.md loaded and verified,
//! rendered beside its frontmatter and raw text, a supporting file opened and a folder browsed,
//! each verified. Against `skills-fixture`: the tampered SKILL.md refused with both digests, the
//! padded one with the sizes, the broken frontmatter shown raw, the withheld frame flagged in
//! Traffic. Screenshots under test-artifacts/e2e/skills/.

use periscope_tests::app::{Harness, ONE_AT_A_TIME};

const LIES_READY: &str =
    r#"[data-testid="server-item"][data-server-id="lies"][data-status="ready"]"#;
const DEMO_READY: &str =
    r#"[data-testid="server-item"][data-server-id="demo"][data-status="ready"]"#;

fn item(uri: &str) -> String {
    format!(r#"[data-testid="skill-item"][data-skill-uri="{uri}"]"#)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_skills_view_lists_loads_verifies_and_refuses_what_does_not_match() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let demo = periscope_tests::bin_str("periscope-demo-server");
    let fixture = periscope_tests::bin_str("skills-fixture");
    let mut h = Harness::start_with("skills", |data| {
        periscope_tests::app::catalog_of(
            data,
            &[
                ("demo", "Demo", demo.as_str(), &[]),
                ("lies", "Lying skills", fixture.as_str(), &[]),
            ],
        );
        // What the user saw of the demo last time: arithmetic with another manifest, and no
        // release-notes at all.
        let seen = serde_json::json!({"demo": {"skill://arithmetic/SKILL.md": "sha256:0000"}});
        std::fs::write(
            data.join("dev.periscope.app/skills_seen.json"),
            seen.to_string(),
        )
        .unwrap();
    })
    .await;

    h.click(r#"[data-testid="server-item"][data-server-id="demo"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(DEMO_READY).await;
    h.click(r#"[data-testid="tab-skills"]"#).await;
    h.count_is(r#"[data-testid="skill-item"]"#, 2).await;
    let arithmetic = item("skill://arithmetic/SKILL.md");
    let marked = h
        .text(&format!(r#"{arithmetic} [data-testid="skill-mark"]"#))
        .await;
    assert_eq!(marked, "changed");
    let marked = h
        .text(&format!(
            r#"{} [data-testid="skill-mark"]"#,
            item("skill://release-notes/SKILL.md")
        ))
        .await;
    assert_eq!(marked, "new");
    h.shot("demo-listed").await;
    h.attr_is(&arithmetic, "data-files", "3").await;

    // Picked: its manifest shown, nothing of it fetched yet.
    h.click(&arithmetic).await;
    h.count_is(r#"[data-testid="skill-file"]"#, 3).await;
    h.find(r#"[data-testid="skill-not-loaded"]"#).await;
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.find(r#"[data-testid="traffic-row"][data-method="skills/list"]"#)
        .await;
    assert_eq!(
        h.count(r#"[data-testid="traffic-row"][data-method="resources/read"]"#)
            .await,
        0,
        "listing and picking fetch no skill file"
    );
    h.click(r#"[data-testid="tab-skills"]"#).await;

    // Loaded on the click: verified, rendered, its frontmatter and raw text beside.
    h.click(r#"[data-testid="skill-load"]"#).await;
    h.attr_is(
        r#"[data-testid="skill-loaded"] [data-testid="skill-check"]"#,
        "data-verdict",
        "verified",
    )
    .await;
    let check = h
        .text(r#"[data-testid="skill-loaded"] [data-testid="skill-check"]"#)
        .await;
    assert!(
        check.starts_with("sha256:") && check.ends_with("verified"),
        "{check}"
    );
    h.text_containing(r#"[data-testid="skill-rendered"]"#, "Arithmetic")
        .await;
    h.shot("demo-loaded").await;
    h.click(r#"[data-testid="skill-view-frontmatter"]"#).await;
    h.text_containing(
        r#"[data-testid="skill-frontmatter-raw"]"#,
        "name: arithmetic",
    )
    .await;
    h.click(r#"[data-testid="skill-view-raw"]"#).await;
    let raw = h.text(r#"[data-testid="skill-raw"]"#).await;
    assert!(raw.starts_with("---"), "{raw}");

    // A supporting file, opened and verified.
    h.click(r#"[data-testid="skill-file"][data-file-path="references/OPERATIONS.md"] [data-testid="skill-open-file"]"#)
        .await;
    h.attr_is(
        r#"[data-testid="skill-file-view"] [data-testid="skill-check"]"#,
        "data-verdict",
        "verified",
    )
    .await;
    h.text_containing(r#"[data-testid="skill-file-text"]"#, "Operations")
        .await;

    // The skill's folders, one level at a time (the demo declares directoryRead).
    h.click(r#"[data-testid="skill-folder"][data-folder-uri="skill://arithmetic"]"#)
        .await;
    h.click(r#"[data-testid="skill-folder"][data-folder-uri="skill://arithmetic/templates"]"#)
        .await;
    h.text_containing(r#"[data-testid="skill-folders"]"#, "receipt.md")
        .await;
    h.click(r#"[data-testid="skill-folder-file"][data-file-uri="skill://arithmetic/templates/receipt.md"]"#)
        .await;
    h.text_containing(r#"[data-testid="skill-file-view"]"#, "receipt.md")
        .await;
    h.scroll_to(r#"[data-testid="skill-folders"]"#).await;
    h.shot("demo-file-and-folders").await;

    // The lying fixture: a tampered SKILL.md is refused, naming both digests; its body is not
    // shown anywhere in the view.
    h.click(r#"[data-testid="server-item"][data-server-id="lies"]"#)
        .await;
    h.click(r#"[data-testid="connect-button"]"#).await;
    h.find(LIES_READY).await;
    h.click(r#"[data-testid="tab-skills"]"#).await;
    h.count_is(r#"[data-testid="skill-item"]"#, 4).await;
    h.click(&item("skill://tampered/SKILL.md")).await;
    h.click(r#"[data-testid="skill-load"]"#).await;
    h.text_containing(r#"[data-testid="skill-refused"]"#, "does not match")
        .await;
    let check = h
        .text(r#"[data-testid="skill-loaded"] [data-testid="skill-check"]"#)
        .await;
    assert!(check.contains("Digest mismatch"), "{check}");
    assert_eq!(check.matches("sha256:").count(), 2, "{check}");
    h.attr_is(
        r#"[data-testid="skill-loaded"] [data-testid="skill-check"]"#,
        "data-verdict",
        "failed",
    )
    .await;
    let view = h.text(r#"[data-testid="skill-detail"]"#).await;
    assert!(!view.contains("Evil"), "unverified content shown: {view}");
    h.shot("tampered-refused").await;

    // The size that lies.
    h.click(&item("skill://padded/SKILL.md")).await;
    h.click(r#"[data-testid="skill-load"]"#).await;
    h.text_containing(
        r#"[data-testid="skill-loaded"] [data-testid="skill-check"]"#,
        "Size mismatch",
    )
    .await;

    // Broken frontmatter: refused, its raw text still there to read.
    h.click(&item("skill://broken-frontmatter/SKILL.md")).await;
    h.click(r#"[data-testid="skill-load"]"#).await;
    h.text_containing(
        r#"[data-testid="skill-refused"]"#,
        "frontmatter cannot be read",
    )
    .await;
    h.click(r#"[data-testid="skill-view-frontmatter"]"#).await;
    h.text_containing(
        r#"[data-testid="skill-frontmatter-raw"]"#,
        "description: [unclosed",
    )
    .await;
    h.shot("broken-frontmatter").await;

    // Raw first: the withheld answers are in Traffic, flagged.
    h.click(r#"[data-testid="tab-traffic"]"#).await;
    h.click(r#"[data-testid="traffic-row"][data-method="resources/read"][data-kind="response"]"#)
        .await;
    h.text_containing(r#"[data-testid="frame-flags"]"#, "A skill file withheld")
        .await;
    h.stop().await;
}
