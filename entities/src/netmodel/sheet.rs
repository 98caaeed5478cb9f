//! The data-sheet behavioural network model: a whole network as one entity whose times come from an
//! MPI data sheet — the thesis's "reverse profiling" inside the simulator (seed `002` chapters 3, 5
//! and §6.4). Processors attached to it run in sheet mode (`processor::sheet`).
//!
//! * Point-to-point: each message comes in whole as one zero-byte packet stamped with its transfer
//!   start (its send start, or later behind the sender's previous message to the same rank:
//!   `processor::sheet`); it leaves for the destination rank's port so that it arrives at that
//!   start + `recv`(d) (`selfsend`(d) for a message to its sender itself, on a sheet with
//!   `selfsend`), whatever the outer links' latencies (never earlier than it could).
//! * Collectives: every rank sends `CollectiveEnter`; when all p ranks have entered collective
//!   number s, each is released with `CollectiveDone` arriving at max(entry times) + t(p, bytes) of
//!   the collective's sheet function. Entries that disagree (kind, bytes or root) are an error
//!   reported in the trace and in the deadlock report, naming the ranks. A collective on a
//!   communicator other than MPI_COMM_WORLD is numbered within its communicator and released when
//!   all its members have entered. A collective with per-rank counts (entries with `blocks` > 0)
//!   is timed for the mean block: the entries' shares summed ÷ `blocks`.
//!
//! p is the number of ranks in the run, or in the communicator. Contention is not modelled beyond a
//! rank's messages to one receiver following one another: the sheet's figures are the delays
//! measured on the real machine.
//!
//! Live values (level 3, `catalogue::NETWORK_MODEL_LIVE`): `in_flight` (messages and releases on
//! their way out), `entered` (ranks waiting in unreleased collectives) and `sheet_lookups[i]`, the
//! uses of sheet entry i (0 point-to-point, 1 + k for `CollectiveKind::ALL[k]`), read at each
//! lookup and updated after it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::Arc;

use hase_engine::elaborate::FlatEntity;
use hase_engine::kernel::DirectDeliveries;
use hase_engine::time::SimTime;
use hase_engine::trace::{TraceLevel, TraceValue};
use hase_engine::{Behaviour, Ctx, Message as _, PortIndex};

use super::datasheet::{DataSheet, DataSheetError, Estimate, PointToPoint};
use crate::catalogue::NETWORK_MODEL;
use crate::message::{CollectiveCall, NetMsg, Packet};
use crate::mpi::op::CollectiveKind;

/// The data sheet and band a network model runs on at its data-sheet level (`model =
/// "datasheet"`): its `sheet` and `band` parameters, `cray_t3d` and `avg` when unset. `None` for
/// any other entity.
pub fn sheet_and_band(e: &FlatEntity) -> Option<(&str, &str)> {
    (&**e.behaviour() == NETWORK_MODEL && e.text("model") == Some("datasheet"))
        .then(|| (e.text("sheet").unwrap_or("cray_t3d"), e.text("band").unwrap_or("avg")))
}

const IDLE: u16 = 0;
const BUSY: u16 = 1;

/// Traced parameter numbers, in `catalogue::NETWORK_MODEL_LIVE` order.
const IN_FLIGHT: u16 = 0;
const ENTERED: u16 = 1;
const SHEET_LOOKUPS: u16 = 2;

/// The `sheet_lookups` element of a collective kind (0 is point-to-point).
fn lookup_entry(kind: CollectiveKind) -> u32 {
    CollectiveKind::ALL.iter().position(|k| *k == kind).map_or(0, |i| i as u32 + 1)
}

/// A collective: its communicator's number (0 for MPI_COMM_WORLD) and its number there.
type CollectiveKey = (u32, u64);

/// `#3`, or `#3 on communicator 2`.
fn label((comm, seq): CollectiveKey) -> String {
    if comm == 0 { format!("#{seq}") } else { format!("#{seq} on communicator {comm}") }
}

/// The entries so far of one collective (by rank: the call and when the rank entered).
type Entries = BTreeMap<u32, (CollectiveCall, SimTime)>;

