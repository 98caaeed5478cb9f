//! The discrete-event kernel: integer picosecond time, `(time, seq)` event order, event-driven
//! behaviours talking only to ports, link channels that serialise, per-entity random streams.

mod agenda;
mod behaviour;
mod context;
mod core_state;
mod deadlock;
mod message;
mod outcome;
pub mod queue;
pub mod rng;
mod sim;
mod store;

pub use behaviour::Behaviour;
pub use context::Ctx;
pub use core_state::SendInfo;
pub use deadlock::{BlockedEntity, DeadlockReport};
pub use message::Message;
pub use outcome::{BuildError, Progress, RunControl, RunOutcome, RunReport, SimConfig};
pub use rng::{EntityRng, entity_rng, path_hash};
pub use sim::{BoxedBehaviours, Simulation};
pub use store::{BehaviourStore, Slot, Slots, Visit};

#[cfg(test)]
mod tests;
