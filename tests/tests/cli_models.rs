//! `periscope tools call` with sampling answered by a model (--sampling-provider-url), against
//! the fake provider fixture and the demo server's `sample` tool.

#[path = "support/fake_model.rs"]
mod fake_model;

use std::process::{Command, Output};

use fake_model::FakeModel;
use periscope_tests::{bin, scratch_dir};

fn sample(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(bin("periscope"));
    command
        .args([
            "tools",
            "call",
            "sample",
            "-a",
            "prompt=Write a haiku about periscopes",
        ])
        .args(args)
        .arg("--")
        .arg(bin("periscope-demo-server"));
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("periscope runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_local_openai_compatible_model_answers_the_demos_sampling_request() {
    let dir = scratch_dir("cli_sampling_openai");
    let fake = FakeModel::start("sample.json", None, &dir);
    let url = format!("{}/v1", fake.base);
    let out = sample(
        &[
            "--sampling-provider-url",
            &url,
            "--sampling-model",
            "llama3.2",
        ],
        &[],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("model fake-1 replied: Periscope up: the sea of frames, each byte kept."),
        "{stdout}"
    );
    // Said on stderr: who answered, and that nobody reviewed it.
    assert!(stderr.contains("no human in the loop"), "{stderr}");
    assert!(
        stderr.contains("model fake-1 replied: Periscope up"),
        "{stderr}"
    );
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0]["path"], "/v1/chat/completions");
    assert_eq!(requests[0]["body"]["model"], "llama3.2");
    assert_eq!(requests[0]["body"]["max_tokens"], 200);
}

#[test]
fn an_anthropic_key_comes_from_the_environment_and_never_crosses_in_clear() {
    let dir = scratch_dir("cli_sampling_anthropic");
    let key = "sk-ant-cli-fixture-key";
    let fake = FakeModel::start("sample.json", Some(key), &dir);
    let out = sample(
        &[
            "--sampling-provider-url",
            &fake.base,
            "--sampling-kind",
            "anthropic",
            "--sampling-model",
            "claude-fake",
            "--sampling-key-env",
            "PERISCOPE_TEST_MODEL_KEY",
        ],
        &[("PERISCOPE_TEST_MODEL_KEY", key)],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("model fake-1 replied:"), "{stdout}");
    assert_eq!(fake.requests()[0]["auth"], "ok");
    assert!(!stdout.contains(key) && !stderr.contains(key));
    // A key for a plain-http provider off this machine is refused before anything is sent.
    let out = sample(
        &[
            "--sampling-provider-url",
            "http://192.0.2.7:8000/v1",
            "--sampling-model",
            "m",
            "--sampling-key-env",
            "PERISCOPE_TEST_MODEL_KEY",
        ],
        &[("PERISCOPE_TEST_MODEL_KEY", key)],
    );
    let stderr = text(&out.stderr);
    assert!(stderr.contains("in clear"), "{stderr}");
    assert!(stderr.contains("declined"), "{stderr}");
    assert!(!stderr.contains(key));
    assert_eq!(fake.requests().len(), 1, "nothing more reached a provider");
}
