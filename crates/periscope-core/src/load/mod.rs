//! Load and latency ([load.md](../../../../docs/load.md)): a workload (`workload.rs`) driven
//! through many sessions by a plan (`plan.rs`: closed loop or a fixed rate, a count or a
//! duration, a ramp to the breaking point), run by `run.rs`, measured in HDR histograms
//! (`stats.rs`), failures by kind (`failure.rs`), the server's and Periscope's cost from
//! `/proc` (`resources.rs`), reported (`report.rs`), gated and compared with a baseline
//! (`gates.rs`), written for CI (`format.rs`); several instances of one server compared
//! (`consistency.rs`).

pub mod consistency;
pub mod failure;
pub mod format;
pub mod gates;
pub mod locust;
pub mod plan;
pub mod report;
pub mod resources;
pub mod run;
pub mod stats;
pub mod workload;

pub use plan::{LoadPlan, Ramp, RampAxis};
pub use report::{LoadProgress, LoadReport, StopReason};
pub use run::{LoadSummary, Prepared, prepare};
pub use workload::LoadRequest;
