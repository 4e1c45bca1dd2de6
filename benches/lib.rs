//! Benchmarks live in `benches/`; run them with `benches/run.sh`.
