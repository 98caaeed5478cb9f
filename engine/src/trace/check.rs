//! Consistency rules shared by every trace reader and writer: a record's entity, state, port and
//! parameter numbers must index the header, its kind must be kept at the trace's level, and a
//! message cannot arrive before it leaves. Also the table of distinct entity types that the text
//! and compact forms write once instead of once per entity.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::record::{EntityInfo, Record, TraceHeader, TraceLevel, TraceLevelError};
use super::send_record::SendRecord;

/// One distinct entity type of a header: name plus state, parameter and port names.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct TypeRow {
    pub name: String,
    pub states: Vec<String>,
    pub params: Vec<String>,
    pub ports: Vec<String>,
}

impl TypeRow {
    /// Its state, parameter and port names as lists every entity of the type shares.
    pub(crate) fn shared_lists(&self) -> [Arc<[String]>; 3] {
        [self.states.as_slice().into(), self.params.as_slice().into(), self.ports.as_slice().into()]
    }

    fn of(e: &EntityInfo) -> Self {
        TypeRow {
            name: e.type_name.clone(),
            states: e.states.to_vec(),
            params: e.params.to_vec(),
            ports: e.ports.to_vec(),
        }
    }
}

/// The distinct types of `header` in order of first appearance, and each entity's type number.
/// Two entities share a row only if name, states, parameters and ports are all equal.
pub(crate) fn type_table(header: &TraceHeader) -> (Vec<TypeRow>, Vec<u32>) {
    let mut rows: Vec<TypeRow> = Vec::new();
    let mut seen: BTreeMap<TypeRow, u32> = BTreeMap::new();
    let mut of_entity = Vec::with_capacity(header.entities.len());
    for e in &header.entities {
        let row = TypeRow::of(e);
        let next = rows.len() as u32;
        let index = *seen.entry(row.clone()).or_insert_with(|| {
            rows.push(row);
            next
        });
        of_entity.push(index);
    }
    (rows, of_entity)
}

/// Why a record or a header breaks the consistency rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ConsistencyError {
    /// An entity number beyond the header's entities.
    #[error("entity {entity} does not exist (the trace has {count} entities)")]
    NoEntity { entity: u32, count: usize },
    /// A state, port or parameter number beyond its entity's list.
    #[error("{what} {index} does not exist for entity {entity} `{path}` (its type {type_name} has {count})")]
    NoMember { what: String, index: u64, entity: u32, path: String, type_name: String, count: usize },
    /// A record more detailed than the trace's level keeps.
    #[error("a {record} record (level {record_level}) cannot appear in a level-{trace_level} trace")]
    BelowLevel { record: String, record_level: u8, trace_level: u8 },
    /// A message leaving before it was sent.
    #[error("departure {depart_ps} is before the send at {time_ps}")]
    DepartsBeforeSend { depart_ps: u64, time_ps: u64 },
    /// A message arriving before it left.
    #[error("arrival {arrive_ps} is before departure {depart_ps}")]
    ArrivesBeforeDeparture { arrive_ps: u64, depart_ps: u64 },
    /// A link end that breaks a rule.
    #[error("link {link}: {source}")]
    Link { link: usize, source: Box<ConsistencyError> },
    /// An entity in a group the header does not have.
    #[error("entity {entity} is in group {group}, which does not exist")]
    NoGroup { entity: usize, group: u32 },
    /// A group whose parent does not come before it.
    #[error("group {group} has parent {parent}, which does not come before it")]
    ParentNotBefore { group: usize, parent: u32 },
    /// A level outside 1–5.
    #[error(transparent)]
    Level(#[from] TraceLevelError),
    /// A writer given a second header.
    #[error("trace header written twice")]
    HeaderTwice,
    /// A writer given a record before the header.
    #[error("trace record before the header")]
    RecordBeforeHeader,
    /// A writer finished before the header.
    #[error("trace finished before the header")]
    FinishBeforeHeader,
}

/// The entity `entity` of the header, or why not.
pub(crate) fn entity(header: &TraceHeader, entity: u32) -> Result<&EntityInfo, ConsistencyError> {
    header
        .entities
        .get(entity as usize)
        .ok_or(ConsistencyError::NoEntity { entity, count: header.entities.len() })
}

/// Check that `index` is below `count` for the list `what` (`state`, `port`, `parameter`).
pub(crate) fn member(
    info: &EntityInfo,
    entity: u32,
    what: &str,
    index: u64,
    count: usize,
) -> Result<(), ConsistencyError> {
    if index < count as u64 {
        Ok(())
    } else {
        Err(ConsistencyError::NoMember {
            what: what.to_string(),
            index,
            entity,
            path: info.path.clone(),
            type_name: info.type_name.clone(),
            count,
        })
    }
}

/// Check that a record of `kind_level` may appear in a trace run at `trace_level`.
pub(crate) fn level(trace_level: u8, record: &str, kind_level: TraceLevel) -> Result<(), ConsistencyError> {
    if kind_level.get() >= trace_level {
        Ok(())
    } else {
        Err(ConsistencyError::BelowLevel {
            record: record.to_string(),
            record_level: kind_level.get(),
            trace_level,
        })
    }
}

/// The name of a record's kind, for messages.
pub(crate) fn kind_name(record: &Record) -> &'static str {
    match record {
        Record::Comment { .. } => "comment",
        Record::Send { .. } => "message",
        Record::Param { .. } => "parameter",
        Record::Array { .. } => "array",
        Record::ArrayRead { .. } => "array read",
        Record::State { .. } => "state",
        Record::Summary { .. } => "summary",
    }
}

