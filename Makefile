# The two commands: `make run` (Periscope on its built-in demo server) and `make test` (every
# check and test). Both install what they need first.

CARGO ?= cargo
TARGET := $(or $(CARGO_TARGET_DIR),target)
DEMO := $(TARGET)/debug/periscope-demo-server
PERISCOPE := $(TARGET)/debug/periscope

.PHONY: run test bootstrap lint unit bench

bootstrap:
	@scripts/bootstrap.sh

# Until the desktop app lands, Periscope's main job runs in the terminal: connect to the demo
# server, list its tools, and call a few of them.
run: bootstrap
	$(CARGO) build -p periscope-cli -p periscope-demo-server
	$(PERISCOPE) tools list -- $(DEMO)
	$(PERISCOPE) tools call add -a a=2 -a b=40 -- $(DEMO)
	$(PERISCOPE) tools call slow_task -a steps=3 -a step_ms=200 -- $(DEMO)
	$(PERISCOPE) tools call mixed_content -- $(DEMO)

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

# The end-to-end tests drive binaries of other packages, which `cargo test` does not build.
unit:
	$(CARGO) build --workspace --bins
	$(CARGO) test --workspace --no-fail-fast

test: bootstrap lint unit

bench: bootstrap
	benches/run.sh
