//! End-to-end tests with the real kernel: a small run traced to the text and compact writers and
//! to memory at once; both files read back to exactly the in-memory records (including message
//! departures delayed behind a busy link, which make record times non-monotone), and the trace
//! summary agrees with the kernel's own statistics, which are computed independently.

use std::sync::{Arc, Mutex};

use super::read::{TraceRead, records};
use super::{
    BinaryTraceReader, BinaryTraceWriter, MemorySink, Record, TeeSink, TextTraceReader, TextTraceWriter,
    TraceLevel, TraceSummary, TraceValue, fingerprint,
};
use crate::elaborate::{Endpoint, FlatEntity, FlatLink, FlatModel, PortIndex};
use crate::kernel::{Behaviour, Ctx, Message, RunControl, SimConfig, Simulation};
use crate::time::SimTime;

struct Bytes(u64);

impl Message for Bytes {
    fn size_bytes(&self) -> u64 {
        self.0
    }
    fn write_label(&self, out: &mut String) {
        out.push_str(&self.0.to_string());
        out.push_str(" bytes");
    }
}

/// Sends a burst of three messages at time 0 (they queue on the link), then counts arrivals.
struct Node {
    received: i64,
}

const IDLE: u16 = 0;
const BUSY: u16 = 1;

impl Behaviour<Bytes> for Node {
    fn init(&mut self, ctx: &mut Ctx<'_, Bytes>) {
        ctx.set_state(BUSY);
        for size in [1000, 2000, 500] {
            ctx.send(0, Bytes(size));
        }
        ctx.schedule(SimTime::from_ns(1), 0);
    }
    fn on_timer(&mut self, ctx: &mut Ctx<'_, Bytes>, _key: u64) {
        ctx.set_state(IDLE);
    }
    fn on_message(&mut self, ctx: &mut Ctx<'_, Bytes>, _port: PortIndex, msg: Bytes) {
        self.received += 1;
        ctx.set_state(BUSY);
        ctx.set_param(0, TraceValue::Int(self.received));
        // A two-slot history of sizes: read the slot about to be overwritten, then update it.
        let slot = (self.received % 2) as u32;
        ctx.read_array(1, slot);
        ctx.set_array(1, slot, TraceValue::Int(msg.0 as i64));
        ctx.comment(|| format!("got {} bytes", msg.0));
        ctx.schedule(SimTime::from_ns(2), 0);
    }
    fn traced_params(&self) -> Vec<String> {
        vec!["received".into(), "sizes".into()]
    }
    fn summary(&self) -> Vec<(String, TraceValue)> {
        vec![("received".into(), TraceValue::Int(self.received))]
    }
}

fn model() -> FlatModel {
    let entity = |name: &str| {
        let mut e = FlatEntity::new(&format!("net/{name}"), "node", ["io"], "bytes", &["IDLE", "BUSY"]);
        e.set_type_name("Node");
        e.set_link(0, Some(0));
        e
    };
    FlatModel {
        project: "burst".into(),
        entities: vec![entity("a"), entity("b")],
        links: vec![FlatLink {
            ends: [Endpoint { entity: 0, port: 0 }, Endpoint { entity: 1, port: 0 }],
            latency: SimTime::from_ns(5),
            bandwidth_bytes_per_s: 1_000_000_000,
            forward: true,
            backward: true,
        }],
        ..FlatModel::default()
    }
}