/// Check a whole record against the header.
pub(crate) fn record(header: &TraceHeader, record: &Record) -> Result<(), ConsistencyError> {
    level(header.level, kind_name(record), record.level())?;
    match record {
        Record::Comment { entity: e, .. } | Record::Summary { entity: e, .. } => {
            entity(header, *e)?;
        }
        Record::State { entity: e, state, .. } => {
            let info = entity(header, *e)?;
            member(info, *e, "state", u64::from(*state), info.states.len())?;
        }
        Record::Param { entity: e, param, .. }
        | Record::Array { entity: e, param, .. }
        | Record::ArrayRead { entity: e, param, .. } => {
            let info = entity(header, *e)?;
            member(info, *e, "parameter", u64::from(*param), info.params.len())?;
        }
        Record::Send { .. } => {
            if let Some(s) = record.as_send() {
                send_fields(header, &s)?;
            }
        }
    }
    Ok(())
}

/// Check a send's entities, ports and times against `header` (its level is checked by the caller).
fn send_fields(header: &TraceHeader, send: &SendRecord<'_>) -> Result<(), ConsistencyError> {
    let &SendRecord { time, from, from_port, to, to_port, depart, arrive, .. } = send;
    let info = entity(header, from)?;
    member(info, from, "port", u64::from(from_port), info.ports.len())?;
    let info = entity(header, to)?;
    member(info, to, "port", u64::from(to_port), info.ports.len())?;
    if depart < time {
        return Err(ConsistencyError::DepartsBeforeSend { depart_ps: depart.as_ps(), time_ps: time.as_ps() });
    }
    if arrive < depart {
        return Err(ConsistencyError::ArrivesBeforeDeparture {
            arrive_ps: arrive.as_ps(),
            depart_ps: depart.as_ps(),
        });
    }
    Ok(())
}

/// Check the header's own references: level 1–5, link ends, entity groups, group parents (a
/// parent must come before its child, so the hierarchy has no cycles).
pub(crate) fn header(header: &TraceHeader) -> Result<(), ConsistencyError> {
    TraceLevel::new(header.level)?;
    for (i, link) in header.links.iter().enumerate() {
        for (e, p) in [link.a, link.b] {
            let at_link = |source| ConsistencyError::Link { link: i, source: Box::new(source) };
            let info = entity(header, e).map_err(at_link)?;
            member(info, e, "port", u64::from(p), info.ports.len()).map_err(at_link)?;
        }
    }
    for (i, e) in header.entities.iter().enumerate() {
        if let Some(g) = e.group
            && g as usize >= header.groups.len()
        {
            return Err(ConsistencyError::NoGroup { entity: i, group: g });
        }
    }
    for (i, g) in header.groups.iter().enumerate() {
        if let Some(p) = g.parent
            && p as usize >= i
        {
            return Err(ConsistencyError::ParentNotBefore { group: i, parent: p });
        }
    }
    Ok(())
}

/// A writer's checks before writing `header`: no header written yet (`written`), and the header
/// consistent.
pub(crate) fn writable_header(written: Option<&TraceHeader>, new: &TraceHeader) -> std::io::Result<()> {
    if written.is_some() {
        return Err(invalid(ConsistencyError::HeaderTwice));
    }
    header(new).map_err(invalid)
}

/// A writer's checks before writing `record`: a header written, and the record consistent with it.
pub(crate) fn writable_record(written: Option<&TraceHeader>, new: &Record) -> std::io::Result<()> {
    let Some(written) = written else {
        return Err(invalid(ConsistencyError::RecordBeforeHeader));
    };
    record(written, new).map_err(invalid)
}

/// What a writer keeps of its header to check each send quickly: every entity's port count, four
/// bytes an entity where the header's entity list holds about a hundred, so that checking the
/// sends of a large model does not reach into memory the cache cannot hold.
#[derive(Debug, Default)]
pub(crate) struct SendCheck {
    ports: Vec<u32>,
}

impl SendCheck {
    pub(crate) fn new(header: &TraceHeader) -> Self {
        SendCheck { ports: header.entities.iter().map(|e| e.ports.len() as u32).collect() }
    }

    /// Whether `send`'s entities, ports and times are consistent.
    fn passes(&self, send: &SendRecord<'_>) -> bool {
        let has =
            |entity: u32, port: u16| self.ports.get(entity as usize).is_some_and(|&n| u32::from(port) < n);
        has(send.from, send.from_port)
            && has(send.to, send.to_port)
            && send.time <= send.depart
            && send.depart <= send.arrive
    }
}

/// A writer's checks before writing `send`: as [`writable_record`] of the send's record, with
/// `quick` made from the header written.
pub(crate) fn writable_send(
    written: Option<&TraceHeader>,
    quick: &SendCheck,
    send: &SendRecord<'_>,
) -> std::io::Result<()> {
    let Some(written) = written else {
        return Err(invalid(ConsistencyError::RecordBeforeHeader));
    };
    level(written.level, "message", TraceLevel::MESSAGES).map_err(invalid)?;
    if quick.passes(send) {
        return Ok(());
    }
    // The full check names what is wrong.
    send_fields(written, send).map_err(invalid)
}

/// A writer's check before finishing: a header written.
pub(crate) fn writable_end(written: Option<&TraceHeader>) -> std::io::Result<()> {
    if written.is_none() {
        return Err(invalid(ConsistencyError::FinishBeforeHeader));
    }
    Ok(())
}

/// A record check failure as an I/O error, for writers (which implement [`super::TraceSink`]).
fn invalid(error: ConsistencyError) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, error)
}
