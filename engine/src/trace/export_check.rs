//! Test-only readers of our own Paraver and Chrome output that enforce the formats' rules, and the
//! tests that run every export through them: hand-built traces, generated ones (property test) and
//! a long one streamed through the Paraver writer with its buffer counted.
//!
//! Paraver (BSC's "Paraver trace format" and `.pcf`/`.row` descriptions): the header
//! `#Paraver (dd/mm/yy at hh:mm):<end>_ns:<nodes>(<cpus>):<apps>:<tasks>(<threads>:<node>,…)`;
//! state records `1:cpu:appl:task:thread:begin:end:state`, event records
//! `2:cpu:appl:task:thread:time:type:value[:type:value…]`, communication records
//! `3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag`; object numbers
//! within the header's counts, times within the end time, logical ≤ physical times, records sorted
//! by their first time, a thread's states never overlapping; every state value and event type named
//! in the `.pcf`, every value of a type with a `VALUES` list listed; `.row` levels of the sizes the
//! header gives. Chrome (the Trace Event Format document): an object with a `traceEvents` array,
//! each event with a known `ph`, numeric `pid`/`tid`/`ts`, `dur` ≥ 0 on complete events, numeric
//! series on counters, flows with an `id` starting before they finish, metadata of known names.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use serde_json::Value;

use super::chrome::export_chrome;
use super::paraver::{MAX_PENDING_LINES, ParaverDate, ParaverWriter, export_paraver};
use super::record::{EntityInfo, Record, TraceHeader, TraceValue};
use super::testgen;
use super::text_tests::{EXAMPLE, read_all};
use crate::time::SimTime;

/// What a valid Paraver export holds.
#[derive(Debug, Default)]
pub(crate) struct ParaverFacts {
    pub states: u64,
    pub events: BTreeMap<u64, u64>,
    pub comms: u64,
    pub end_ns: u64,
}

fn numbers(fields: &[&str]) -> Result<Vec<i128>, String> {
    fields.iter().map(|f| f.parse::<i128>().map_err(|_| format!("`{f}` is not a number"))).collect()
}

/// The `.pcf`: state values, and per event type its values if listed.
/// Event types with the values their `VALUES` list names (`None`: any value).
type EventTypes = BTreeMap<i128, Option<BTreeSet<i128>>>;

fn read_pcf(pcf: &str) -> Result<(BTreeSet<i128>, EventTypes), String> {
    let (mut states, mut types) = (BTreeSet::new(), BTreeMap::new());
    let mut section = "";
    let mut current: Vec<i128> = Vec::new();
    for line in pcf.lines() {
        let t = line.trim();
        match t {
            "STATES" | "STATES_COLOR" | "EVENT_TYPE" | "VALUES" | "DEFAULT_OPTIONS" | "DEFAULT_SEMANTIC" => {
                if t == "EVENT_TYPE" {
                    current.clear();
                }
                if t == "VALUES" {
                    for ty in &current {
                        types.insert(*ty, Some(BTreeSet::new()));
                    }
                }
                section = if t == "EVENT_TYPE" { "EVENT_TYPE_HEAD" } else { t };
                continue;
            }
            "" => continue,
            _ => {}
        }
        let mut words = t.split_whitespace();
        match section {
            "STATES" => {
                states.insert(
                    words.next().and_then(|w| w.parse().ok()).ok_or(format!("bad state line `{t}`"))?,
                );
            }
            "EVENT_TYPE_HEAD" => {
                let (_gradient, ty) = (words.next(), words.next());
                let ty: i128 = ty.and_then(|w| w.parse().ok()).ok_or(format!("bad event type line `{t}`"))?;
                if words.next().is_none() {
                    return Err(format!("event type {ty} has no label"));
                }
                current.push(ty);
                types.insert(ty, None);
            }
            "VALUES" => {
                let v: i128 =
                    words.next().and_then(|w| w.parse().ok()).ok_or(format!("bad value line `{t}`"))?;
                for ty in &current {
                    if let Some(Some(set)) = types.get_mut(ty) {
                        set.insert(v);
                    }
                }
            }
            _ => {}
        }
    }
    Ok((states, types))
}

