//! Export to the Chrome trace-event JSON format, which Perfetto (ui.perfetto.dev) and
//! chrome://tracing open: one process per compound group (entities outside any group go to a
//! "network" process), one thread per entity whose state intervals are complete (`X`) events,
//! messages as flow arrows (`s` at departure on the sender, `f` at arrival on the receiver),
//! comments as instant events, numeric parameter updates and live values (router queues,
//! processor counters) as counters named `<entity path>.<parameter>`, text values as instants.
//! Timestamps are microseconds (fractional, from integer picoseconds). Written as it goes
//! ([`ChromeWriter`]): only each entity's open state is kept.

use std::borrow::Borrow;
use std::io::Write;
use std::path::Path;

use serde_json::{Value, json};

use super::exporter::{ExportError, ExportOptions, Exporter};
use super::read::{TraceRead, records};
use super::record::{Record, TraceHeader, TraceValue};
use crate::time::SimTime;

/// Process id of entities outside any group; group `g` is process `g + 2`.
const NETWORK_PID: u64 = 1;

fn pid_of(group: Option<u32>) -> u64 {
    group.map_or(NETWORK_PID, |g| u64::from(g) + 2)
}

fn us(t: SimTime) -> f64 {
    t.as_ps() as f64 / 1e6
}

struct Writer<'h, W: Write> {
    out: W,
    header: &'h TraceHeader,
    first: bool,
}

impl<W: Write> Writer<'_, W> {
    fn event(&mut self, event: &Value) -> std::io::Result<()> {
        if !self.first {
            self.out.write_all(b",\n")?;
        }
        self.first = false;
        serde_json::to_writer(&mut self.out, event).map_err(std::io::Error::other)
    }

    fn where_(&self, entity: u32) -> (u64, u64) {
        let group = self.header.entities.get(entity as usize).and_then(|e| e.group);
        (pid_of(group), u64::from(entity) + 1)
    }

    fn state(&mut self, entity: u32, (start, state): (SimTime, u16), end: SimTime) -> std::io::Result<()> {
        if end <= start {
            return Ok(());
        }
        let name = self
            .header
            .entities
            .get(entity as usize)
            .and_then(|e| e.states.get(usize::from(state)))
            .map_or_else(|| format!("state {state}"), Clone::clone);
        let (pid, tid) = self.where_(entity);
        self.event(&json!({
            "name": name, "cat": "state", "ph": "X", "pid": pid, "tid": tid,
            "ts": us(start), "dur": us(end) - us(start),
        }))
    }

    fn metadata(&mut self) -> std::io::Result<()> {
        let header = self.header;
        let mut used: Vec<Option<u32>> = header.entities.iter().map(|e| e.group).collect();
        used.sort_unstable();
        used.dedup();
        for group in used {
            let pid = pid_of(group);
            let name = group
                .and_then(|g| header.groups.get(g as usize))
                .map_or_else(|| "network".to_string(), |g| format!("{} ({})", g.path, g.type_name));
            self.event(
                &json!({"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": name}}),
            )?;
            self.event(&json!({"name": "process_sort_index", "ph": "M", "pid": pid, "tid": 0, "args": {"sort_index": pid}}))?;
        }
        for (i, e) in header.entities.iter().enumerate() {
            let (pid, tid) = self.where_(i as u32);
            self.event(
                &json!({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": e.path}}),
            )?;
            self.event(&json!({"name": "thread_sort_index", "ph": "M", "pid": pid, "tid": tid, "args": {"sort_index": i}}))?;
        }
        Ok(())
    }

    fn param(&mut self, time: SimTime, entity: u32, name: String, value: &TraceValue) -> std::io::Result<()> {
        let (pid, tid) = self.where_(entity);
        let path = self.header.entities.get(entity as usize).map_or("", |e| e.path.as_str());
        match value {
            TraceValue::Int(v) => self.event(&json!({
                "name": format!("{path}.{name}"), "cat": "value", "ph": "C", "pid": pid, "ts": us(time),
                "args": {name: v},
            })),
            TraceValue::Float(v) if v.is_finite() => self.event(&json!({
                "name": format!("{path}.{name}"), "cat": "value", "ph": "C", "pid": pid, "ts": us(time),
                "args": {name: v},
            })),
            other => self.event(&json!({
                "name": format!("{name} = {other}"), "cat": "param", "ph": "i", "s": "t",
                "pid": pid, "tid": tid, "ts": us(time),
            })),
        }
    }
}

