//! Run statistics: the collector the kernel updates and the report it produces.

mod collector;
mod pairs;
mod report;

pub use collector::{LinkFigures, StatsCollector};
pub use pairs::PairLatency;
pub use report::{EntityStats, LatencyHistogram, LinkStats, PortStats, QueueStats, RunStats};
