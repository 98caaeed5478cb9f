//! The discrete-event kernel: integer picosecond time, `(time, seq)` event order, event-driven
//! behaviours talking only to ports, link channels that serialise, per-entity random streams.

mod agenda;
mod backlog;
mod behaviour;
mod context;
mod core_state;
mod deadlock;
mod merge;
mod message;
mod outcome;
mod parallel;
mod partition;
pub mod queue;
mod record_buffer;
pub mod rng;
mod sim;
mod store;
mod ties;
mod window;
mod window_out;

pub use behaviour::{Behaviour, DirectDeliveries};
pub use context::Ctx;
pub use core_state::SendInfo;
pub use deadlock::{BlockedEntity, DeadlockReport};
pub use message::Message;
pub use outcome::{BuildError, Progress, RunControl, RunOutcome, RunReport, SimConfig};
pub use partition::{OnePartition, Partitioning};
pub use rng::{EntityRng, entity_rng, path_hash};
pub use sim::{BoxedBehaviours, Simulation};
pub use store::{BehaviourStore, Slot, SlotPart, Slots, Visit};
pub use ties::TieOrder;

#[cfg(test)]
mod parallel_tests;
#[cfg(test)]
mod tests;
