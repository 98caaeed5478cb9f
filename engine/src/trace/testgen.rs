//! Test-only generators: random but consistent trace headers and record sequences for the
//! round-trip, seek and fingerprint property tests, and records written by hand in other tests.

use proptest::prelude::*;

use super::record::{EntityInfo, GroupInfo, LinkInfo, Record, TraceHeader, TraceValue};
use crate::time::SimTime;

/// A message sent at `time` from port 0 of `from` to port 0 of `to`, leaving at once and arriving
/// at `arrive`.
pub(crate) fn port0_send(time: u64, from: u32, to: u32, arrive: u64, bytes: u64, label: &str) -> Record {
    Record::Send {
        time: SimTime(time),
        depart: SimTime(time),
        from,
        from_port: 0,
        to,
        to_port: 0,
        arrive: SimTime(arrive),
        bytes,
        label: label.into(),
    }
}

/// Names that exercise quoting: spaces, quotes, backslashes, newlines, tabs, non-ASCII, empty.
pub(crate) fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 _\"\\\\→\n\t/.$-]{0,10}"
}

fn names(max: usize) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(name(), 0..=max)
}

pub(crate) fn value() -> impl Strategy<Value = TraceValue> {
    prop_oneof![
        any::<i64>().prop_map(TraceValue::Int),
        (-1e300_f64..1e300).prop_map(TraceValue::Float),
        prop_oneof![Just(f64::INFINITY), Just(f64::NEG_INFINITY), Just(-0.0), Just(5e-324)]
            .prop_map(TraceValue::Float),
        name().prop_map(TraceValue::Text),
    ]
}

/// A consistent header: 1–4 types, 1–8 entities, up to 3 nested groups, up to 4 links.
pub(crate) fn header() -> impl Strategy<Value = TraceHeader> {
    let types = prop::collection::vec((name(), names(4), names(2), names(3)), 1..=4);
    let groups = prop::collection::vec((name(), name(), any::<prop::sample::Index>(), any::<bool>()), 0..=3);
    (name(), any::<u64>(), 1_u8..=5, types, groups)
        .prop_flat_map(|(project, seed, level, types, groups)| {
            let group_count = groups.len();
            let entities =
                prop::collection::vec((name(), 0..types.len(), any::<prop::sample::Index>()), 1..=8);
            let links = prop::collection::vec(any::<[prop::sample::Index; 4]>(), 0..=4);
            (Just((project, seed, level, types, groups)), entities, links, Just(group_count))
        })
        .prop_map(|((project, seed, level, types, groups), entities, links, group_count)| {
            let groups: Vec<GroupInfo> = groups
                .into_iter()
                .enumerate()
                .map(|(i, (path, type_name, parent, has_parent))| GroupInfo {
                    path,
                    type_name,
                    parent: (has_parent && i > 0).then(|| parent.index(i) as u32),
                })
                .collect();
            let entities: Vec<EntityInfo> = entities
                .into_iter()
                .map(|(path, ty, group)| {
                    let (type_name, states, params, ports) = types[ty].clone();
                    EntityInfo {
                        path,
                        type_name,
                        states: states.into(),
                        params: params.into(),
                        ports: ports.into(),
                        group: (group_count > 0 && group.index(2) == 1)
                            .then(|| group.index(group_count) as u32),
                    }
                })
                .collect();
            let with_ports: Vec<u32> =
                (0..entities.len() as u32).filter(|&e| !entities[e as usize].ports.is_empty()).collect();
            let links = if with_ports.is_empty() {
                Vec::new()
            } else {
                links
                    .into_iter()
                    .map(|[ea, pa, eb, pb]| {
                        let a = *ea.get(&with_ports);
                        let b = *eb.get(&with_ports);
                        LinkInfo {
                            a: (a, pa.index(entities[a as usize].ports.len()) as u16),
                            b: (b, pb.index(entities[b as usize].ports.len()) as u16),
                        }
                    })
                    .collect()
            };
            TraceHeader { version: super::FORMAT_VERSION, project, seed, level, entities, links, groups }
        })
}

/// Raw material for one record, turned into a valid record by [`build_records`].
type RawRecord = (u8, [prop::sample::Index; 4], u64, u64, u64, String, TraceValue);

fn raw_record() -> impl Strategy<Value = RawRecord> {
    (
        0_u8..7,
        any::<[prop::sample::Index; 4]>(),
        prop_oneof![Just(0_u64), 0_u64..1000, 0_u64..1_000_000_000],
        0_u64..5_000_000,
        any::<u64>(),
        name(),
        value(),
    )
}

/// Records valid for `header`: kinds kept at its level, indices in range, the clock never going
/// back, sends departing at or after the clock (as the kernel emits them).
pub(crate) fn build_records(header: &TraceHeader, raw: Vec<RawRecord>) -> Vec<Record> {
    let mut now = 0_u64;
    let mut out = Vec::new();
    let n = header.entities.len();
    for (kind, idx, dt, extra, bytes, text, value) in raw {
        now += dt;
        let time = SimTime(now);
        let e = idx[0].index(n) as u32;
        let info = &header.entities[e as usize];
        let record = match kind {
            0 => Record::Comment { time, entity: e, text },
            1 => {
                let senders: Vec<u32> =
                    (0..n as u32).filter(|&x| !header.entities[x as usize].ports.is_empty()).collect();
                if senders.is_empty() {
                    continue;
                }
                let from = *idx[0].get(&senders);
                let to = *idx[2].get(&senders);
                let depart = now + extra % 3 * 1000;
                Record::Send {
                    time: SimTime(depart),
                    depart: SimTime(depart + extra / 2),
                    from,
                    from_port: idx[1].index(header.entities[from as usize].ports.len()) as u16,
                    to,
                    to_port: idx[3].index(header.entities[to as usize].ports.len()) as u16,
                    arrive: SimTime(depart + extra),
                    bytes,
                    label: text.into(),
                }
            }
            2 | 3 | 6 if info.params.is_empty() => continue,
            2 => Record::Param { time, entity: e, param: idx[1].index(info.params.len()) as u16, value },
            3 => Record::Array {
                time,
                entity: e,
                param: idx[1].index(info.params.len()) as u16,
                index: (bytes % 100) as u32,
                value,
            },
            6 => Record::ArrayRead {
                time,
                entity: e,
                param: idx[1].index(info.params.len()) as u16,
                index: (bytes % 100) as u32,
            },
            4 if info.states.is_empty() => continue,
            4 => Record::State { time, entity: e, state: idx[1].index(info.states.len()) as u16 },
            _ => Record::Summary { time, entity: e, key: text, value },
        };
        if record.level().get() >= header.level {
            out.push(record);
        }
    }
    out
}

/// A header and up to `max` records valid for it.
pub(crate) fn trace(max: usize) -> impl Strategy<Value = (TraceHeader, Vec<Record>)> {
    (header(), prop::collection::vec(raw_record(), 0..=max)).prop_map(|(h, raw)| {
        let records = build_records(&h, raw);
        (h, records)
    })
}

/// A header at level 1 (so every kind is kept) and up to `max` records.
#[allow(dead_code, reason = "kept for property tests that need every record kind; not every build uses it")]
pub(crate) fn full_trace(max: usize) -> impl Strategy<Value = (TraceHeader, Vec<Record>)> {
    (header(), prop::collection::vec(raw_record(), 0..=max)).prop_map(|(mut h, raw)| {
        h.level = 1;
        let records = build_records(&h, raw);
        (h, records)
    })
}