/// Check a Paraver export against the format's rules.
pub(crate) fn check_paraver(prv: &str, pcf: &str, row: &str) -> Result<ParaverFacts, String> {
    let mut lines = prv.lines();
    let head = lines.next().ok_or("empty .prv")?;
    let rest = head.strip_prefix("#Paraver (").ok_or("no #Paraver header")?;
    let (date, rest) = rest.split_once("):").ok_or("no date")?;
    let d: Vec<&str> = date.split([' ', '/', ':']).collect();
    if d.len() != 6 || d[3] != "at" || [0, 1, 2, 4, 5].iter().any(|&i| d[i].len() != 2) {
        return Err(format!("bad date `{date}`"));
    }
    let (end, rest) = rest.split_once("_ns:").ok_or("no end time in ns")?;
    let end: i128 = end.parse().map_err(|_| "bad end time")?;
    let (nodes, rest) = rest.split_once('(').ok_or("no node list")?;
    let (cpus, rest) = rest.split_once("):").ok_or("bad node list")?;
    let (apps, rest) = rest.split_once(':').ok_or("no application count")?;
    let (tasks, threads) = rest.split_once('(').ok_or("no task list")?;
    let (nodes, cpus, apps, tasks): (i128, i128, i128, i128) = (
        nodes.parse().map_err(|_| "nodes")?,
        cpus.parse().map_err(|_| "cpus")?,
        apps.parse().map_err(|_| "apps")?,
        tasks.parse().map_err(|_| "tasks")?,
    );
    let threads: Vec<&str> =
        threads.strip_suffix(')').ok_or("bad thread list")?.split(',').filter(|s| !s.is_empty()).collect();
    if (nodes, apps) != (1, 1) || threads.len() as i128 != tasks || threads.iter().any(|t| *t != "1:1") {
        return Err(format!("unexpected object counts in `{head}`"));
    }
    let (state_values, event_types) = read_pcf(pcf)?;
    let mut facts = ParaverFacts { end_ns: end as u64, ..ParaverFacts::default() };
    let mut last_time = 0;
    let mut thread_end: BTreeMap<i128, i128> = BTreeMap::new();
    let object = |cpu: i128, app: i128, task: i128, thread: i128| -> Result<(), String> {
        if !(1..=cpus).contains(&cpu) || app != 1 || !(1..=tasks).contains(&task) || thread != 1 {
            return Err(format!("object {cpu}:{app}:{task}:{thread} is not in the header"));
        }
        Ok(())
    };
    for line in lines {
        let f: Vec<&str> = line.split(':').collect();
        let n = numbers(&f)?;
        let first = match n.first() {
            Some(1) if n.len() == 8 => {
                object(n[1], n[2], n[3], n[4])?;
                if !(n[5] < n[6] && n[6] <= end) {
                    return Err(format!("state times out of order or past the end: {line}"));
                }
                if !state_values.contains(&n[7]) {
                    return Err(format!("state value {} not in the .pcf: {line}", n[7]));
                }
                let seen = thread_end.entry(n[3]).or_insert(0);
                if n[5] < *seen {
                    return Err(format!("overlapping states on task {}: {line}", n[3]));
                }
                *seen = n[6];
                facts.states += 1;
                n[5]
            }
            Some(2) if n.len() >= 8 && n.len() % 2 == 0 => {
                object(n[1], n[2], n[3], n[4])?;
                for pair in n[6..].chunks(2) {
                    match event_types.get(&pair[0]) {
                        None => return Err(format!("event type {} not in the .pcf: {line}", pair[0])),
                        Some(Some(values)) if !values.contains(&pair[1]) => {
                            return Err(format!("value {} of type {} not listed: {line}", pair[1], pair[0]));
                        }
                        _ => *facts.events.entry(pair[0] as u64).or_default() += 1,
                    }
                }
                n[5]
            }
            Some(3) if n.len() == 15 => {
                object(n[1], n[2], n[3], n[4])?;
                object(n[7], n[8], n[9], n[10])?;
                if !(n[5] <= n[6] && n[11] <= n[12] && n[12] <= end && n[6] <= end) {
                    return Err(format!("communication times out of order: {line}"));
                }
                facts.comms += 1;
                n[5]
            }
            _ => return Err(format!("not a state, event or communication record: {line}")),
        };
        if first < last_time {
            return Err(format!("records not sorted by time at: {line}"));
        }
        last_time = first;
    }
    let mut sizes: BTreeMap<String, (i128, i128)> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in row.lines() {
        if let Some(rest) = line.strip_prefix("LEVEL ") {
            let (level, size) = rest.split_once(" SIZE ").ok_or(format!("bad level line `{line}`"))?;
            sizes.insert(level.to_string(), (size.parse().map_err(|_| "bad size")?, 0));
            current = Some(level.to_string());
        } else if !line.is_empty()
            && let Some(level) = &current
            && let Some(entry) = sizes.get_mut(level)
        {
            entry.1 += 1;
        }
    }
    let expected = [("CPU", cpus), ("NODE", nodes), ("APPL", apps), ("TASK", tasks), ("THREAD", tasks)];
    for (level, size) in expected {
        match sizes.get(level) {
            Some(&(declared, names)) if declared == size && names == size => {}
            other => return Err(format!("level {level}: expected {size} names, found {other:?}")),
        }
    }
    Ok(facts)
}

