//! Decoding the records of one block of the compact trace form, each checked against the header
//! as it is decoded (entity, state, port and parameter numbers, level) so that a record is built
//! once, from values still in registers. Labels go through a [`StringCache`] that outlives the
//! block: a label met again is the same shared string, checked as UTF-8 and allocated once.
//!
//! Errors are `(position in the block, message)`; a record that decodes but fails a check is
//! reported at its first byte with the message of [`super::check`], as the writers would give it.

use std::sync::Arc;

use super::binary::{
    KIND_ARRAY, KIND_ARRAY_READ, KIND_COMMENT, KIND_PARAM, KIND_SEND, KIND_STATE, KIND_SUMMARY,
};
use super::check;
use super::intern::StringCache;
use super::record::{EntityInfo, Record, TraceHeader, TraceLevel, TraceValue};
use super::varint::{Cursor, Decoded};
use crate::time::SimTime;

/// One entry of a block's string table: where its checked UTF-8 text lies in the block, and the
/// shared string once a reference needed one (most strings are never referenced again, so most
/// entries never pay for a reference count).
struct TableEntry {
    start: usize,
    len: usize,
    shared: Option<Arc<str>>,
}

/// A string read from a block: defined here (its bytes, not yet checked, and where they start), or
/// entry `id` of the table, referred to at `at`.
enum Found<'a> {
    New { start: usize, bytes: &'a [u8] },
    Old { at: usize, id: usize },
}

/// Decodes the records of one block.
#[derive(Default)]
pub(crate) struct BlockDecoder {
    /// The block's string table.
    strings: Vec<TableEntry>,
    labels: StringCache,
    prev_time: u64,
}

/// Entity `e` of the header, or the check's message at the record's first byte `at`.
#[inline]
fn entity(header: &TraceHeader, e: u32, at: usize) -> Decoded<&EntityInfo> {
    match header.entities.get(e as usize) {
        Some(info) => Ok(info),
        None => Err(refused(at, check::entity(header, e).err())),
    }
}

/// Check that `index` is below `count` in list `what` of entity `e`.
#[inline]
fn member(info: &EntityInfo, e: u32, what: &str, index: u16, count: usize, at: usize) -> Decoded<()> {
    if usize::from(index) < count {
        Ok(())
    } else {
        Err(refused(at, check::member(info, e, what, u64::from(index), count).err()))
    }
}

/// Check that an update record (`what`: `parameter`, `array`, `array read`) is kept at the trace's
/// level and names parameter `param` of an entity `e` that has it.
#[inline]
fn updates_param(header: &TraceHeader, what: &str, e: u32, param: u16, at: usize) -> Decoded<()> {
    kept(header, TraceLevel::UPDATES, what, at)?;
    let info = entity(header, e, at)?;
    member(info, e, "parameter", param, info.params.len(), at)
}

/// A failed check as a decoding error.
#[cold]
fn refused(at: usize, error: Option<check::ConsistencyError>) -> (usize, String) {
    (at, error.map(|e| e.to_string()).unwrap_or_default())
}

impl BlockDecoder {
    pub(crate) fn reset(&mut self) {
        self.strings.clear();
        self.prev_time = 0;
    }