/// A network simulated by its MPI data sheet.
pub struct SheetModel {
    sheet: Arc<DataSheet>,
    estimate: Estimate,
    processes: u32,
    rank_port: Vec<Option<PortIndex>>,
    inbound_latency: Vec<SimTime>,
    gathering: BTreeMap<CollectiveKey, Entries>,
    mismatched: BTreeSet<CollectiveKey>,
    errors: Vec<String>,
    in_flight: u64,
    delivered: u64,
    collectives: u64,
    unroutable: u64,
    /// Uses of each sheet entry (see [`lookup_entry`]).
    lookups: [u64; 1 + CollectiveKind::ALL.len()],
    /// `in_flight` and `entered` as last traced.
    shown: Option<(u64, usize)>,
    /// Messages on their way out by timer key: sent when they leave (see [`SheetModel::on_timer`]).
    leaving: BTreeMap<u64, (PortIndex, NetMsg)>,
    next_key: u64,
}

impl SheetModel {
    /// A model timing with `estimate` of `sheet` for `processes` ranks. `rank_port[r]` is the port
    /// messages for rank `r` leave by; `inbound_latency[port]` is the latency of the link messages
    /// arrive by on `port` (so that a rank's entry time into a collective can be recovered).
    pub fn new(
        sheet: Arc<DataSheet>,
        estimate: Estimate,
        processes: u32,
        rank_port: Vec<Option<PortIndex>>,
        inbound_latency: Vec<SimTime>,
    ) -> Self {
        SheetModel {
            sheet,
            estimate,
            processes,
            rank_port,
            inbound_latency,
            gathering: BTreeMap::new(),
            mismatched: BTreeSet::new(),
            errors: Vec::new(),
            in_flight: 0,
            delivered: 0,
            collectives: 0,
            unroutable: 0,
            lookups: [0; 1 + CollectiveKind::ALL.len()],
            shown: None,
            leaving: BTreeMap::new(),
            next_key: 0,
        }
    }

    /// The model consults sheet entry `entry`: trace the read and the new use count.
    fn looked_up(&mut self, ctx: &mut Ctx<'_, NetMsg>, entry: u32) {
        ctx.read_array(SHEET_LOOKUPS, entry);
        if let Some(n) = self.lookups.get_mut(entry as usize) {
            *n += 1;
            let n = *n;
            ctx.set_array(SHEET_LOOKUPS, entry, TraceValue::Int(n as i64));
        }
    }

    fn error(&mut self, ctx: &mut Ctx<'_, NetMsg>, problem: impl std::fmt::Display) {
        let message = problem.to_string();
        ctx.comment(|| format!("error: {message}"));
        self.errors.push(message);
    }

    /// Send `msg` on `out` so that it arrives at `due`, or as soon as it can after that. It is
    /// handed to the link when it leaves (a timer), not now with a delay: the kernel reserves a
    /// link in the order sends are called, and a message due sooner must not queue behind one
    /// called earlier but due later.
    fn send_arriving_at(&mut self, ctx: &mut Ctx<'_, NetMsg>, out: PortIndex, due: SimTime, msg: NetMsg) {
        let leave = due.saturating_sub(ctx.link_latency(out)).max(ctx.now());
        let key = self.next_key;
        self.next_key += 1;
        self.leaving.insert(key, (out, msg));
        self.in_flight += 1;
        ctx.schedule_at(leave, key);
    }

    /// How long after its transfer start a message arrives: `recv`(d), or `selfsend`(d) for a
    /// message to its sender itself on a sheet with `selfsend`.
    fn transit(&self, packet: &Packet) -> Result<SimTime, DataSheetError> {
        let bytes = packet.msg_bytes;
        if packet.src == packet.dst {
            match self.sheet.point_to_point_time(PointToPoint::SelfSend, bytes, self.estimate) {
                Err(DataSheetError::UnknownFunction { .. }) => {}
                copy => return copy,
            }
        }
        self.sheet.point_to_point_time(PointToPoint::Recv, bytes, self.estimate)
    }

    fn forward(&mut self, ctx: &mut Ctx<'_, NetMsg>, packet: Packet) {
        let Some(out) = self.rank_port.get(packet.dst as usize).copied().flatten() else {
            self.unroutable += 1;
            let text =
                format!("no port leads to rank {}: message from rank {} dropped", packet.dst, packet.src);
            return self.error(ctx, text);
        };
        self.looked_up(ctx, 0);
        let transit = match self.transit(&packet) {
            Ok(t) => t,
            Err(e) => return self.error(ctx, e),
        };
        self.delivered += 1;
        self.send_arriving_at(ctx, out, packet.injected + transit, NetMsg::Packet(packet));
    }