#[test]
fn kernel_trace_reads_back_from_every_form_and_matches_the_statistics() {
    let text = Arc::new(Mutex::new(TextTraceWriter::new(Vec::new())));
    let binary = Arc::new(Mutex::new(BinaryTraceWriter::new(Vec::new()).with_block_records(4)));
    let memory = Arc::new(Mutex::new(MemorySink::default()));
    let sink = TeeSink(vec![Box::new(text.clone()), Box::new(binary.clone()), Box::new(memory.clone())]);
    let config =
        SimConfig { seed: 9, level: TraceLevel::COMMENTS, sink: Some(Box::new(sink)), live_values: true };
    let behaviours: Vec<Box<dyn Behaviour<Bytes>>> =
        vec![Box::new(Node { received: 0 }), Box::new(Node { received: 0 })];
    let mut sim = Simulation::new(Arc::new(model()), behaviours, config).unwrap();
    let outcome = sim.run(RunControl::default());
    let report = sim.finish(outcome);
    assert!(report.trace_error.is_none());

    let memory = memory.lock().unwrap();
    // All three messages of a burst are sent at time 0; each leaves only when the link is free
    // again: at 0, 1 us and 3 us (1000 + 2000 bytes at 1 byte/ns). Records stay in time order.
    let departures: Vec<(u64, u64)> = memory
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Send { from: 0, time, depart, .. } => Some((time.as_ps(), depart.as_ps())),
            _ => None,
        })
        .collect();
    assert_eq!(departures, [(0, 0), (0, 1_000_000), (0, 3_000_000)]);
    assert!(memory.records.windows(2).all(|w| w[0].time() <= w[1].time()));

    let text_bytes = text.lock().unwrap().bytes_written();
    assert!(text_bytes > 0);
    let text = std::mem::replace(&mut *text.lock().unwrap(), TextTraceWriter::new(Vec::new()));
    let text = text.into_inner().unwrap();
    let mut reader = TextTraceReader::new(&text[..], "burst.htrace").unwrap();
    let from_text: Vec<Record> = records(&mut reader).collect::<Result<_, _>>().unwrap();
    assert_eq!(reader.header(), &memory.header);
    assert_eq!(from_text, memory.records);

    let binary = std::mem::replace(&mut *binary.lock().unwrap(), BinaryTraceWriter::new(Vec::new()));
    let binary = binary.into_inner().unwrap();
    let mut reader = BinaryTraceReader::new(&binary[..], "burst.htb").unwrap();
    let from_binary: Vec<Record> = records(&mut reader).collect::<Result<_, _>>().unwrap();
    assert_eq!(from_binary, memory.records);
    assert_eq!(fingerprint(reader.header(), &from_binary), fingerprint(&memory.header, &memory.records));

    // The kernel's statistics are an independent account of the same run.
    let summary = TraceSummary::of(&memory.header, &memory.records);
    // Each node receives the other's three messages: one update, read and element write each.
    assert_eq!((summary.counts.params, summary.counts.arrays, summary.counts.array_reads), (6, 6, 6));
    let reads: Vec<(u32, u32)> = memory
        .records
        .iter()
        .filter_map(|r| match r {
            Record::ArrayRead { entity, param: 1, index, .. } => Some((*entity, *index)),
            _ => None,
        })
        .collect();
    // Slots 1, 0, 1 in arrival order at each node (arrivals interleave between the two nodes).
    let mut per_node = [Vec::new(), Vec::new()];
    for (e, i) in reads {
        per_node[e as usize].push(i);
    }
    assert_eq!(per_node, [vec![1, 0, 1], vec![1, 0, 1]]);
    assert_eq!(summary.end.as_ps(), report.stats.makespan_ps);
    for (e, info) in memory.header.entities.iter().enumerate() {
        let stats = &report.stats.entities[&info.path];
        for (s, name) in info.states.iter().enumerate() {
            let kernel = stats.state_time_ps.get(name.as_str()).copied().unwrap_or(0);
            assert_eq!(summary.time_in_state[e][s].as_ps(), kernel, "{} {name}", info.path);
        }
        let port = &stats.ports["io"];
        let traffic = summary.traffic[e];
        assert_eq!((traffic.messages_sent, traffic.bytes_sent), (port.sent_msgs, port.sent_bytes));
        assert_eq!((traffic.messages_received, traffic.bytes_received), (port.recv_msgs, port.recv_bytes));
    }
}

#[test]
fn parameter_records_are_not_built_above_level_3() {
    let memory = Arc::new(Mutex::new(MemorySink::default()));
    let config = SimConfig {
        seed: 9,
        level: TraceLevel::STATES,
        sink: Some(Box::new(memory.clone())),
        live_values: true,
    };
    let behaviours: Vec<Box<dyn Behaviour<Bytes>>> =
        vec![Box::new(Node { received: 0 }), Box::new(Node { received: 0 })];
    let mut sim = Simulation::new(Arc::new(model()), behaviours, config).unwrap();
    let outcome = sim.run(RunControl::default());
    sim.finish(outcome);
    let memory = memory.lock().unwrap();
    let summary = TraceSummary::of(&memory.header, &memory.records);
    assert_eq!((summary.counts.params, summary.counts.arrays, summary.counts.array_reads), (0, 0, 0));
    assert!(summary.counts.states > 0, "the level-4 run still traces states");
}
