//! The statistics of a finished run, serialisable to JSON. Maps are sorted so the file is stable.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::pairs::PairLatency;
use crate::kernel::DeadlockReport;
use crate::vecmap::VecMap;

/// Queue length figures for one port.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QueueStats {
    /// Largest length seen.
    pub max: u64,
    /// Time-weighted mean length over the run.
    pub mean: f64,
}

/// Traffic through one port.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PortStats {
    /// Messages sent.
    pub sent_msgs: u64,
    /// Bytes sent.
    pub sent_bytes: u64,
    /// Messages received.
    pub recv_msgs: u64,
    /// Bytes received.
    pub recv_bytes: u64,
    /// Queue behind the port, if the behaviour reported one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub queue: Option<QueueStats>,
}

/// One entity's figures. The type, state and port names are shared with the model (and so by
/// every entity of a type) instead of copied into each entity's figures: a processor's sixteen
/// state names alone took about 500 bytes per processor as strings of their own.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EntityStats {
    /// Type name.
    pub type_name: Arc<str>,
    /// Time spent in each state. (The per-entity tables here are sorted vectors, not
    /// `BTreeMap`s: a tree's first node is 400–900 bytes, a million entities' report a gigabyte.)
    pub state_time_ps: VecMap<Arc<str>, u64>,
    /// Fraction of the makespan spent in states other than IDLE and DONE.
    pub busy_fraction: f64,
    /// Ports that carried traffic or reported a queue.
    pub ports: VecMap<Arc<str>, PortStats>,
    /// Behaviour-specific figures (summary).
    #[serde(skip_serializing_if = "VecMap::is_empty", default)]
    pub extra: VecMap<String, f64>,
}

/// One link direction's figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LinkStats {
    /// Time spent serialising.
    pub busy_ps: u64,
    /// `busy_ps` over the makespan.
    pub utilisation: f64,
    /// Messages carried.
    pub msgs: u64,
    /// Bytes carried.
    pub bytes: u64,
}

/// End-to-end message latencies (as recorded by behaviours), in power-of-two buckets.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LatencyHistogram {
    /// Samples.
    pub count: u64,
    /// Smallest.
    pub min_ps: u64,
    /// Largest.
    pub max_ps: u64,
    /// Mean.
    pub mean_ps: f64,
    /// (lower bound in ps, count) for each non-empty bucket `[2^k, 2^(k+1))`.
    pub buckets: Vec<(u64, u64)>,
}

/// Everything measured in one run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunStats {
    /// Project name.
    pub project: String,
    /// Seed.
    pub seed: u64,
    /// `completed`, `deadlock`, `reached-until` or `cancelled`.
    pub outcome: String,
    /// Simulated time at the end of the run.
    pub makespan_ps: u64,
    /// Events handled.
    pub events: u64,
    /// Wall-clock seconds (varies between runs; not part of any fingerprint).
    pub wall_time_s: f64,
    /// Events per wall-clock second.
    pub events_per_s: f64,
    /// Messages sent on unconnected ports (a model error if non-zero).
    pub dropped_messages: u64,
    /// Per entity, by path. A sorted vector rather than a tree: a million entities' figures took
    /// about 500 bytes each in a `BTreeMap` built in path order (its nodes half full), against
    /// the 128 bytes of an entry here; the JSON is the same.
    pub entities: VecMap<String, EntityStats>,
    /// Per link direction, `from.port -> to.port` (sorted like `entities`).
    pub links: VecMap<String, LinkStats>,
    /// Message latency histogram.
    pub latency: LatencyHistogram,
    /// Per pair of ranks (sender, receiver), in rank order: latencies with percentiles.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub pair_latency: Vec<PairLatency>,
    /// Who was stuck, if the run deadlocked.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub deadlock: Option<DeadlockReport>,
}

impl RunStats {
    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}
