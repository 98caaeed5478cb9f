//! Consistency rules shared by every trace reader and writer: a record's entity, state, port and
//! parameter numbers must index the header, its kind must be kept at the trace's level, and a
//! message cannot arrive before it leaves. Also the table of distinct entity types that the text
//! and compact forms write once instead of once per entity.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::record::{EntityInfo, Record, TraceHeader, TraceLevel};

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

/// The entity `entity` of the header, or why not.
pub(crate) fn entity(header: &TraceHeader, entity: u32) -> Result<&EntityInfo, String> {
    header.entities.get(entity as usize).ok_or_else(|| {
        format!("entity {entity} does not exist (the trace has {} entities)", header.entities.len())
    })
}

/// Check that `index` is below `count` for the list `what` (`state`, `port`, `parameter`).
pub(crate) fn member(
    info: &EntityInfo,
    entity: u32,
    what: &str,
    index: u64,
    count: usize,
) -> Result<(), String> {
    if index < count as u64 {
        Ok(())
    } else {
        Err(format!(
            "{what} {index} does not exist for entity {entity} `{}` (its type {} has {count})",
            info.path, info.type_name
        ))
    }
}

/// Check that a record of `kind_level` may appear in a trace run at `trace_level`.
pub(crate) fn level(trace_level: u8, record: &str, kind_level: TraceLevel) -> Result<(), String> {
    if kind_level.get() >= trace_level {
        Ok(())
    } else {
        Err(format!(
            "a {record} record (level {}) cannot appear in a level-{trace_level} trace",
            kind_level.get()
        ))
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
pub(crate) fn record(header: &TraceHeader, record: &Record) -> Result<(), String> {
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
        Record::Send { time, from, from_port, to, to_port, depart, arrive, .. } => {
            let info = entity(header, *from)?;
            member(info, *from, "port", u64::from(*from_port), info.ports.len())?;
            let info = entity(header, *to)?;
            member(info, *to, "port", u64::from(*to_port), info.ports.len())?;
            if depart < time {
                return Err(format!("departure {} is before the send at {}", depart.as_ps(), time.as_ps()));
            }
            if arrive < depart {
                return Err(format!("arrival {} is before departure {}", arrive.as_ps(), depart.as_ps()));
            }
        }
    }
    Ok(())
}

/// Check the header's own references: level 1–5, link ends, entity groups, group parents (a
/// parent must come before its child, so the hierarchy has no cycles).
pub(crate) fn header(header: &TraceHeader) -> Result<(), String> {
    TraceLevel::new(header.level)?;
    for (i, link) in header.links.iter().enumerate() {
        for (e, p) in [link.a, link.b] {
            let info = entity(header, e).map_err(|m| format!("link {i}: {m}"))?;
            member(info, e, "port", u64::from(p), info.ports.len()).map_err(|m| format!("link {i}: {m}"))?;
        }
    }
    for (i, e) in header.entities.iter().enumerate() {
        if let Some(g) = e.group
            && g as usize >= header.groups.len()
        {
            return Err(format!("entity {i} is in group {g}, which does not exist"));
        }
    }
    for (i, g) in header.groups.iter().enumerate() {
        if let Some(p) = g.parent
            && p as usize >= i
        {
            return Err(format!("group {i} has parent {p}, which does not come before it"));
        }
    }
    Ok(())
}

/// A record check failure as an I/O error, for writers (which implement [`super::TraceSink`]).
pub(crate) fn invalid(message: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, message)
}
