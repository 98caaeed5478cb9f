//! Export to OTF2, the trace format of Score-P that Vampir, Scalasca and `otf2-print` read: an
//! archive of an anchor file `<name>.otf2`, the global definitions `<name>.def` and a directory
//! `<name>/` with each location's events (`<n>.evt`) and (empty) local definitions (`<n>.def`).
//! Written in Rust from the format's encoding (`otf2_encode`); no OTF2 library is needed.
//!
//! Each entity is one location (a thread of its own process, under its compound group in the
//! system tree). A state is a region entered when the state starts and left when the next one
//! does; a processor's states that are MPI calls are MPI regions (`MPI_Allreduce`), and its
//! collective states also carry MPI collective begin/end records on the ranks' communicator. Every
//! message of the trace (one hop from an entity to the next) is an MPI send on the sender when it
//! is issued and an MPI receive on the receiver when it arrives, on the communicator of all
//! entities, tagged with the sending port. Numeric live values are metrics. Comments, text values,
//! memory arrays and summaries have no OTF2 counterpart here and are left out. Times are integer
//! picoseconds (a timer of 10¹² ticks per second).
//!
//! Streaming: records are read one at a time; a receive waits in a queue until the trace's time
//! reaches its arrival, so what is held is the messages in flight, the open region of each entity
//! and one small buffer per location (see `otf2_encode`) — the same whatever the trace's length.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::exporter::{ExportError, ExportFailure, ExportOptions, Exporter};
use super::otf2_defs::{Definitions, LINKS_COMM, RANKS_COMM, StateRegion, is_collective_state};
use super::otf2_encode::{
    ChunkKind, ChunkedFile, END_OF_BUFFER, END_OF_FILE, put_str, put_u32, put_u64, record,
};
use super::read::{TraceRead, records};
use super::record::{Record, TraceHeader, TraceValue};

/// Bytes of an event chunk (the OTF2 library's usual size).
const EVENT_CHUNK_BYTES: u64 = 1 << 20;
/// Bytes of a definition chunk.
const DEFINITION_CHUNK_BYTES: u64 = 4 << 20;

/// Event record identifiers.
const ENTER: u8 = 12;
const LEAVE: u8 = 13;
const MPI_SEND: u8 = 14;
const MPI_RECV: u8 = 18;
const MPI_COLLECTIVE_BEGIN: u8 = 22;
const MPI_COLLECTIVE_END: u8 = 23;
const METRIC: u8 = 31;

/// What an export wrote, for tests and messages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Otf2Stats {
    /// Events per kind (`ENTER`, `MPI_SEND`, … as `otf2-print` names them).
    pub events: BTreeMap<&'static str, u64>,
    /// Most receives waiting for their arrival at once.
    pub max_in_flight: usize,
}

/// The files of an archive: the anchor path given (`run.otf2`), or `traces.otf2` inside a
/// directory given without that extension.
pub fn otf2_anchor(output: &Path) -> PathBuf {
    if output.extension().is_some_and(|e| e == "otf2") {
        output.to_path_buf()
    } else {
        output.join("traces.otf2")
    }
}

/// A receive waiting for its arrival: receiver, sender, tag, bytes.
type PendingRecv = (u32, u32, u32, u64);

/// An OTF2 export in progress.
pub struct Otf2Writer {
    defs: Definitions,
    locations: Vec<ChunkedFile>,
    open: Vec<Option<StateRegion>>,
    in_flight: BTreeMap<(u64, u64), PendingRecv>,
    seq: u64,
    end_ps: u64,
    stats: Otf2Stats,
}