/// A Chrome export in progress: [`ChromeWriter::new`] writes the metadata, [`ChromeWriter::record`]
/// one record at a time (in time order), [`ChromeWriter::finish`] the open states and the end. It
/// holds only each entity's open state, so a trace of any length exports in constant memory.
pub struct ChromeWriter<'h, W: Write> {
    w: Writer<'h, std::io::BufWriter<W>>,
    open: Vec<Option<(SimTime, u16)>>,
    end: SimTime,
    flow_id: u64,
}

impl<'h, W: Write> ChromeWriter<'h, W> {
    /// Start the document and write the process and thread names.
    pub fn new(header: &'h TraceHeader, out: W) -> std::io::Result<Self> {
        let mut w = Writer { out: std::io::BufWriter::new(out), header, first: true };
        writeln!(w.out, "{{\"traceEvents\":[")?;
        w.metadata()?;
        Ok(ChromeWriter { w, open: vec![None; header.entities.len()], end: SimTime::ZERO, flow_id: 0 })
    }

    /// One record.
    pub fn record(&mut self, record: &Record) -> std::io::Result<()> {
        let header = self.w.header;
        let w = &mut self.w;
        self.end = self.end.max(record.time());
        match record {
            Record::State { time, entity, state } => {
                if let Some(slot) = self.open.get_mut(*entity as usize)
                    && let Some(prev) = slot.replace((*time, *state))
                {
                    w.state(*entity, prev, *time)?;
                }
            }
            Record::Send { depart: time, from, to, arrive, bytes, label, .. } => {
                self.end = self.end.max(*arrive);
                self.flow_id += 1;
                let flow_id = self.flow_id;
                let name = if label.is_empty() { "message" } else { label.as_ref() };
                let (pid, tid) = w.where_(*from);
                w.event(&json!({
                    "name": name, "cat": "message", "ph": "s", "id": flow_id,
                    "pid": pid, "tid": tid, "ts": us(*time), "args": {"bytes": bytes},
                }))?;
                let (pid, tid) = w.where_(*to);
                w.event(&json!({
                    "name": name, "cat": "message", "ph": "f", "bp": "e", "id": flow_id,
                    "pid": pid, "tid": tid, "ts": us(*arrive),
                }))?;
            }
            Record::Comment { time, entity, text } => {
                let (pid, tid) = w.where_(*entity);
                w.event(&json!({
                    "name": text, "cat": "comment", "ph": "i", "s": "t", "pid": pid, "tid": tid, "ts": us(*time),
                }))?;
            }
            Record::Param { time, entity, param, value } => {
                let name = param_name(header, *entity, *param);
                w.param(*time, *entity, name, value)?;
            }
            Record::Array { time, entity, param, index, value } => {
                let name = format!("{}[{index}]", param_name(header, *entity, *param));
                w.param(*time, *entity, name, value)?;
            }
            // Counters show values; a read changes none, and instants for every read would bury
            // the timeline.
            Record::Summary { .. } | Record::ArrayRead { .. } => {}
        }
        Ok(())
    }

    /// Close the open states at the end of the trace and end the document.
    pub fn finish(mut self) -> std::io::Result<()> {
        let header = self.w.header;
        for (entity, slot) in std::mem::take(&mut self.open).into_iter().enumerate() {
            if let Some(prev) = slot {
                self.w.state(entity as u32, prev, self.end)?;
            }
        }
        write!(
            self.w.out,
            "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{}}}\n",
            json!({"project": header.project, "seed": header.seed.to_string(), "level": header.level})
        )?;
        self.w.out.flush()
    }
}

/// Write `records` (of `header`) as a Chrome trace-event JSON document to `out`.
pub fn export_chrome<R: Borrow<Record>>(
    header: &TraceHeader,
    records: impl IntoIterator<Item = R>,
    out: impl Write,
) -> std::io::Result<()> {
    let mut writer = ChromeWriter::new(header, out)?;
    for record in records {
        writer.record(record.borrow())?;
    }
    writer.finish()
}

