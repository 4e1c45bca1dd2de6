# The two commands: `make run` (the Periscope app on its built-in demo server) and `make test`
# (every check and test). Both install what they need first.

CARGO ?= cargo
TARGET := $(or $(CARGO_TARGET_DIR),target)
DEMO := $(TARGET)/debug/periscope-demo-server
PERISCOPE := $(TARGET)/debug/periscope
# Test-only switches (environment variables the tests set) exist only in binaries built with
# these features: the test build has them, `make run` and releases do not (docs/testing.md).
TEST_SEAMS := --features periscope-cli/test-seams,periscope-app/test-seams

.PHONY: run test bootstrap ui lint unit fuzz-smoke bench demo-cli package

bootstrap:
	@scripts/bootstrap.sh

# The UI is embedded in the app binary, so it is built first.
ui: bootstrap
	cd ui && npm run build

run: ui
	$(CARGO) build -p periscope-app -p periscope-demo-server
	$(TARGET)/debug/periscope-app

# Periscope's main job in a terminal: list the demo server's tools and call a few.
demo-cli: bootstrap
	$(CARGO) build -p periscope-cli -p periscope-demo-server
	$(PERISCOPE) tools list -- $(DEMO)
	$(PERISCOPE) tools call add -a a=2 -a b=40 -- $(DEMO)
	$(PERISCOPE) tools call slow_task -a steps=3 -a step_ms=200 -- $(DEMO)

lint: ui
	$(CARGO) fmt --all -- --check
	$(CARGO) fmt --manifest-path fuzz/Cargo.toml -- --check
	scripts/check-bindings.sh
	scripts/check-cycles.sh
	scripts/check-headless.sh
	scripts/check-deps.sh
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy -p periscope-cli -p periscope-app --all-targets $(TEST_SEAMS) -- -D warnings
	cd ui && npm run typecheck && npm run lint

# The end-to-end tests drive binaries of other packages (the CLI, the demo server, the app),
# which `cargo test` does not build; both with the test seams, so that `cargo test` (which
# builds the app's binary for its own tests) does not rebuild it without them.
unit: ui
	$(CARGO) build --workspace --bins $(TEST_SEAMS)
	$(CARGO) test --workspace --no-fail-fast $(TEST_SEAMS)
	cd ui && npm test

# A few seconds of each fuzz target from its seeds and past crashes (docs/fuzzing.md);
# `scripts/fuzz.sh TARGET SECONDS` runs one for longer.
fuzz-smoke: bootstrap
	scripts/fuzz.sh smoke

test: bootstrap lint unit fuzz-smoke

# The release .deb (the app, its desktop entry and icons, the `periscope` CLI and the demo
# server), in dist/ (docs/packaging.md).
package: ui
	scripts/package.sh

bench: bootstrap
	benches/run.sh