impl Otf2Writer {
    /// Start an export of a trace with `header` into the archive directory `dir` (created).
    pub fn new(header: &TraceHeader, dir: &Path) -> std::io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        let locations = (0..header.entities.len())
            .map(|e| ChunkedFile::create(&dir.join(format!("{e}.evt")), ChunkKind::Events, EVENT_CHUNK_BYTES))
            .collect::<std::io::Result<Vec<_>>>()?;
        Ok(Otf2Writer {
            defs: Definitions::new(header),
            locations,
            open: vec![None; header.entities.len()],
            in_flight: BTreeMap::new(),
            seq: 0,
            end_ps: 0,
            stats: Otf2Stats::default(),
        })
    }

    fn event(&mut self, entity: u32, time_ps: u64, kind: &'static str, bytes: &[u8]) -> std::io::Result<()> {
        *self.stats.events.entry(kind).or_default() += 1;
        self.locations[entity as usize].event(time_ps, bytes)
    }

    fn enter(&mut self, entity: u32, time_ps: u64, state: StateRegion) -> std::io::Result<()> {
        let mut f = vec![ENTER];
        put_u32(&mut f, state.region);
        self.event(entity, time_ps, "ENTER", &f)?;
        if state.collective.is_some() {
            self.event(entity, time_ps, "MPI_COLLECTIVE_BEGIN", &record(MPI_COLLECTIVE_BEGIN, &[]))?;
        }
        Ok(())
    }

    fn leave(&mut self, entity: u32, time_ps: u64, state: StateRegion) -> std::io::Result<()> {
        if let Some(op) = state.collective {
            let mut f = vec![op];
            put_u32(&mut f, RANKS_COMM);
            put_u32(&mut f, u32::MAX); // no root known
            put_u64(&mut f, 0);
            put_u64(&mut f, 0);
            self.event(entity, time_ps, "MPI_COLLECTIVE_END", &record(MPI_COLLECTIVE_END, &f))?;
        }
        let mut f = vec![LEAVE];
        put_u32(&mut f, state.region);
        self.event(entity, time_ps, "LEAVE", &f)
    }

    /// Write the receives that arrive by `time_ps`.
    fn arrivals(&mut self, time_ps: u64) -> std::io::Result<()> {
        while let Some(entry) = self.in_flight.first_entry() {
            if entry.key().0 > time_ps {
                break;
            }
            let ((at, _), (to, from, tag, bytes)) = entry.remove_entry();
            let mut f = Vec::new();
            put_u32(&mut f, from);
            put_u32(&mut f, LINKS_COMM);
            put_u32(&mut f, tag);
            put_u64(&mut f, bytes);
            self.event(to, at, "MPI_RECV", &record(MPI_RECV, &f))?;
        }
        Ok(())
    }

    /// One record (records must come in time order).
    pub fn record(&mut self, header: &TraceHeader, r: &Record) -> std::io::Result<()> {
        let now = r.time().as_ps();
        self.end_ps = self.end_ps.max(now);
        self.arrivals(now)?;
        let entities = self.locations.len() as u32;
        match r {
            Record::State { entity, state, .. } if *entity < entities => {
                let Some(next) = self.defs.state_regions[*entity as usize].get(usize::from(*state)).copied()
                else {
                    return Ok(());
                };
                if let Some(open) = self.open[*entity as usize].take() {
                    self.leave(*entity, now, open)?;
                }
                self.enter(*entity, now, next)?;
                self.open[*entity as usize] = Some(next);
            }
            Record::Send { from, from_port, to, arrive, bytes, .. } if *from < entities && *to < entities => {
                let tag = u32::from(*from_port);
                let mut f = Vec::new();
                put_u32(&mut f, *to);
                put_u32(&mut f, LINKS_COMM);
                put_u32(&mut f, tag);
                put_u64(&mut f, *bytes);
                self.event(*from, now, "MPI_SEND", &record(MPI_SEND, &f))?;
                let at = arrive.as_ps().max(now);
                self.end_ps = self.end_ps.max(at);
                self.in_flight.insert((at, self.seq), (*to, *from, tag, *bytes));
                self.seq += 1;
                self.stats.max_in_flight = self.stats.max_in_flight.max(self.in_flight.len());
            }
            Record::Param { entity, param, value, .. } if *entity < entities => {
                let name = header.entities[*entity as usize].params.get(usize::from(*param));
                let (Some(name), Some((real, bits))) = (name, metric_value(value)) else { return Ok(()) };
                let metric = self.defs.metric(name, real);
                let mut f = Vec::new();
                put_u32(&mut f, metric);
                f.push(1);
                f.push(if real { 10 } else { 8 });
                put_u64(&mut f, bits);
                self.event(*entity, now, "METRIC", &record(METRIC, &f))?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Deliver the receives still in flight, leave the open regions at the end of the trace, and
    /// write the definitions and the anchor file (`anchor`; the global definitions beside it).
    pub fn finish(mut self, header: &TraceHeader, anchor: &Path) -> std::io::Result<Otf2Stats> {
        self.arrivals(u64::MAX)?;
        let end = self.end_ps;
        for e in 0..self.open.len() {
            if let Some(open) = self.open[e].take() {
                self.leave(e as u32, end, open)?;
            }
        }
        let events: Vec<u64> = self.locations.iter().map(ChunkedFile::records).collect();
        let dir = anchor.with_extension("");
        for (e, file) in self.locations.into_iter().enumerate() {
            file.finish()?;
            ChunkedFile::create(
                &dir.join(format!("{e}.def")),
                ChunkKind::Definitions,
                DEFINITION_CHUNK_BYTES,
            )?
            .finish()?;
        }
        let mut global = ChunkedFile::create(
            &anchor.with_extension("def"),
            ChunkKind::Definitions,
            DEFINITION_CHUNK_BYTES,
        )?;
        self.defs.write(header, &events, end, &mut global)?;
        let definitions = global.records();
        global.finish()?;
        std::fs::write(anchor, anchor_bytes(header, events.len() as u64, definitions))?;
        Ok(self.stats)
    }
}

/// A numeric value as a metric: whether it is real, and its bits.
fn metric_value(value: &TraceValue) -> Option<(bool, u64)> {
    match value {
        TraceValue::Int(v) => Some((false, *v as u64)),
        TraceValue::Float(v) => Some((true, v.to_bits())),
        TraceValue::Text(_) => None,
    }
}

/// The anchor file: format and library version, chunk sizes, counts, creator, and a trace id
/// derived from the project and seed (so the same trace always exports to the same bytes).
fn anchor_bytes(header: &TraceHeader, locations: u64, definitions: u64) -> Vec<u8> {
    let mut a = vec![3, b'B'];
    put_str(&mut a, "OTF2");
    a.extend_from_slice(&[3, 2, 3, 0, 2]); // anchor format 3, trace format 2, OTF2 3.0.2
    a.extend_from_slice(&EVENT_CHUNK_BYTES.to_le_bytes());
    a.extend_from_slice(&DEFINITION_CHUNK_BYTES.to_le_bytes());
    a.extend_from_slice(&[1, 1]); // POSIX files, no compression
    a.extend_from_slice(&locations.to_le_bytes());
    a.extend_from_slice(&definitions.to_le_bytes());
    put_str(&mut a, ""); // machine
    put_str(&mut a, "hase");
    put_str(&mut a, ""); // description
    a.extend_from_slice(&0u32.to_le_bytes()); // properties
    let id = blake3::hash(format!("{}\n{}", header.project, header.seed).as_bytes());
    let id: [u8; 8] = id.as_bytes()[..8].try_into().unwrap_or_default();
    a.extend_from_slice(&id);
    a.extend_from_slice(&0u32.to_le_bytes()); // snapshots
    a.extend_from_slice(&0u32.to_le_bytes()); // thumbnails
    a.extend_from_slice(&[END_OF_FILE, END_OF_BUFFER, 0]);
    a
}

/// The OTF2 exporter.
pub(crate) const EXPORTER: Exporter = Exporter {
    name: "otf2",
    extensions: &["otf2", "def"],
    description: "OTF2 archive (`<name>.otf2`, `.def`, `<name>/`) for Vampir, Scalasca, otf2-print",
    export: export_otf2,
};

/// Write the remaining records of `reader` as an OTF2 archive at `output` (see [`otf2_anchor`]).
fn export_otf2(
    reader: &mut dyn TraceRead,
    _options: &ExportOptions,
    output: &Path,
) -> Result<(), ExportError> {
    let header = reader.header().clone();
    export_otf2_records::<ExportFailure>(
        &header,
        records(reader).map(|r| r.map_err(ExportFailure::from)),
        output,
    )
    .map(drop)
    .map_err(|source| ExportError::Write { path: otf2_anchor(output).display().to_string(), source })
}

/// Export `records` of `header` to the archive at `output`, returning what was written.
pub fn export_otf2_records<E: From<std::io::Error>>(
    header: &TraceHeader,
    records: impl IntoIterator<Item = Result<Record, E>>,
    output: &Path,
) -> Result<Otf2Stats, E> {
    let anchor = otf2_anchor(output);
    let mut writer = Otf2Writer::new(header, &anchor.with_extension(""))?;
    for r in records {
        writer.record(header, &r?)?;
    }
    Ok(writer.finish(header, &anchor)?)
}

/// The events an OTF2 export of `records` holds, by kind as `otf2-print` names them, counted from
/// the trace alone (the oracle the export is checked against): each state change leaves the previous
/// state and enters the next (a collective call also begins and ends), each message is a send and a
/// receive, each numeric live value a metric.
pub fn otf2_event_counts<'r>(
    header: &TraceHeader,
    records: impl IntoIterator<Item = &'r Record>,
) -> BTreeMap<String, u64> {
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    let mut add = |kinds: &[&str]| {
        for kind in kinds {
            *counts.entry((*kind).to_string()).or_default() += 1;
        }
    };
    for r in records {
        match r {
            Record::State { entity, state, .. } => {
                let entity = header.entities.get(*entity as usize);
                let Some(name) = entity.and_then(|e| e.states.get(usize::from(*state))) else { continue };
                add(&["ENTER", "LEAVE"]);
                if is_collective_state(name) {
                    add(&["MPI_COLLECTIVE_BEGIN", "MPI_COLLECTIVE_END"]);
                }
            }
            Record::Send { from, to, .. } if header.entities.len() > (*from.max(to)) as usize => {
                add(&["MPI_SEND", "MPI_RECV"]);
            }
            Record::Param { entity, param, value: TraceValue::Int(_) | TraceValue::Float(_), .. }
                if header
                    .entities
                    .get(*entity as usize)
                    .is_some_and(|e| usize::from(*param) < e.params.len()) =>
            {
                add(&["METRIC"]);
            }
            _ => {}
        }
    }
    counts
}
