//! How a load run drives a server: its sessions, requests in flight, pacing, end, and ramp.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Requests a run sends at most unless told otherwise: a run with no count and a long duration
/// must not send without end.
pub const DEFAULT_MAX_REQUESTS: u64 = 100_000;
/// How long a step of a ramp runs unless told otherwise.
pub const DEFAULT_STEP_MS: u64 = 5_000;
/// The steps a ramp takes at most unless told otherwise.
pub const DEFAULT_RAMP_STEPS: u32 = 10;

/// What a load run does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LoadPlan {
    /// Sessions opened: for stdio each its own server process, for HTTP its own connection.
    pub sessions: u32,
    /// Requests each session keeps in flight (the closed loop's workers; the open loop's cap).
    pub in_flight: u32,
    /// Open loop: requests a second across all sessions, sent on schedule whether or not the
    /// server keeps up (latency counted from when each was due). None: closed loop, each
    /// worker sends its next request when the last is answered.
    pub rate: Option<f64>,
    /// Requests to send; the run ends when they are answered.
    pub count: Option<u64>,
    /// How long to send for, in milliseconds.
    pub duration_ms: Option<u64>,
    /// Requests sent at most, whatever else is asked (count, duration, ramp).
    pub max_requests: u64,
    /// Step the rate or the concurrency up until a threshold is crossed.
    pub ramp: Option<Ramp>,
    /// A request waits this long for its answer, in milliseconds.
    pub timeout_ms: u64,
}

impl Default for LoadPlan {
    fn default() -> Self {
        LoadPlan {
            sessions: 1,
            in_flight: 1,
            rate: None,
            count: None,
            duration_ms: None,
            max_requests: DEFAULT_MAX_REQUESTS,
            ramp: None,
            timeout_ms: 30_000,
        }
    }
}

/// What a ramp steps up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum RampAxis {
    /// Requests in flight per session (closed loop).
    Concurrency,
    /// Requests a second across all sessions (open loop).
    Rate,
}

/// A ramp: `steps` steps of `step_ms` each, the level going `start`, `start + step`, …,
/// until a step crosses a threshold (its breaking point).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Ramp {
    pub axis: RampAxis,
    pub start: f64,
    pub step: f64,
    pub steps: u32,
    pub step_ms: u64,
    /// A step whose failed share passes this (percent) breaks.
    pub max_error_rate_pct: f64,
    /// A step whose p99 passes this (milliseconds) breaks.
    pub max_p99_ms: Option<f64>,
}

impl Ramp {
    /// The level of step `index` (from 0).
    pub fn level(&self, index: u32) -> f64 {
        self.start + self.step * f64::from(index)
    }
}

/// Why a plan cannot run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanError {
    #[error("at least one session is needed")]
    NoSessions,
    #[error("at least one request in flight is needed")]
    NoneInFlight,
    #[error("the rate must be a positive number of requests a second")]
    BadRate,
    #[error("give a count, a duration or a ramp: a run needs an end")]
    NoEnd,
    #[error(
        "a ramp needs a positive start, a step of at least 0, at least one step and a step time"
    )]
    BadRamp,
    #[error("a concurrency ramp runs closed-loop: give the rate ramp's start, not --rate")]
    RampWithRate,
    #[error("the workload is empty: nothing to send")]
    EmptyWorkload,
}

impl LoadPlan {
    /// Whether the plan can run.
    pub fn validate(&self) -> Result<(), PlanError> {
        if self.sessions == 0 {
            return Err(PlanError::NoSessions);
        }
        if self.in_flight == 0 {
            return Err(PlanError::NoneInFlight);
        }
        if self.rate.is_some_and(|r| !(r.is_finite() && r > 0.0)) {
            return Err(PlanError::BadRate);
        }
        if let Some(ramp) = &self.ramp {
            let sane = ramp.start.is_finite()
                && ramp.step.is_finite()
                && ramp.start > 0.0
                && ramp.step >= 0.0
                && ramp.steps > 0
                && ramp.step_ms > 0;
            if !sane {
                return Err(PlanError::BadRamp);
            }
            if ramp.axis == RampAxis::Concurrency && self.rate.is_some() {
                return Err(PlanError::RampWithRate);
            }
        } else if self.count.is_none() && self.duration_ms.is_none() {
            return Err(PlanError::NoEnd);
        }
        Ok(())
    }

    /// The request time limit.
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }

    /// Requests the plan may send: its count, else its cap.
    pub fn request_budget(&self) -> u64 {
        self.count
            .map_or(self.max_requests, |c| c.min(self.max_requests))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_needs_an_end_and_sane_numbers() {
        let plan = LoadPlan::default();
        assert_eq!(plan.validate(), Err(PlanError::NoEnd));
        let plan = LoadPlan {
            count: Some(10),
            ..LoadPlan::default()
        };
        assert_eq!(plan.validate(), Ok(()));
        assert_eq!(
            LoadPlan {
                rate: Some(0.0),
                ..plan.clone()
            }
            .validate(),
            Err(PlanError::BadRate)
        );
        assert_eq!(
            LoadPlan {
                sessions: 0,
                ..plan.clone()
            }
            .validate(),
            Err(PlanError::NoSessions)
        );
        let ramp = Ramp {
            axis: RampAxis::Concurrency,
            start: 1.0,
            step: 2.0,
            steps: 4,
            step_ms: 1000,
            max_error_rate_pct: 1.0,
            max_p99_ms: None,
        };
        assert_eq!(ramp.level(3), 7.0);
        let ramped = LoadPlan {
            count: None,
            ramp: Some(ramp.clone()),
            ..LoadPlan::default()
        };
        assert_eq!(ramped.validate(), Ok(()));
        assert_eq!(
            LoadPlan {
                rate: Some(5.0),
                ..ramped
            }
            .validate(),
            Err(PlanError::RampWithRate)
        );
    }

    #[test]
    fn the_cap_bounds_the_count() {
        let plan = LoadPlan {
            count: Some(1_000_000),
            ..LoadPlan::default()
        };
        assert_eq!(plan.request_budget(), DEFAULT_MAX_REQUESTS);
        let plan = LoadPlan {
            count: Some(50),
            ..LoadPlan::default()
        };
        assert_eq!(plan.request_budget(), 50);
    }
}