/// The Chrome trace-event JSON exporter.
pub(crate) const EXPORTER: Exporter = Exporter {
    name: "chrome",
    extensions: &["json"],
    description: "Chrome trace-event JSON (opens in Perfetto and chrome://tracing)",
    export: export_chrome_file,
};

/// Write the remaining records of `reader` to the JSON file `output`.
fn export_chrome_file(
    reader: &mut dyn TraceRead,
    _options: &ExportOptions,
    output: &Path,
) -> Result<(), ExportError> {
    let path = output.display().to_string();
    let out =
        std::fs::File::create(output).map_err(|source| ExportError::Create { path: path.clone(), source })?;
    let failed = |source: std::io::Error| ExportError::Write { path: path.clone(), source: source.into() };
    let header = reader.header().clone();
    let mut writer = ChromeWriter::new(&header, out).map_err(failed)?;
    for record in records(reader) {
        writer.record(&record?).map_err(failed)?;
    }
    writer.finish().map_err(failed)
}

fn param_name(header: &TraceHeader, entity: u32, param: u16) -> String {
    header
        .entities
        .get(entity as usize)
        .and_then(|e| e.params.get(usize::from(param)))
        .map_or_else(|| format!("param {param}"), Clone::clone)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::trace::text_tests::{EXAMPLE, read_all};

    #[test]
    fn example_exports_states_flows_comments_and_counters() {
        let (header, mut records) = read_all(EXAMPLE).unwrap();
        records.push(Record::State { time: SimTime(40), entity: 0, state: 0 });
        records.push(Record::State { time: SimTime(2_000_000), entity: 1, state: 1 });
        records.push(Record::Send {
            time: SimTime(2_000_000),
            depart: SimTime(2_000_000),
            from: 1,
            from_port: 0,
            to: 0,
            to_port: 0,
            arrive: SimTime(3_500_000),
            bytes: 8,
            label: "".into(),
        });
        let mut out = Vec::new();
        export_chrome(&header, &records, &mut out).unwrap();
        let doc: Value = serde_json::from_slice(&out).unwrap();
        let events = doc["traceEvents"].as_array().unwrap();
        let mut by_phase: BTreeMap<&str, usize> = BTreeMap::new();
        for e in events {
            *by_phase.entry(e["ph"].as_str().unwrap()).or_default() += 1;
        }
        // 2 processes × 2 + 3 threads × 2 metadata; p0 BUSY 0–40 and IDLE 40–3.5 µs, p1 BUSY
        // 2–3.5 µs; 2 flows; 1 comment; 1 integer counter and 1 real counter.
        let expected: BTreeMap<&str, usize> =
            [("M", 10), ("X", 3), ("s", 2), ("f", 2), ("i", 1), ("C", 2)].into_iter().collect();
        assert_eq!(by_phase, expected);
        let find = |ph: &str, id: u64| events.iter().find(|e| e["ph"] == ph && e["id"] == id).unwrap();
        let (s, f) = (find("s", 1), find("f", 1));
        assert_eq!((s["tid"].as_u64(), f["tid"].as_u64()), (Some(1), Some(3)));
        assert_eq!((s["pid"].as_u64(), f["pid"].as_u64()), (Some(1), Some(2)));
        assert_eq!((s["ts"].as_f64(), f["ts"].as_f64()), (Some(1e-5), Some(2e-5)));
        assert_eq!(s["name"], f["name"]);
        assert_eq!(find("f", 2)["ts"].as_f64(), Some(3.5));
        let idle = events.iter().find(|e| e["ph"] == "X" && e["name"] == "IDLE").unwrap();
        assert_eq!((idle["ts"].as_f64(), idle["dur"].as_f64()), (Some(4e-5), Some(3.5 - 4e-5)));
        let group =
            events.iter().find(|e| e["ph"] == "M" && e["name"] == "process_name" && e["pid"] == 2).unwrap();
        assert_eq!(group["args"]["name"], "fabric (Fabric)");
    }
}