    /// A string: a new definition (`0`, then the text, entered in the table), or a reference to
    /// one made earlier in the block.
    #[inline]
    fn string<'a>(&mut self, c: &mut Cursor<'a>, what: &str) -> Decoded<Found<'a>> {
        let at = c.pos;
        match c.u64(what)? {
            0 => {
                let (start, bytes) = c.str_bytes(what)?;
                self.strings.push(TableEntry { start, len: bytes.len(), shared: None });
                Ok(Found::New { start, bytes })
            }
            id if id <= self.strings.len() as u64 => Ok(Found::Old { at, id: (id - 1) as usize }),
            id => Err((at, format!("{what}: string {} is not defined in this block", id - 1))),
        }
    }

    /// A label: a string shared through the label cache.
    #[inline]
    fn label(&mut self, c: &mut Cursor<'_>, what: &str) -> Decoded<Arc<str>> {
        match self.string(c, what)? {
            Found::New { start, bytes } => {
                self.labels.bytes(bytes).map_err(|_| (start, format!("{what} is not valid UTF-8")))
            }
            Found::Old { at, id } => {
                let entry = &mut self.strings[id];
                if let Some(s) = &entry.shared {
                    return Ok(Arc::clone(s));
                }
                let bytes = c.slice(entry.start, entry.len);
                let s = self.labels.bytes(bytes).map_err(|_| (at, format!("{what} is not valid UTF-8")))?;
                entry.shared = Some(Arc::clone(&s));
                Ok(s)
            }
        }
    }

    /// A string the record owns (comments, figure names, text values).
    fn owned(&mut self, c: &mut Cursor<'_>, what: &str) -> Decoded<String> {
        let (at, bytes) = match self.string(c, what)? {
            Found::New { start, bytes } => (start, bytes),
            Found::Old { at, id } => (at, c.slice(self.strings[id].start, self.strings[id].len)),
        };
        std::str::from_utf8(bytes).map(str::to_string).map_err(|_| (at, format!("{what} is not valid UTF-8")))
    }

    fn value(&mut self, c: &mut Cursor<'_>) -> Decoded<TraceValue> {
        let at = c.pos;
        match c.byte("a value kind")? {
            0 => Ok(TraceValue::Int(c.i64("an integer value")?)),
            1 => {
                let bytes = c.bytes(8, "a real value")?;
                let mut b = [0_u8; 8];
                b.copy_from_slice(bytes);
                Ok(TraceValue::Float(f64::from_bits(u64::from_le_bytes(b))))
            }
            2 => Ok(TraceValue::Text(self.owned(c, "a text value")?)),
            k => Err((at, format!("expected a value kind (0 int, 1 real, 2 text), found {k}"))),
        }
    }

    /// Decode the next record of the block and check it against `header`.
    #[inline]
    pub(crate) fn decode(&mut self, c: &mut Cursor<'_>, header: &TraceHeader) -> Decoded<Record> {
        let at = c.pos;
        let kind = c.byte("a record kind")?;
        let delta = c.i64("a time delta")?;
        let time = self.prev_time.wrapping_add(delta as u64);
        self.prev_time = time;
        let time = SimTime(time);
        Ok(match kind {
            KIND_STATE => {
                let e = c.small("an entity index")?;
                let state = c.small("a state index")?;
                kept(header, TraceLevel::STATES, "state", at)?;
                let info = entity(header, e, at)?;
                member(info, e, "state", state, info.states.len(), at)?;
                Record::State { time, entity: e, state }
            }
            KIND_SEND => return self.send(c, header, at, time),
            KIND_PARAM => {
                let e = c.small("an entity index")?;
                let param = c.small("a parameter index")?;
                let value = self.value(c)?;
                updates_param(header, "parameter", e, param, at)?;
                Record::Param { time, entity: e, param, value }
            }
            KIND_ARRAY => {
                let e = c.small("an entity index")?;
                let param = c.small("a parameter index")?;
                let index = c.small("an element index")?;
                let value = self.value(c)?;
                updates_param(header, "array", e, param, at)?;
                Record::Array { time, entity: e, param, index, value }
            }
            KIND_ARRAY_READ => {
                let e = c.small("an entity index")?;
                let param = c.small("a parameter index")?;
                let index = c.small("an element index")?;
                updates_param(header, "array read", e, param, at)?;
                Record::ArrayRead { time, entity: e, param, index }
            }
            KIND_COMMENT => {
                let e = c.small("an entity index")?;
                let text = self.owned(c, "a comment")?;
                kept(header, TraceLevel::COMMENTS, "comment", at)?;
                entity(header, e, at)?;
                Record::Comment { time, entity: e, text }
            }
            KIND_SUMMARY => {
                let e = c.small("an entity index")?;
                let key = self.owned(c, "a figure name")?;
                let value = self.value(c)?;
                kept(header, TraceLevel::SUMMARY, "summary", at)?;
                entity(header, e, at)?;
                Record::Summary { time, entity: e, key, value }
            }
            k => return Err((at, format!("expected a record kind (0-6), found {k}"))),
        })
    }

    /// The rest of a send record starting at `at`.
    #[inline]
    fn send(
        &mut self,
        c: &mut Cursor<'_>,
        header: &TraceHeader,
        at: usize,
        time: SimTime,
    ) -> Decoded<Record> {
        let from = c.small("a sending entity")?;
        let from_port = c.small("a sending port")?;
        let to = c.small("a receiving entity")?;
        let to_port = c.small("a receiving port")?;
        let wait = c.u64("a wait before departure")?;
        let flight = c.u64("a flight time")?;
        let depart =
            time.as_ps().checked_add(wait).ok_or_else(|| (at, "the departure time overflows".to_string()))?;
        let arrive =
            depart.checked_add(flight).ok_or_else(|| (at, "the arrival time overflows".to_string()))?;
        let bytes = c.u64("a byte count")?;
        let label = self.label(c, "a label")?;
        kept(header, TraceLevel::MESSAGES, "message", at)?;
        let info = entity(header, from, at)?;
        member(info, from, "port", from_port, info.ports.len(), at)?;
        let info = entity(header, to, at)?;
        member(info, to, "port", to_port, info.ports.len(), at)?;
        // Departure and arrival are sums of unsigned offsets, so never before the send or departure.
        Ok(Record::Send {
            time,
            from,
            from_port,
            to,
            to_port,
            depart: SimTime(depart),
            arrive: SimTime(arrive),
            bytes,
            label,
        })
    }
}

/// Check that a `record` record of `record_level` is kept at the trace's level.
#[inline]
fn kept(header: &TraceHeader, record_level: TraceLevel, record: &str, at: usize) -> Decoded<()> {
    if record_level.get() >= header.level {
        Ok(())
    } else {
        Err(refused(at, check::level(header.level, record, record_level).err()))
    }
}
