//! The 2026-07-28 servers built on the official SDKs (tests/interop): the Python SDK's
//! `python/modern_server.py` (in the venv `python/run.sh` keeps) and the TypeScript SDK v2's
//! `ts/modern-server.mjs` (with the packages of tests/interop/package.json). Both offer the same
//! fixture: echo, add, the two-round `book_table`, `touch_note`, `note://greeting`, `greet`.

use std::process::Command;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ModernSdk {
    Python,
    TypeScript,
}

impl ModernSdk {
    /// The name the server gives in `server/discover` (and `initialize`).
    pub fn server_name(self) -> &'static str {
        match self {
            ModernSdk::Python => "periscope-interop-python",
            ModernSdk::TypeScript => "periscope-interop-typescript",
        }
    }

    /// What `note://greeting` holds before anyone touches it.
    pub fn greeting(self) -> &'static str {
        match self {
            ModernSdk::Python => "hello from python",
            ModernSdk::TypeScript => "hello from typescript",
        }
    }

    /// The program and arguments that start the server; `mode` is `stdio` or `http` (which
    /// prints its URL as the first stdout line).
    pub fn argv(self, mode: &str) -> Vec<String> {
        let interop = crate::tests_dir().join("interop");
        match self {
            // run.sh creates the venv on first use (scripts/bootstrap.sh already did).
            ModernSdk::Python => vec![
                interop.join("python/run.sh").display().to_string(),
                "modern_server.py".into(),
                mode.into(),
            ],
            ModernSdk::TypeScript => {
                let sdk = interop.join("node_modules/@modelcontextprotocol/server/package.json");
                assert!(
                    sdk.exists(),
                    "{} is missing: `make test` installs it (npm install in tests/interop)",
                    sdk.display()
                );
                vec![
                    "node".into(),
                    interop.join("ts/modern-server.mjs").display().to_string(),
                    mode.into(),
                ]
            }
        }
    }

    /// The server as a command, ready to spawn.
    pub fn command(self, mode: &str) -> Command {
        let argv = self.argv(mode);
        let mut command = Command::new(&argv[0]);
        command.args(&argv[1..]);
        command
    }
}