    fn enter(&mut self, ctx: &mut Ctx<'_, NetMsg>, port: PortIndex, call: CollectiveCall) {
        // Entries carry the caller's processor rank (its network address), which may exceed the
        // number of ranks taking part when the workload is placed on some of the processors.
        if call.rank as usize >= self.rank_port.len() {
            let text = format!(
                "collective entry from rank {} but there are {} ranks",
                call.rank,
                self.rank_port.len()
            );
            return self.error(ctx, text);
        }
        let latency = self.inbound_latency.get(usize::from(port)).copied().unwrap_or_default();
        let entered = ctx.now().saturating_sub(latency);
        let key = (call.comm, call.seq);
        let entries = self.gathering.entry(key).or_default();
        if entries.contains_key(&call.rank) {
            let text = format!("rank {} entered collective {} twice", call.rank, label(key));
            return self.error(ctx, text);
        }
        entries.insert(call.rank, (call, entered));
        if !agree(entries) {
            // Reported once in the trace; the deadlock report gives the final picture.
            if self.mismatched.insert(key) {
                let report = mismatch_report(key, entries);
                ctx.comment(|| format!("error: {report}"));
            }
            return;
        }
        let ranks = if call.ranks == 0 { self.processes } else { call.ranks };
        if entries.len() == ranks as usize {
            self.release(ctx, key);
        }
    }

    /// Every rank has entered collective `seq`: release each at the last entry plus the sheet's time.
    fn release(&mut self, ctx: &mut Ctx<'_, NetMsg>, key: CollectiveKey) {
        let Some(entries) = self.gathering.remove(&key) else { return };
        let Some((call, _)) = entries.values().next().copied() else { return };
        let last = entries.values().map(|(_, t)| *t).max().unwrap_or_default();
        self.looked_up(ctx, lookup_entry(call.kind));
        let processes = if call.ranks == 0 { self.processes } else { call.ranks };
        let bytes = if call.blocks == 0 {
            call.bytes
        } else {
            entries.values().map(|(c, _)| c.bytes).sum::<u64>() / u64::from(call.blocks)
        };
        let time = match self.sheet.collective_time(call.kind, processes, bytes, self.estimate) {
            Ok(t) => t,
            Err(e) => return self.error(ctx, e),
        };
        let done_at = last + time;
        ctx.comment(|| {
            format!(
                "{} {} on {processes} ranks: last entry at {last}, {time} by the sheet, released at {done_at}",
                describe(&call),
                label(key)
            )
        });
        self.collectives += 1;
        for (rank, (call, _)) in entries {
            let Some(out) = self.rank_port.get(rank as usize).copied().flatten() else {
                self.unroutable += 1;
                self.error(ctx, format!("no port leads to rank {rank}: it cannot be released"));
                continue;
            };
            self.send_arriving_at(ctx, out, done_at, NetMsg::CollectiveDone(call));
        }
    }

    fn show_state(&mut self, ctx: &mut Ctx<'_, NetMsg>) {
        if ctx.tracing(TraceLevel::UPDATES) {
            let live = (self.in_flight, self.gathering.values().map(BTreeMap::len).sum::<usize>());
            let (old_in_flight, old_entered) = self.shown.replace(live).unzip();
            if old_in_flight != Some(live.0) {
                ctx.set_param(IN_FLIGHT, TraceValue::Int(live.0 as i64));
            }
            if old_entered != Some(live.1) {
                ctx.set_param(ENTERED, TraceValue::Int(live.1 as i64));
            }
        }
        let busy = self.in_flight > 0 || !self.gathering.is_empty();
        ctx.set_state(if busy { BUSY } else { IDLE });
    }
}

/// Two entries belong to the same collective call: same kind, same size (barriers carry none; the
/// shares of a collective with per-rank counts differ),
/// same root (where the kind has one).
fn same_call(a: &CollectiveCall, b: &CollectiveCall) -> bool {
    a.kind == b.kind
        && a.blocks == b.blocks
        && (a.kind == CollectiveKind::Barrier || a.blocks > 0 || a.bytes == b.bytes)
        && (!a.kind.has_root() || a.root == b.root)
}

/// `BCAST of 64 B from root 2`.
fn describe(call: &CollectiveCall) -> String {
    match call.kind {
        CollectiveKind::Barrier => "BARRIER".into(),
        k if k.has_root() => format!("{} of {} B from root {}", k.state_name(), call.bytes, call.root),
        k => format!("{} of {} B", k.state_name(), call.bytes),
    }
}

