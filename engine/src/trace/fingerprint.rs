//! Trace fingerprints for golden tests (OMNeT++-style): a blake3 hash over a canonical
//! serialisation of the header and every record, as a hex string. The serialisation is fixed
//! byte by byte (see `docs/trace-format.md`) and independent of the file form, so a text, gzip or
//! compact file of the same run has the same fingerprint. Not hashed: the format version and the
//! project name (renaming a project or upgrading the file format does not change behaviour).
//! Nothing in a trace comes from the wall clock, so the fingerprint of a run is reproducible.

use super::record::{Record, TraceHeader, TraceValue};
use super::send_record::SendRecord;
use super::sink::TraceSink;

/// Identifies the canonical serialisation; changes only if what is hashed changes.
const DOMAIN: &[u8] = b"hase-trace-fingerprint v2\n";

/// A [`TraceSink`] that hashes what it receives.
pub struct FingerprintSink {
    hasher: blake3::Hasher,
    buf: Vec<u8>,
    records: u64,
}

impl Default for FingerprintSink {
    fn default() -> Self {
        Self::new()
    }
}

impl FingerprintSink {
    /// An empty fingerprint.
    pub fn new() -> Self {
        let mut hasher = blake3::Hasher::new();
        hasher.update(DOMAIN);
        FingerprintSink { hasher, buf: Vec::with_capacity(256), records: 0 }
    }

    /// The hash of everything so far (the record count is hashed last), as 64 hex digits.
    pub fn hex(&self) -> String {
        let mut h = self.hasher.clone();
        h.update(b"end");
        h.update(&self.records.to_le_bytes());
        h.finalize().to_hex().to_string()
    }

    /// Records hashed so far.
    pub fn records(&self) -> u64 {
        self.records
    }
}

