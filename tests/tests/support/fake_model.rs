//! Starts the fake model provider fixture (tests/src/bin/fake-model.rs) with a script from
//! tests/fixtures/models/ and reads what it logged.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

pub struct FakeModel {
    child: Child,
    /// `http://127.0.0.1:PORT`: OpenAI-compatible clients use `<base>/v1`, Anthropic `<base>`.
    pub base: String,
    pub log: PathBuf,
}

impl FakeModel {
    /// `script`: a file name in tests/fixtures/models (several, comma-separated: one model
    /// each, picked by the request's `model`); `key`: the key it expects, if any.
    pub fn start(script: &str, key: Option<&str>, dir: &std::path::Path) -> FakeModel {
        let models = periscope_tests::tests_dir().join("fixtures/models");
        let script = script
            .split(',')
            .map(|s| models.join(s).to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(",");
        let log = dir.join(format!("fake-model-{}.log", std::process::id()));
        let _ = std::fs::remove_file(&log);
        let mut command = Command::new(periscope_tests::bin("fake-model"));
        command
            .arg(&script)
            .arg(&log)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        match key {
            Some(key) => command.env("FAKE_MODEL_KEY", key),
            None => command.env_remove("FAKE_MODEL_KEY"),
        };
        let mut child = command.spawn().expect("fake-model starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("fake-model prints its URL");
        FakeModel {
            child,
            base: line.trim().to_string(),
            log,
        }
    }

    /// The requests it received, one JSON object each (`path`, `auth`, `body`).
    pub fn requests(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).expect("each log line is JSON"))
            .collect()
    }
}

impl Drop for FakeModel {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
