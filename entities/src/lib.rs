//! hase-entities: the built-in behaviours — processor with its MPI runtime, router/switch, the
//! behavioural network models (hop-count and data-sheet) — the messages they exchange, the collective
//! algorithms, and the workloads that drive processors.

mod buffer_pool;
pub mod catalogue;
pub mod factory;
pub mod flow;
pub mod message;
pub mod mpi;
pub mod netmodel;
mod outgoing;
pub mod packet_queue;
pub mod placement;
pub mod processor;
pub mod router;
pub mod sharing_penalty;
pub mod store;
pub mod weighted_queue;
pub use hase_engine::vecmap;
pub mod workload;
