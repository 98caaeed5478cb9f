//! Trace records, trace levels and the header describing what the records refer to. The sink
//! trait the kernel writes them through is in `sink.rs`; the file formats live beside both.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::time::SimTime;

/// A trace level outside 1–5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("trace level {0} is not between 1 and 5")]
pub struct TraceLevelError(pub u8);

/// HASE's trace levels. A run at level L keeps records of level L and above:
/// 1 comments and source lines, 2 message sends, 3 memory/parameter updates and array reads, 4 state
/// changes,
/// 5 summary only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TraceLevel(u8);

impl TraceLevel {
    /// Comments and source lines (keeps everything).
    pub const COMMENTS: TraceLevel = TraceLevel(1);
    /// Message sends.
    pub const MESSAGES: TraceLevel = TraceLevel(2);
    /// Memory, array and parameter updates.
    pub const UPDATES: TraceLevel = TraceLevel(3);
    /// State changes.
    pub const STATES: TraceLevel = TraceLevel(4);
    /// Summary only.
    pub const SUMMARY: TraceLevel = TraceLevel(5);

    /// A level from 1–5; anything else is an error.
    pub fn new(level: u8) -> Result<Self, TraceLevelError> {
        if (1..=5).contains(&level) { Ok(TraceLevel(level)) } else { Err(TraceLevelError(level)) }
    }
    /// The number.
    pub fn get(self) -> u8 {
        self.0
    }
    /// True if a run at this level keeps records of `record_level`.
    pub fn keeps(self, record_level: TraceLevel) -> bool {
        record_level.0 >= self.0
    }
}

impl Default for TraceLevel {
    fn default() -> Self {
        TraceLevel::MESSAGES
    }
}

/// A parameter or array element value as traced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TraceValue {
    /// Integer.
    Int(i64),
    /// Real.
    Float(f64),
    /// Text.
    Text(String),
}

impl std::fmt::Display for TraceValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TraceValue::Int(v) => write!(f, "{v}"),
            TraceValue::Float(v) => write!(f, "{v}"),
            TraceValue::Text(v) => write!(f, "{v}"),
        }
    }
}

/// One timestamped trace record. Entity, port, state and parameter numbers index the header.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Record {
    /// Level 1: a comment or source-line marker from an entity.
    Comment {
        /// When.
        time: SimTime,
        /// Who.
        entity: u32,
        /// Text (one line).
        text: String,
    },
    /// Level 2: a message sent at `time` from `from.from_port` leaves at `depart` (after waiting for
    /// the link to be free) and reaches `to.to_port` at `arrive`. Records are in `time` order;
    /// `depart` may be later.
    Send {
        /// When the send was issued (the record's place in time order).
        time: SimTime,
        /// Departure: first bit on the wire.
        depart: SimTime,
        /// Sending entity.
        from: u32,
        /// Sending port.
        from_port: u16,
        /// Receiving entity.
        to: u32,
        /// Receiving port.
        to_port: u16,
        /// Delivery time at the receiver.
        arrive: SimTime,
        /// Message size.
        bytes: u64,
        /// Short description (`data r0→r5 2/8`), shared: the trace readers give every record with
        /// the same label one allocation (a clone is a reference count, not a copy).
        label: Arc<str>,
    },
    /// Level 3: a displayed parameter changed.
    Param {
        /// When.
        time: SimTime,
        /// Who.
        entity: u32,
        /// Parameter index in the entity's `params` header list.
        param: u16,
        /// New value.
        value: TraceValue,
    },
    /// Level 3: one element of an array parameter changed (HASE's memory updates).
    Array {
        /// When.
        time: SimTime,
        /// Who.
        entity: u32,
        /// Parameter index.
        param: u16,
        /// Element index.
        index: u32,
        /// New value.
        value: TraceValue,
    },
    /// Level 3: one element of an array parameter was read (the animator highlights it beside
    /// the updates). Traced only where a behaviour really inspects the element to decide something.
    ArrayRead {
        /// When.
        time: SimTime,
        /// Who.
        entity: u32,
        /// Parameter index.
        param: u16,
        /// Element index.
        index: u32,
    },
    /// Level 4: an entity entered a state.
    State {
        /// When.
        time: SimTime,
        /// Who.
        entity: u32,
        /// State index in the entity's `states` header list.
        state: u16,
    },
    /// Level 5: end-of-run summary figure for an entity.
    Summary {
        /// End of run.
        time: SimTime,
        /// Who.
        entity: u32,
        /// Figure name (`time_in.COMPUTE`, `messages_sent`).
        key: String,
        /// Value.
        value: TraceValue,
    },
}

impl Record {
    /// The record's time.
    pub fn time(&self) -> SimTime {
        match self {
            Record::Comment { time, .. }
            | Record::Send { time, .. }
            | Record::Param { time, .. }
            | Record::Array { time, .. }
            | Record::ArrayRead { time, .. }
            | Record::State { time, .. }
            | Record::Summary { time, .. } => *time,
        }
    }
    /// The record's level.
    pub fn level(&self) -> TraceLevel {
        match self {
            Record::Comment { .. } => TraceLevel::COMMENTS,
            Record::Send { .. } => TraceLevel::MESSAGES,
            Record::Param { .. } | Record::Array { .. } | Record::ArrayRead { .. } => TraceLevel::UPDATES,
            Record::State { .. } => TraceLevel::STATES,
            Record::Summary { .. } => TraceLevel::SUMMARY,
        }
    }
    /// The entity the record is about (the sender for sends).
    pub fn entity(&self) -> u32 {
        match self {
            Record::Comment { entity, .. }
            | Record::Param { entity, .. }
            | Record::Array { entity, .. }
            | Record::ArrayRead { entity, .. }
            | Record::State { entity, .. }
            | Record::Summary { entity, .. } => *entity,
            Record::Send { from, .. } => *from,
        }
    }
}

/// What a trace's records refer to: one row ("bar") per entity with its type, states, parameters
/// and ports, the links, and the hierarchy of compound groups.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceHeader {
    /// Format version of the trace.
    pub version: u32,
    /// Project name.
    pub project: String,
    /// Seed of the run.
    pub seed: u64,
    /// Level of the run.
    pub level: u8,
    /// Entities, indexed by the records' entity numbers.
    pub entities: Vec<EntityInfo>,
    /// Links between entity ports.
    pub links: Vec<LinkInfo>,
    /// Compound instances (simulated in detail) that group entities, for folding.
    pub groups: Vec<GroupInfo>,
}

/// One entity of the trace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EntityInfo {
    /// Instance path (`fabric/level1/switch3`).
    pub path: String,
    /// Type name.
    pub type_name: String,
    /// State names (indexed by `Record::State::state`).
    pub states: Arc<[String]>,
    /// Traced parameter names (indexed by `Record::Param::param`).
    pub params: Arc<[String]>,
    /// Port names (indexed by `Record::Send` port numbers).
    pub ports: Arc<[String]>,
    /// Enclosing group, if any.
    pub group: Option<u32>,
}

/// One link of the trace (both directions).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkInfo {
    /// First end: entity and port.
    pub a: (u32, u16),
    /// Second end: entity and port.
    pub b: (u32, u16),
}

/// One compound group.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupInfo {
    /// Instance path of the compound.
    pub path: String,
    /// Its type.
    pub type_name: String,
    /// Enclosing group.
    pub parent: Option<u32>,
}