/// Check a Chrome trace-event document; counts of events by phase.
pub(crate) fn check_chrome(text: &str) -> Result<BTreeMap<String, u64>, String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let events = doc["traceEvents"].as_array().ok_or("no traceEvents array")?;
    if !matches!(doc["displayTimeUnit"].as_str(), Some("ms" | "ns")) {
        return Err("displayTimeUnit is not ms or ns".into());
    }
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    let mut flows: BTreeMap<u64, f64> = BTreeMap::new();
    for e in events {
        let ph = e["ph"].as_str().ok_or("event without ph")?;
        let number = |key: &str| e[key].as_f64().ok_or(format!("{ph} event without numeric {key}: {e}"));
        number("pid")?;
        if ph != "C" {
            number("tid")?;
        }
        if ph != "M" && number("ts")? < 0.0 {
            return Err(format!("negative ts: {e}"));
        }
        match ph {
            "X" => {
                if number("dur")? < 0.0 || e["name"].as_str().is_none() {
                    return Err(format!("bad complete event: {e}"));
                }
            }
            "i" => {
                if !matches!(e["s"].as_str(), Some("g" | "p" | "t")) {
                    return Err(format!("instant without a scope: {e}"));
                }
            }
            "C" => {
                let args = e["args"].as_object().ok_or(format!("counter without args: {e}"))?;
                if args.is_empty() || args.values().any(|v| !v.is_number()) || e["name"].as_str().is_none() {
                    return Err(format!("counter series must be numbers: {e}"));
                }
            }
            "s" => {
                flows.insert(e["id"].as_u64().ok_or("flow without id")?, number("ts")?);
            }
            "f" => {
                let id = e["id"].as_u64().ok_or("flow without id")?;
                let start = flows.get(&id).ok_or(format!("flow {id} finishes before it starts"))?;
                if number("ts")? < *start {
                    return Err(format!("flow {id} finishes before its start time"));
                }
            }
            "M" => {
                let name = e["name"].as_str().unwrap_or_default();
                if !["process_name", "thread_name", "process_sort_index", "thread_sort_index"].contains(&name)
                {
                    return Err(format!("unknown metadata `{name}`"));
                }
            }
            other => return Err(format!("phase `{other}` is not one we write")),
        }
        *counts.entry(ph.to_string()).or_default() += 1;
    }
    Ok(counts)
}

fn paraver_text(header: &TraceHeader, records: &[Record], date: ParaverDate) -> (String, String, String) {
    let (mut prv, mut pcf, mut row) = (Vec::new(), Vec::new(), Vec::new());
    export_paraver(header, records, date, &mut prv, &mut pcf, &mut row).unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (text(prv), text(pcf), text(row))
}

