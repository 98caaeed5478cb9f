//! The compact (binary) trace form shared by its writer and reader: the file magic, the header
//! encoding, and the per-block record encoding (times as zigzag deltas from the previous record
//! of the block, numbers as LEB128 varints, strings through a string table that restarts with
//! every block so that each block decodes on its own). Layout in `docs/trace-format.md`. The
//! block decoder is in `binary_decode`.

use super::check::{TypeRow, type_table};
use super::record::{EntityInfo, GroupInfo, LinkInfo, Record, TraceHeader, TraceValue};
use super::send_record::SendRecord;
use super::varint::{Cursor, Decoded, put_i64, put_opt, put_str, put_u64};
use std::sync::Arc;

/// First 8 bytes of a compact trace (PNG-style: non-ASCII first byte, CR LF, ^Z, LF).
pub const BINARY_MAGIC: [u8; 8] = [0x89, b'H', b'T', b'B', b'\r', b'\n', 0x1a, b'\n'];

/// Records per block unless configured otherwise.
pub const DEFAULT_BLOCK_RECORDS: u64 = 4096;

/// Largest block payload a reader accepts (guards against corrupt lengths).
pub(crate) const MAX_BLOCK_BYTES: u64 = crate::limits::MAX_BINARY_BLOCK_BYTES;

pub(crate) const KIND_STATE: u8 = 0;
pub(crate) const KIND_SEND: u8 = 1;
pub(crate) const KIND_PARAM: u8 = 2;
pub(crate) const KIND_ARRAY: u8 = 3;
pub(crate) const KIND_COMMENT: u8 = 4;
pub(crate) const KIND_SUMMARY: u8 = 5;
pub(crate) const KIND_ARRAY_READ: u8 = 6;

/// Encode the header (without its length prefix).
pub(crate) fn encode_header(header: &TraceHeader) -> Vec<u8> {
    let mut out = Vec::new();
    let (types, type_of) = type_table(header);
    put_u64(&mut out, u64::from(super::version::FORMAT_VERSION));
    put_str(&mut out, &header.project);
    put_u64(&mut out, header.seed);
    out.push(header.level);
    put_u64(&mut out, types.len() as u64);
    for t in &types {
        put_str(&mut out, &t.name);
        for list in [&t.states, &t.params, &t.ports] {
            put_u64(&mut out, list.len() as u64);
            for s in list {
                put_str(&mut out, s);
            }
        }
    }
    put_u64(&mut out, header.groups.len() as u64);
    for g in &header.groups {
        put_str(&mut out, &g.path);
        put_str(&mut out, &g.type_name);
        put_opt(&mut out, g.parent);
    }
    put_u64(&mut out, header.entities.len() as u64);
    for (e, ty) in header.entities.iter().zip(type_of) {
        put_str(&mut out, &e.path);
        put_u64(&mut out, u64::from(ty));
        put_opt(&mut out, e.group);
    }
    put_u64(&mut out, header.links.len() as u64);
    for l in &header.links {
        for (e, p) in [l.a, l.b] {
            put_u64(&mut out, u64::from(e));
            put_u64(&mut out, u64::from(p));
        }
    }
    out
}

/// Decode a header; the version must already be known to be supported by the caller's check.
pub(crate) fn decode_header(c: &mut Cursor<'_>) -> Decoded<TraceHeader> {
    let at = c.pos;
    let version: u32 = c.small("the format version")?;
    if version == 0 || version > super::version::FORMAT_VERSION {
        return Err((
            at,
            format!(
                "trace format version {version} is not supported (this build reads 1 to {})",
                super::version::FORMAT_VERSION
            ),
        ));
    }
    let project = c.str("the project name")?;
    let seed = c.u64("the seed")?;
    let level = c.byte("the trace level")?;
    let type_count = c.u64("the type count")?;
    let mut types = Vec::new();
    for _ in 0..type_count {
        let name = c.str("a type name")?;
        let states = c.strs("state names")?;
        let params = c.strs("parameter names")?;
        let ports = c.strs("port names")?;
        types.push(TypeRow { name, states, params, ports });
    }
    let group_count = c.u64("the group count")?;
    let mut groups = Vec::new();
    for _ in 0..group_count {
        groups.push(GroupInfo {
            path: c.str("a group path")?,
            type_name: c.str("a group type")?,
            parent: c.opt("a parent group")?,
        });
    }
    // Every entity of a type shares its type's name lists.
    let lists: Vec<[Arc<[String]>; 3]> = types.iter().map(TypeRow::shared_lists).collect();
    let entity_count = c.u64("the entity count")?;
    let mut entities = Vec::new();
    for _ in 0..entity_count {
        let at = c.pos;
        let path = c.str("an entity path")?;
        if path.len() > crate::limits::MAX_PATH_BYTES {
            return Err((
                at,
                format!(
                    "an entity path of {} bytes; the limit is {}",
                    path.len(),
                    crate::limits::MAX_PATH_BYTES
                ),
            ));
        }
        let at = c.pos;
        let ty: usize = c.small("a type index")?;
        let t = types
            .get(ty)
            .ok_or_else(|| (at, format!("type {ty} does not exist (the header lists {})", types.len())))?;
        entities.push(EntityInfo {
            path,
            type_name: t.name.clone(),
            states: Arc::clone(&lists[ty][0]),
            params: Arc::clone(&lists[ty][1]),
            ports: Arc::clone(&lists[ty][2]),
            group: c.opt("a group index")?,
        });
    }
    let link_count = c.u64("the link count")?;
    let mut links = Vec::new();
    for _ in 0..link_count {
        let a = (c.small("a link entity")?, c.small("a link port")?);
        let b = (c.small("a link entity")?, c.small("a link port")?);
        links.push(LinkInfo { a, b });
    }
    Ok(TraceHeader { version, project, seed, level, entities, links, groups })
}

