//! The discrete-event kernel: integer picosecond time, `(time, seq)` event order, event-driven
//! behaviours talking only to ports, link channels that serialise, per-entity random streams.

mod agenda;
mod behaviour;
mod context;
mod outcome;
pub mod queue;
pub mod rng;
mod sim;
mod store;

pub use behaviour::{Behaviour, Message};
pub use context::{Ctx, SendInfo};
pub use outcome::{
    BlockedEntity, BuildError, DeadlockReport, Progress, RunControl, RunOutcome, RunReport, SimConfig,
};
pub use rng::{EntityRng, entity_rng, path_hash};
pub use sim::{BoxedBehaviours, Simulation};
pub use store::{BehaviourStore, Slot, Slots, Visit};

#[cfg(test)]
mod tests;