/// Ranks as compact text: `ranks 0-3, 7` or `rank 5`.
fn rank_list(ranks: &[u32]) -> String {
    let mut text = String::from(if ranks.len() == 1 { "rank " } else { "ranks " });
    let mut i = 0;
    while i < ranks.len() {
        let mut j = i;
        while j + 1 < ranks.len() && ranks[j + 1] == ranks[j] + 1 {
            j += 1;
        }
        if i > 0 {
            text.push_str(", ");
        }
        let _ = match j - i {
            0 => write!(text, "{}", ranks[i]),
            1 => write!(text, "{}, {}", ranks[i], ranks[j]),
            _ => write!(text, "{}-{}", ranks[i], ranks[j]),
        };
        i = j + 1;
    }
    text
}

/// Every entry so far is the same call.
fn agree(entries: &Entries) -> bool {
    let mut calls = entries.values().map(|(c, _)| c);
    calls.next().is_none_or(|first| calls.all(|c| same_call(first, c)))
}

/// `collective #3 does not match across ranks: ranks 0, 2 called ALLREDUCE of 8 B; rank 1 called BARRIER`.
fn mismatch_report(key: CollectiveKey, entries: &Entries) -> String {
    let mut groups: Vec<(CollectiveCall, Vec<u32>)> = Vec::new();
    for (rank, (call, _)) in entries {
        match groups.iter_mut().find(|(c, _)| same_call(c, call)) {
            Some((_, ranks)) => ranks.push(*rank),
            None => groups.push((*call, vec![*rank])),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(call, ranks)| format!("{} called {}", rank_list(ranks), describe(call)))
        .collect();
    format!("collective {} does not match across ranks: {}", label(key), parts.join("; "))
}

impl Behaviour<NetMsg> for SheetModel {
    fn init(&mut self, ctx: &mut Ctx<'_, NetMsg>) {
        ctx.set_state(IDLE);
        self.show_state(ctx);
    }

    fn on_message(&mut self, ctx: &mut Ctx<'_, NetMsg>, port: PortIndex, msg: NetMsg) {
        match msg {
            NetMsg::Packet(packet) => self.forward(ctx, packet),
            NetMsg::CollectiveEnter(call) => self.enter(ctx, port, call),
            NetMsg::Credit { .. } | NetMsg::CollectiveDone(_) => {
                ctx.comment(|| format!("ignored `{}` on port {port}", msg.label()));
            }
        }
        self.show_state(ctx);
    }

    fn on_timer(&mut self, ctx: &mut Ctx<'_, NetMsg>, key: u64) {
        if let Some((out, msg)) = self.leaving.remove(&key)
            && ctx.send(out, msg).is_none()
        {
            self.unroutable += 1;
            let text = format!("cannot send `{}` on port {out}", msg.label());
            self.error(ctx, text);
        }
        self.in_flight = self.in_flight.saturating_sub(1);
        self.show_state(ctx);
    }

    fn is_finished(&self) -> bool {
        self.gathering.is_empty() && self.errors.is_empty()
    }

    fn blocked_reason(&self) -> Option<String> {
        let mut reasons = self.errors.clone();
        for (key, entries) in &self.gathering {
            let ranks = entries.values().next().map_or(0, |(c, _)| c.ranks);
            let missing: Vec<u32> = if ranks == 0 {
                (0..self.processes).filter(|r| !entries.contains_key(r)).collect()
            } else {
                Vec::new()
            };
            let waiting = if missing.is_empty() {
                String::new()
            } else {
                format!("; {} did not enter", rank_list(&missing))
            };
            if agree(entries) {
                let entered: Vec<u32> = entries.keys().copied().collect();
                let what = entries.values().next().map(|(c, _)| describe(c)).unwrap_or_default();
                reasons.push(format!(
                    "collective {} ({what}): {} entered{waiting}",
                    label(*key),
                    rank_list(&entered)
                ));
            } else {
                reasons.push(format!("error: {}{waiting}", mismatch_report(*key, entries)));
            }
        }
        (!reasons.is_empty()).then(|| reasons.join("; "))
    }

    fn traced_params(&self) -> Vec<String> {
        crate::catalogue::NETWORK_MODEL_LIVE.iter().map(|v| v.name.to_string()).collect()
    }

    fn direct_deliveries(&self) -> DirectDeliveries {
        DirectDeliveries::Never
    }

    fn may_request_stop(&self) -> bool {
        false
    }

    fn summary(&self) -> Vec<(String, TraceValue)> {
        vec![
            ("messages_delivered".into(), TraceValue::Int(self.delivered as i64)),
            ("collectives_completed".into(), TraceValue::Int(self.collectives as i64)),
            ("messages_unroutable".into(), TraceValue::Int(self.unroutable as i64)),
        ]
    }
}

#[cfg(test)]
#[path = "sheet_tests.rs"]
mod tests;