#[test]
fn example_exports_pass_both_checkers_with_events_for_comments_and_values() {
    let (header, records) = read_all(EXAMPLE).unwrap();
    let date = ParaverDate { day: 3, month: 7, year: 2025, hour: 9, minute: 5 };
    let (prv, pcf, row) = paraver_text(&header, &records, date);
    assert!(prv.starts_with("#Paraver (03/07/25 at 09:05):0_ns:1(3):1:3(1:1,1:1,1:1)\n"), "{prv}");
    let facts = check_paraver(&prv, &pcf, &row).unwrap_or_else(|e| panic!("{e}\n{prv}\n{pcf}"));
    // A comment, an integer update and a real array update with its index (the read is not an event).
    let expected: BTreeMap<u64, u64> =
        [(1000, 1), (10_000, 1), (20_000, 1), (40_000, 1)].into_iter().collect();
    assert_eq!(facts.events, expected, "{prv}");
    // Times are whole nanoseconds: everything of the example falls in ns 0.
    assert!(prv.contains("2:1:1:1:1:0:1000:1\n"), "{prv}");
    assert!(prv.contains("2:2:1:2:1:0:20000:2500:40000:7\n"), "{prv}");
    assert!(pcf.contains("1000       Comment\nVALUES\n1      hello world\n"), "{pcf}");
    assert!(
        pcf.contains("Processor.queue (integer)") && pcf.contains("Processor.queue (real x1000)"),
        "{pcf}"
    );
    assert!(row.contains("LEVEL APPL SIZE 1\nring of 2\n\nLEVEL TASK SIZE 3\np0\n"), "{row}");
    let mut chrome = Vec::new();
    export_chrome(&header, &records, &mut chrome).unwrap();
    let counts = check_chrome(std::str::from_utf8(&chrome).unwrap()).unwrap();
    assert_eq!(counts.get("C"), Some(&2), "{counts:?}");
}

#[test]
fn live_values_become_counters_and_typed_events() {
    let header = TraceHeader {
        version: 2,
        project: "live".into(),
        level: 3,
        entities: vec![EntityInfo {
            path: "fabric/r0".into(),
            type_name: "Router".into(),
            states: vec!["IDLE".into(), "BUSY".into()].into(),
            params: vec!["queued".into(), "op".into()].into(),
            ..Default::default()
        }],
        ..Default::default()
    };
    let at = |ns: u64| SimTime(ns * 1000);
    let records = vec![
        Record::State { time: at(0), entity: 0, state: 0 },
        Record::Param { time: at(1), entity: 0, param: 0, value: TraceValue::Int(3) },
        Record::Param { time: at(2), entity: 0, param: 1, value: TraceValue::Text("send r0>r1".into()) },
        Record::Param { time: at(3), entity: 0, param: 1, value: TraceValue::Text("idle".into()) },
        Record::Param { time: at(4), entity: 0, param: 1, value: TraceValue::Text("send r0>r1".into()) },
        Record::Param { time: at(5), entity: 0, param: 0, value: TraceValue::Float(f64::NAN) },
        Record::State { time: at(6), entity: 0, state: 1 },
    ];
    let (prv, pcf, row) = paraver_text(&header, &records, ParaverDate::default());
    let facts = check_paraver(&prv, &pcf, &row).unwrap_or_else(|e| panic!("{e}\n{prv}\n{pcf}"));
    // Parameters are numbered over sorted (type, name): Router.op is 0, Router.queued 1.
    assert_eq!(facts.events, [(10_001, 1), (30_000, 3)].into_iter().collect(), "{prv}");
    assert!(pcf.contains("30000      Router.op (text)\nVALUES\n1      send r0>r1\n2      idle\n"), "{pcf}");
    assert!(pcf.contains("10001      Router.queued (integer)\n"), "{pcf}");
    assert!(prv.contains("2:1:1:1:1:4:30000:1\n"), "{prv}");
    let mut chrome = Vec::new();
    export_chrome(&header, &records, &mut chrome).unwrap();
    let text = String::from_utf8(chrome).unwrap();
    let counts = check_chrome(&text).unwrap();
    assert_eq!((counts.get("C"), counts.get("i")), (Some(&1), Some(&4)), "{counts:?}");
    assert!(text.contains("\"name\":\"fabric/r0.queued\""), "{text}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn every_generated_trace_exports_to_valid_paraver_and_chrome((header, mut records) in testgen::full_trace(60)) {
        // The kernel emits records in time order; the generator's sends may run ahead.
        records.sort_by_key(Record::time);
        let (prv, pcf, row) = paraver_text(&header, &records, ParaverDate::default());
        let facts = check_paraver(&prv, &pcf, &row);
        prop_assert!(facts.is_ok(), "{:?}\n{}\n{}", facts.err(), prv, pcf);
        let mut chrome = Vec::new();
        export_chrome(&header, &records, &mut chrome).unwrap();
        let counts = check_chrome(std::str::from_utf8(&chrome).unwrap());
        prop_assert!(counts.is_ok(), "{:?}", counts.err());
    }
}

