//! Why a project has no expected makespan: the closed forms cover a few collectives on the
//! topologies where their exchanges never contend, on uniform designs with eager messages.

use std::sync::Arc;

use hase_entities::netmodel::datasheet::DataSheetError;

use crate::runner::RunError;

/// Why [`super::expected_run`] has no closed form for a project.
#[derive(Debug, Clone, thiserror::Error)]
pub enum NoClosedForm {
    /// The project does not elaborate (its run would fail too).
    #[error("the design does not elaborate: {0}")]
    Invalid(#[source] Arc<RunError>),
    /// A run read from a trace file: no design to read the model's parameters from.
    #[error("a trace file's run has no design to model")]
    TraceFile,
    /// The network was drawn by hand: no topology family gives its routes.
    #[error("the network is not made by a template, so no formula knows its routes")]
    NotATemplate,
    /// The recipe names a topology the templates do not know, or its counts no longer match the
    /// network (entities or links added or removed by hand).
    #[error("the network no longer matches its template ({template})")]
    EditedNetwork {
        /// The recipe's template and dimensions.
        template: String,
    },
    /// A behavioural network model stands for part of the network (a hop model, or a data sheet
    /// beside routers or other models).
    #[error("part of the network runs as a behavioural model")]
    BehaviouralNetwork,
    /// The network runs on a data sheet that cannot be read or lacks the call's function.
    #[error("the data sheet: {0}")]
    Sheet(#[source] Arc<DataSheetError>),
    /// The data-sheet network names a band the sheets do not have (elaboration checks the choice,
    /// so only a model built without that check gets here).
    #[error("the data-sheet network's band `{0}` is not min, avg, max or measured")]
    UnknownBand(String),
    /// Links, switches or processors differ in a parameter the formula reads.
    #[error("not every {what} has the same {param}")]
    NonUniform {
        /// `link`, `router` or `processor`.
        what: &'static str,
        /// The parameter that differs.
        param: &'static str,
    },
    /// A processor setting outside the model (a message header, a combine cost, the eager start
    /// at the receiver's post).
    #[error("the processors' {param} is outside the model ({value})")]
    ProcessorSetting {
        /// The parameter.
        param: &'static str,
        /// Its value, as text.
        value: String,
    },
    /// Ranks run on a chosen subset or order of processors.
    #[error("ranks are placed on chosen processors")]
    Placement,
    /// The workload is not a collective loop.
    #[error("no closed form for the workload {0}")]
    Workload(String),
    /// The collective and algorithm contend (or are not modelled) on this topology.
    #[error("no closed form for {algorithm} {operation} on {topology} networks")]
    Collective {
        /// The collective (`allreduce`).
        operation: String,
        /// Its algorithm (`ring`).
        algorithm: String,
        /// The topology family (`fat_tree`).
        topology: String,
    },
    /// A message goes by rendezvous, whose handshake the formula leaves out.
    #[error("{bytes}-byte messages exceed the eager limit of {limit} bytes (rendezvous)")]
    Rendezvous {
        /// The largest message of the collective.
        bytes: u64,
        /// The processors' eager limit.
        limit: u64,
    },
    /// A message of several packets whose last packet is short.
    #[error("{bytes}-byte messages end in a short packet ({packet}-byte packets)")]
    ShortLastPacket {
        /// The message.
        bytes: u64,
        /// The largest packet.
        packet: u64,
    },
    /// The vector does not split into equal blocks.
    #[error("{bytes} bytes do not split into {parts} equal blocks")]
    UnevenBlocks {
        /// The vector.
        bytes: u64,
        /// The blocks.
        parts: u64,
    },
    /// Calls overlap from one iteration to the next (a chain's early ranks start the next call
    /// first), so the calls do not add up.
    #[error("{algorithm} {operation} calls overlap across iterations; only one call has a closed form")]
    Overlapping {
        /// The collective.
        operation: String,
        /// Its algorithm.
        algorithm: String,
    },
}
