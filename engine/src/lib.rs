//! hase-engine: the document model (types, instances, ports, links, hierarchy, layout), validation,
//! elaboration of the hierarchy into a flat simulation graph, the discrete-event kernel, traces and
//! statistics. It knows nothing about particular entities (see `hase-entities`) or about any GUI.
//!
//! Data flows one way: document → [`elaborate()`] → [`kernel::Simulation`] → trace + statistics.

pub mod analysis;
pub mod elaborate;
pub mod file_error;
pub mod kernel;
pub mod limits;
pub mod model;
pub mod stats;
pub mod time;
pub mod trace;
pub mod units;
pub mod validate;
pub mod vecmap;

pub use elaborate::{ElabError, Endpoint, EntityId, FlatModel, PortIndex, elaborate};
pub use file_error::{FileError, FilePlace};
pub use kernel::{Behaviour, Ctx, Message, RunControl, RunOutcome, SimConfig, Simulation};
pub use time::SimTime;
pub use trace::{TraceLevel, TraceSink};
pub use units::parse_time;