/// Slots of the encoder's string cache (a power of two).
const STRING_CACHE_SLOTS: usize = 1024;

/// Encodes the records of one block. Repeated strings are found through a small direct-mapped
/// cache keyed by a fixed FNV-1a hash (deterministic, no allocation once warm): a string evicted
/// from the cache is simply defined again, which the format allows.
pub(crate) struct BlockEncoder {
    /// Per slot: the string's table number + 1 (0 = empty) and its text.
    cache: Vec<(u64, String)>,
    defined: u64,
    prev_time: u64,
}

impl Default for BlockEncoder {
    fn default() -> Self {
        BlockEncoder { cache: vec![(0, String::new()); STRING_CACHE_SLOTS], defined: 0, prev_time: 0 }
    }
}

fn fnv1a(s: &str) -> usize {
    let mut h = 0xcbf2_9ce4_8422_2325_u64;
    for b in s.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    (h ^ (h >> 32)) as usize
}

impl BlockEncoder {
    /// Start a new block: forget the string table and the time base.
    pub(crate) fn reset(&mut self) {
        for slot in &mut self.cache {
            slot.0 = 0;
        }
        self.defined = 0;
        self.prev_time = 0;
    }

    fn string(&mut self, out: &mut Vec<u8>, s: &str) {
        let slot = &mut self.cache[fnv1a(s) & (STRING_CACHE_SLOTS - 1)];
        if slot.0 != 0 && slot.1 == s {
            put_u64(out, slot.0);
        } else {
            put_u64(out, 0);
            put_str(out, s);
            self.defined += 1;
            slot.0 = self.defined;
            slot.1.clear();
            slot.1.push_str(s);
        }
    }

    fn value(&mut self, out: &mut Vec<u8>, v: &TraceValue) {
        match v {
            TraceValue::Int(i) => {
                out.push(0);
                put_i64(out, *i);
            }
            TraceValue::Float(f) => {
                out.push(1);
                out.extend_from_slice(&f.to_bits().to_le_bytes());
            }
            TraceValue::Text(s) => {
                out.push(2);
                self.string(out, s);
            }
        }
    }

    /// Encode a send given with its label borrowed, as [`BlockEncoder::encode`] encodes its record.
    pub(crate) fn encode_send(&mut self, out: &mut Vec<u8>, send: &SendRecord<'_>) {
        let time = send.time.as_ps();
        out.push(KIND_SEND);
        put_i64(out, time.wrapping_sub(self.prev_time) as i64);
        self.prev_time = time;
        self.send_fields(out, send);
    }

    fn send_fields(&mut self, out: &mut Vec<u8>, send: &SendRecord<'_>) {
        let &SendRecord { time, from, from_port, to, to_port, depart, arrive, bytes, label } = send;
        for v in [u64::from(from), u64::from(from_port), u64::from(to), u64::from(to_port)] {
            put_u64(out, v);
        }
        put_u64(out, depart.as_ps().saturating_sub(time.as_ps()));
        put_u64(out, arrive.as_ps().saturating_sub(depart.as_ps()));
        put_u64(out, bytes);
        self.string(out, label);
    }

    pub(crate) fn encode(&mut self, out: &mut Vec<u8>, record: &Record) {
        let time = record.time().as_ps();
        let kind = match record {
            Record::State { .. } => KIND_STATE,
            Record::Send { .. } => KIND_SEND,
            Record::Param { .. } => KIND_PARAM,
            Record::Array { .. } => KIND_ARRAY,
            Record::ArrayRead { .. } => KIND_ARRAY_READ,
            Record::Comment { .. } => KIND_COMMENT,
            Record::Summary { .. } => KIND_SUMMARY,
        };
        out.push(kind);
        put_i64(out, time.wrapping_sub(self.prev_time) as i64);
        self.prev_time = time;
        match record {
            Record::State { entity, state, .. } => {
                put_u64(out, u64::from(*entity));
                put_u64(out, u64::from(*state));
            }
            Record::Send { .. } => {
                if let Some(send) = record.as_send() {
                    self.send_fields(out, &send);
                }
            }
            Record::Param { entity, param, value, .. } => {
                put_u64(out, u64::from(*entity));
                put_u64(out, u64::from(*param));
                self.value(out, value);
            }
            Record::Array { entity, param, index, value, .. } => {
                put_u64(out, u64::from(*entity));
                put_u64(out, u64::from(*param));
                put_u64(out, u64::from(*index));
                self.value(out, value);
            }
            Record::ArrayRead { entity, param, index, .. } => {
                put_u64(out, u64::from(*entity));
                put_u64(out, u64::from(*param));
                put_u64(out, u64::from(*index));
            }
            Record::Comment { entity, text, .. } => {
                put_u64(out, u64::from(*entity));
                self.string(out, text);
            }
            Record::Summary { entity, key, value, .. } => {
                put_u64(out, u64::from(*entity));
                self.string(out, key);
                self.value(out, value);
            }
        }
    }
}