/// The fingerprint of a header and records.
pub fn fingerprint<'a>(header: &TraceHeader, records: impl IntoIterator<Item = &'a Record>) -> String {
    let mut sink = FingerprintSink::new();
    sink.add_header(header);
    for r in records {
        sink.add_record(r);
    }
    sink.hex()
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn put_list(out: &mut Vec<u8>, list: &[String]) {
    out.extend_from_slice(&(list.len() as u64).to_le_bytes());
    for s in list {
        put_str(out, s);
    }
}

fn put_opt(out: &mut Vec<u8>, v: Option<u32>) {
    match v {
        None => out.push(0),
        Some(v) => {
            out.push(1);
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

fn put_value(out: &mut Vec<u8>, v: &TraceValue) {
    match v {
        TraceValue::Int(i) => {
            out.push(0);
            out.extend_from_slice(&i.to_le_bytes());
        }
        TraceValue::Float(f) => {
            out.push(1);
            out.extend_from_slice(&f.to_bits().to_le_bytes());
        }
        TraceValue::Text(s) => {
            out.push(2);
            put_str(out, s);
        }
    }
}

impl FingerprintSink {
    fn add_header(&mut self, h: &TraceHeader) {
        let out = &mut self.buf;
        out.clear();
        out.extend_from_slice(&h.seed.to_le_bytes());
        out.push(h.level);
        out.extend_from_slice(&(h.entities.len() as u64).to_le_bytes());
        for e in &h.entities {
            put_str(out, &e.path);
            put_str(out, &e.type_name);
            put_list(out, &e.states);
            put_list(out, &e.params);
            put_list(out, &e.ports);
            put_opt(out, e.group);
        }
        out.extend_from_slice(&(h.links.len() as u64).to_le_bytes());
        for l in &h.links {
            for (e, p) in [l.a, l.b] {
                out.extend_from_slice(&e.to_le_bytes());
                out.extend_from_slice(&p.to_le_bytes());
            }
        }
        out.extend_from_slice(&(h.groups.len() as u64).to_le_bytes());
        for g in &h.groups {
            put_str(out, &g.path);
            put_str(out, &g.type_name);
            put_opt(out, g.parent);
        }
        self.hasher.update(&self.buf);
    }

    fn add_record(&mut self, r: &Record) {
        let out = &mut self.buf;
        out.clear();
        let (tag, entity) = match r {
            Record::State { entity, .. } => (0_u8, *entity),
            Record::Send { from, .. } => (SEND_TAG, *from),
            Record::Param { entity, .. } => (2, *entity),
            Record::Array { entity, .. } => (3, *entity),
            Record::Comment { entity, .. } => (4, *entity),
            Record::Summary { entity, .. } => (5, *entity),
            Record::ArrayRead { entity, .. } => (6, *entity),
        };
        out.push(tag);
        out.extend_from_slice(&r.time().as_ps().to_le_bytes());
        out.extend_from_slice(&entity.to_le_bytes());
        match r {
            Record::State { state, .. } => out.extend_from_slice(&state.to_le_bytes()),
            Record::Send { .. } => {
                if let Some(send) = r.as_send() {
                    send_fields(out, &send);
                }
            }
            Record::Param { param, value, .. } => {
                out.extend_from_slice(&param.to_le_bytes());
                put_value(out, value);
            }
            Record::Array { param, index, value, .. } => {
                out.extend_from_slice(&param.to_le_bytes());
                out.extend_from_slice(&index.to_le_bytes());
                put_value(out, value);
            }
            Record::ArrayRead { param, index, .. } => {
                out.extend_from_slice(&param.to_le_bytes());
                out.extend_from_slice(&index.to_le_bytes());
            }
            Record::Comment { text, .. } => put_str(out, text),
            Record::Summary { key, value, .. } => {
                put_str(out, key);
                put_value(out, value);
            }
        }
        self.hasher.update(&self.buf);
        self.records += 1;
    }
}

/// The tag that starts a send's bytes.
const SEND_TAG: u8 = 1;

/// The bytes of a send after its tag, time and sending entity.
fn send_fields(out: &mut Vec<u8>, send: &SendRecord<'_>) {
    out.extend_from_slice(&send.from_port.to_le_bytes());
    out.extend_from_slice(&send.to.to_le_bytes());
    out.extend_from_slice(&send.to_port.to_le_bytes());
    out.extend_from_slice(&send.depart.as_ps().to_le_bytes());
    out.extend_from_slice(&send.arrive.as_ps().to_le_bytes());
    out.extend_from_slice(&send.bytes.to_le_bytes());
    put_str(out, send.label);
}

impl TraceSink for FingerprintSink {
    fn header(&mut self, header: &TraceHeader) -> std::io::Result<()> {
        self.add_header(header);
        Ok(())
    }
    fn record(&mut self, record: &Record) -> std::io::Result<()> {
        self.add_record(record);
        Ok(())
    }
    fn send(&mut self, send: &SendRecord<'_>) -> std::io::Result<()> {
        let out = &mut self.buf;
        out.clear();
        out.push(SEND_TAG);
        out.extend_from_slice(&send.time.as_ps().to_le_bytes());
        out.extend_from_slice(&send.from.to_le_bytes());
        send_fields(out, send);
        self.hasher.update(&self.buf);
        self.records += 1;
        Ok(())
    }
    fn finish(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::time::SimTime;
    use crate::trace::testgen;
    use crate::trace::text_tests::{EXAMPLE, read_all, write_all};

    #[test]
    fn example_fingerprint_is_stable() {
        let (header, records) = read_all(EXAMPLE).unwrap();
        // Recorded once; a change here means the canonical serialisation changed (bump DOMAIN).
        // Without its array read the example is the format-1 example, whose hash must not move.
        let without_read: Vec<&Record> =
            records.iter().filter(|r| !matches!(r, Record::ArrayRead { .. })).collect();
        assert_eq!(without_read.len(), records.len() - 1);
        assert_eq!(
            fingerprint(&header, without_read),
            "72d223dd398a8e11533651003aef33495242dab60ba833f9d62fcab415683917"
        );
        assert_ne!(
            fingerprint(&header, &records),
            "72d223dd398a8e11533651003aef33495242dab60ba833f9d62fcab415683917"
        );
    }

    #[test]
    fn hashed_bytes_are_the_documented_ones() {
        let header = TraceHeader {
            seed: 7,
            level: 4,
            entities: vec![crate::trace::EntityInfo {
                path: "p".into(),
                type_name: "T".into(),
                states: vec!["A".into()].into(),
                ..Default::default()
            }],
            ..Default::default()
        };
        let record = Record::State { time: SimTime(5), entity: 0, state: 0 };
        let mut bytes = b"hase-trace-fingerprint v2\n".to_vec();
        bytes.extend_from_slice(&7_u64.to_le_bytes());
        bytes.push(4);
        bytes.extend_from_slice(&1_u64.to_le_bytes());
        for s in ["p", "T"] {
            bytes.extend_from_slice(&1_u64.to_le_bytes());
            bytes.extend_from_slice(s.as_bytes());
        }
        bytes.extend_from_slice(&1_u64.to_le_bytes());
        bytes.extend_from_slice(&1_u64.to_le_bytes());
        bytes.push(b'A');
        bytes.extend_from_slice(&[0; 16]); // no params, no ports
        bytes.push(0); // no group
        bytes.extend_from_slice(&[0; 16]); // no links, no groups
        bytes.push(0); // state record
        bytes.extend_from_slice(&5_u64.to_le_bytes());
        bytes.extend_from_slice(&0_u32.to_le_bytes());
        bytes.extend_from_slice(&0_u16.to_le_bytes());
        bytes.extend_from_slice(b"end");
        bytes.extend_from_slice(&1_u64.to_le_bytes());
        assert_eq!(fingerprint(&header, [&record]), blake3::hash(&bytes).to_hex().to_string());
    }

    #[test]
    fn array_read_bytes_are_the_documented_ones() {
        let header = TraceHeader { seed: 1, level: 3, ..Default::default() };
        let record = Record::ArrayRead { time: SimTime(9), entity: 2, param: 3, index: 4 };
        let mut bytes = b"hase-trace-fingerprint v2\n".to_vec();
        bytes.extend_from_slice(&1_u64.to_le_bytes());
        bytes.push(3);
        bytes.extend_from_slice(&[0; 24]); // no entities, links or groups
        bytes.push(6); // array-read tag
        bytes.extend_from_slice(&9_u64.to_le_bytes());
        bytes.extend_from_slice(&2_u32.to_le_bytes());
        bytes.extend_from_slice(&3_u16.to_le_bytes());
        bytes.extend_from_slice(&4_u32.to_le_bytes());
        bytes.extend_from_slice(b"end");
        bytes.extend_from_slice(&1_u64.to_le_bytes());
        assert_eq!(fingerprint(&header, [&record]), blake3::hash(&bytes).to_hex().to_string());
    }

    #[test]
    fn the_sink_and_the_function_agree() {
        let (header, records) = read_all(EXAMPLE).unwrap();
        let mut sink = FingerprintSink::new();
        sink.header(&header).unwrap();
        for r in &records {
            sink.record(r).unwrap();
        }
        sink.finish().unwrap();
        assert_eq!(sink.records(), 7);
        assert_eq!(sink.hex(), fingerprint(&header, &records));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]
        #[test]
        fn fingerprint_ignores_form_name_and_version_but_sees_every_record(
            (header, records) in testgen::trace(30),
            pick in any::<prop::sample::Index>(),
        ) {
            let fp = fingerprint(&header, &records);
            let text = String::from_utf8(write_all(&header, &records)).unwrap();
            let (h2, r2) = read_all(&text).unwrap();
            prop_assert_eq!(&fingerprint(&h2, &r2), &fp);
            let mut renamed = header.clone();
            renamed.project.push_str(" renamed");
            renamed.version += 1;
            prop_assert_eq!(&fingerprint(&renamed, &records), &fp);
            let mut reseeded = header.clone();
            reseeded.seed = reseeded.seed.wrapping_add(1);
            prop_assert_ne!(&fingerprint(&reseeded, &records), &fp);
            if !records.is_empty() {
                let i = pick.index(records.len());
                let mut shifted = records.clone();
                let r = &mut shifted[i];
                let t = r.time().0.wrapping_add(1);
                match r {
                    Record::State { time, .. } | Record::Send { time, .. } | Record::Param { time, .. }
                    | Record::Array { time, .. } | Record::ArrayRead { time, .. } | Record::Comment { time, .. }
                    | Record::Summary { time, .. } => {
                        *time = SimTime(t);
                    }
                }
                prop_assert_ne!(&fingerprint(&header, &shifted), &fp);
                let mut dropped = records.clone();
                dropped.remove(i);
                prop_assert_ne!(&fingerprint(&header, &dropped), &fp);
            }
        }
    }
}