/// A long trace made on the fly: entity 0 enters one state at 0 and never leaves it (the worst case
/// for the state buffer), the others change state and send all the time.
fn long_records(count: u64) -> impl Iterator<Item = Record> {
    (0..count).map(|i| {
        let time = SimTime(i * 1000);
        let entity = 1 + (i % 7) as u32;
        match i {
            0 => Record::State { time, entity: 0, state: 1 },
            _ if i % 3 == 0 => Record::State { time, entity, state: (i % 2) as u16 },
            _ => Record::Send {
                time,
                depart: time,
                from: entity,
                from_port: 0,
                to: 0,
                to_port: 0,
                arrive: time + SimTime(500),
                bytes: 64,
                label: "".into(),
            },
        }
    })
}

#[test]
fn a_long_trace_streams_through_paraver_with_a_bounded_buffer() {
    let entity = |i: usize| EntityInfo {
        path: format!("e{i}"),
        states: vec!["IDLE".into(), "BUSY".into()].into(),
        ports: vec!["net".into()].into(),
        ..Default::default()
    };
    let header = TraceHeader {
        version: 2,
        project: "long".into(),
        level: 2,
        entities: (0..8).map(entity).collect(),
        ..Default::default()
    };
    let count = 5 * MAX_PENDING_LINES as u64;
    let mut writer = ParaverWriter::new(&header, Vec::new());
    for r in long_records(count) {
        writer.record(&r).unwrap();
    }
    let end = writer.finish(&header, ParaverDate::default()).unwrap();
    let stats = end.stats;
    // Held lines never exceed the limit plus one cut's worth of state lines (one per entity).
    assert!(stats.max_pending_lines <= MAX_PENDING_LINES + header.entities.len(), "{stats:?}");
    assert!(stats.cuts >= 3, "{stats:?}");
    let mut prv = format!("{}\n", end.prv_header);
    prv.push_str(std::str::from_utf8(&end.body).unwrap());
    let (mut pcf, mut row) = (Vec::new(), Vec::new());
    end.write_pcf(&mut pcf).unwrap();
    super::paraver_config::write_row(&header, &mut row).unwrap();
    let facts =
        check_paraver(&prv, &String::from_utf8(pcf).unwrap(), &String::from_utf8(row).unwrap()).unwrap();
    assert_eq!(facts.comms, count - count.div_ceil(3));
    // Entity 0's one state is written in pieces that cover the whole run without a gap.
    let pieces: Vec<(u64, u64)> = prv
        .lines()
        .filter_map(|l| l.strip_prefix("1:1:1:1:1:"))
        .map(|l| {
            let n: Vec<u64> = l.split(':').map(|x| x.parse().unwrap()).collect();
            (n[0], n[1])
        })
        .collect();
    assert_eq!(pieces.first().map(|p| p.0), Some(0));
    assert_eq!(pieces.last().map(|p| p.1), Some(facts.end_ns));
    assert!(pieces.windows(2).all(|w| w[0].1 == w[1].0), "{pieces:?}");
}
