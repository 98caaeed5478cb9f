//! The processor behaviour: runs one rank's program. Program operations become primitive actions
//! (CPU time in a visible state, posting sends/receives, waiting); the MPI engine matches messages and
//! runs the eager/rendezvous protocols; the network interface cuts messages into packets and injects
//! them with link pacing and credits, after holding each message for its route's latency when it
//! pays route latencies itself (`held`). Packets keep arriving (and protocols progress) while the CPU
//! computes, as with a real network interface.
//!
//! In sheet mode (the processor's port leads to a `datasheet` network model) there are no packets
//! or protocols: each message travels whole, point-to-point calls cost the data sheet's times, and
//! a collective is one `CollectiveEnter` to the model, which answers with `CollectiveDone`.

pub mod action;
mod error;
pub mod held;
mod live;
pub mod mpi;
pub mod outbox;
pub mod packets;
pub mod sheet;
mod translate;
mod wait_check;

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use hase_engine::kernel::DirectDeliveries;
use hase_engine::kernel::SendInfo;
use hase_engine::time::SimTime;
use hase_engine::trace::{TraceLevel, TraceValue};
use hase_engine::{Behaviour, Ctx, Endpoint, PortIndex};

use crate::flow::{OutputPort, Stall};
use crate::message::{CollectiveCall, Context, NetMsg, Packet};
use crate::mpi::op::{Algorithm, CollectiveKind, RecvStatus, RequestId};
use crate::packet_queue::Outgoing;
use crate::placement::RankAddresses;
use crate::sharing_penalty::SharingPenalty;
use crate::vecmap::VecMap;
use crate::workload::program::{ProgramCtx, RankProgram};
use action::{Action, CpuModel, Handle, WaitOn, state};
pub use error::ProgramFault;
use held::{Held, RouteLatency};
use live::Live;
use mpi::{Effects, Mpi, MpiLimits, Outbound, ReqKey};
use outbox::{NicSharing, Outbox};
use packets::PacketRun;
use sheet::SheetTiming;
pub use translate::{CollectiveSeqs, translate};
use wait_check::WaitCheck;

const TIMER_CPU: u64 = 1;
const TIMER_NIC: u64 = 2;
const TIMER_WAKE: u64 = 3;
const TIMER_HOLD: u64 = 4;
/// Packets made ahead of the network interface (the rest of a message waits in its run). One is
/// enough: the next packet is made as the one before it leaves, which is before it could leave
/// itself, so every time is the same as with more made ahead (the examples' golden fingerprints did
/// not change going from 64 to 1), and a rank's interface holds one packet instead of up to 64
/// (the 256×256 halo's running peak fell by about 435 bytes per entity).
const NIC_WINDOW: usize = 1;

/// Everything a processor needs, resolved from its parameters and the network.
pub struct ProcessorConfig {
    /// This rank.
    pub rank: u32,
    /// Number of ranks.
    pub size: u32,
    /// Port packets leave by.
    pub tx: PortIndex,
    /// Port packets arrive on (equal to `tx` for a bidirectional `net` port).
    pub rx: PortIndex,
    /// CPU timing.
    pub cpu: CpuModel,
    /// Receive overhead.
    pub recv_overhead: SimTime,
    /// Eager limit and packet size.
    pub limits: MpiLimits,
    /// How the network interface shares its link among messages sent at the same time.
    pub nic_sharing: NicSharing,
    /// The route latency a message waits at the interface before it leaves (`None`: none).
    pub route_latency: Option<RouteLatency>,
    /// Default algorithm per collective.
    pub algorithms: BTreeMap<CollectiveKind, Algorithm>,
    /// Buffer slots of the entity our link leads to (`None` = unbounded).
    pub downstream_credits: Option<u32>,
    /// Sheet mode: the data sheet and band of the `datasheet` network model our port leads to.
    /// The send and receive overheads are then part of the sheet's times and are not added.
    pub sheet: Option<SheetTiming>,
    /// The program.
    pub program: Box<dyn RankProgram>,
    /// Where the workload's MPI ranks run, when the workload is placed on some processors or in
    /// another order (`None`: MPI rank = processor rank). Packets carry processor ranks.
    pub addresses: Option<Arc<RankAddresses>>,
    /// Direct rendezvous: the port every processor receives on, by processor rank; rendezvous
    /// control packets are delivered there at once instead of crossing the network.
    pub peers: Option<Arc<Vec<Endpoint>>>,
}

/// What processors configured alike share: a network of identical processors keeps one copy
/// instead of one per rank (see [`ProcessorBehaviour::sharing`]).
pub struct ProcessorSettings {
    size: u32,
    cpu: CpuModel,
    /// Zero in sheet mode (the sheet's times include it).
    recv_overhead: SimTime,
    algorithms: BTreeMap<CollectiveKind, Algorithm>,
    nic_sharing: NicSharing,
    route_latency: Option<RouteLatency>,
    sheet: Option<SheetTiming>,
    addresses: Option<Arc<RankAddresses>>,
    peers: Option<Arc<Vec<Endpoint>>>,
}

impl ProcessorSettings {
    /// True if a processor with `other` behaves exactly as with these: equal values, and the same
    /// shared data sheet, placement and peer table (compared by address: one per network).
    fn same_as(&self, other: &ProcessorSettings) -> bool {
        fn same_arc<T>(a: Option<&Arc<T>>, b: Option<&Arc<T>>) -> bool {
            match (a, b) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
        }
        let same_sheet = match (&self.sheet, &other.sheet) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(&a.sheet, &b.sheet) && a.estimate == b.estimate,
            _ => false,
        };
        self.size == other.size
            && self.cpu == other.cpu
            && self.recv_overhead == other.recv_overhead
            && self.algorithms == other.algorithms
            && self.nic_sharing == other.nic_sharing
            && match (&self.route_latency, &other.route_latency) {
                (None, None) => true,
                (Some(a), Some(b)) => a.same_as(b),
                _ => false,
            }
            && same_sheet
            && same_arc(self.addresses.as_ref(), other.addresses.as_ref())
            && same_arc(self.peers.as_ref(), other.peers.as_ref())
    }
}

/// A processor running one rank.
pub struct ProcessorBehaviour {
    rank: u32,
    rx: PortIndex,
    settings: Arc<ProcessorSettings>,
    program: Box<dyn RankProgram>,
    mpi: Mpi,
    nic: OutputPort,
    /// Messages whose packets are still to be made.
    outbox: Outbox,
    /// Messages waiting their route's latency (made at the first send when `route_latency` is set).
    held: Option<Box<Held>>,
    actions: VecDeque<Action>,
    busy_until: SimTime,
    wake_at: Option<SimTime>,
    /// What the pending wait at the front of `actions` found when it last looked at its requests.
    wait_check: WaitCheck,
    /// The program's open requests and a collective schedule's open handles: sorted vectors (a
    /// `BTreeMap`'s first node took 144 bytes a rank in a halo exchange), given back when emptied.
    user: VecMap<RequestId, ReqKey>,
    internal: VecMap<u32, ReqKey>,
    waiting: Vec<ReqKey>,
    collective_seq: u32,
    /// Collective numbers on communicators other than the world (see `CollectiveSeqs`).
    #[expect(
        clippy::box_collection,
        reason = "one pointer per processor, where the map would take 24 bytes"
    )]
    comm_seqs: Option<Box<BTreeMap<u32, u64>>>,
    /// Sheet mode: the collective this rank entered and waits to be released from (boxed: rare,
    /// and 24 bytes less for every processor).
    in_collective: Option<Box<CollectiveCall>>,
    last_recv: Option<RecvStatus>,
    done: bool,
    error: Option<Box<str>>,
    sent_messages: u64,
    sent_bytes: u64,
    received_messages: u64,
    /// What the trace shows of this rank's live values: made when level-3 records are first
    /// kept, so untraced runs carry 8 bytes per processor instead of 48.
    live: Option<Box<Live>>,
}

impl ProcessorBehaviour {
    /// A processor about to start its program.
    pub fn new(config: ProcessorConfig) -> Self {
        Self::sharing(config, &mut None)
    }

    /// A processor about to start its program, sharing `shared`'s settings if they equal its own
    /// and leaving its own there otherwise: building processors in a row through one `shared`
    /// keeps one copy of the settings per run of alike processors.
    pub fn sharing(config: ProcessorConfig, shared: &mut Option<Arc<ProcessorSettings>>) -> Self {
        let own = ProcessorSettings {
            size: config.size,
            cpu: config.cpu,
            recv_overhead: if config.sheet.is_some() { SimTime::ZERO } else { config.recv_overhead },
            algorithms: config.algorithms,
            nic_sharing: config.nic_sharing,
            route_latency: config.route_latency,
            sheet: config.sheet.clone(),
            addresses: config.addresses,
            peers: config.peers,
        };
        let settings = match shared.as_ref() {
            Some(s) if s.same_as(&own) => Arc::clone(s),
            _ => Arc::clone(shared.insert(Arc::new(own))),
        };
        ProcessorBehaviour {
            rank: config.rank,
            rx: config.rx,
            settings,
            program: config.program,
            mpi: match &config.sheet {
                Some(timing) => Mpi::new(config.rank, config.limits).with_sheet(timing.clone()),
                None => Mpi::new(config.rank, config.limits),
            },
            nic: OutputPort::new(config.tx, config.downstream_credits),
            outbox: Outbox::default(),
            held: None,
            actions: VecDeque::new(),
            busy_until: SimTime::ZERO,
            wake_at: None,
            wait_check: WaitCheck::NONE,
            user: VecMap::new(),
            internal: VecMap::new(),
            waiting: Vec::new(),
            collective_seq: 0,
            comm_seqs: None,
            in_collective: None,
            last_recv: None,
            done: false,
            error: None,
            sent_messages: 0,
            sent_bytes: 0,
            received_messages: 0,
            live: None,
        }
    }

    fn fail(&mut self, ctx: &mut Ctx<'_, NetMsg>, fault: &ProgramFault) {
        let at = self.program.location().map(|l| format!(" at {l}")).unwrap_or_default();
        let text = format!("program error{at}: {fault}");
        ctx.comment(|| text.clone());
        self.error = Some(text.into());
        self.actions.clear();
    }

    /// A send of `bytes` was posted as request `req` named `handle`: count it and apply its effects.
    fn sent(
        &mut self,
        ctx: &mut Ctx<'_, NetMsg>,
        bytes: u64,
        handle: Handle,
        (req, effects): (ReqKey, Effects),
    ) {
        self.sent_messages += 1;
        self.sent_bytes += bytes;
        Live::sent(ctx, self.sent_messages, self.sent_bytes);
        self.bind(handle, req);
        self.apply(ctx, effects);
    }

    fn apply(&mut self, ctx: &mut Ctx<'_, NetMsg>, effects: Effects) {
        if let Some(e) = effects.errors.first() {
            self.fail(ctx, e);
        }
        if !effects.latencies.is_empty() {
            for (source, latency) in effects.latencies {
                ctx.record_pair_latency(source, self.rank, latency);
                self.received_messages += 1;
            }
            Live::received(ctx, self.received_messages);
        }
        if let Some(live) = Live::when_traced(&mut self.live, ctx) {
            live.unexpected(ctx, &self.mpi);
        }
        if effects.packets.is_empty() {
            return;
        }
        for run in effects.packets {
            // Direct rendezvous: sender and receiver meet at no cost, off the network (control
            // packets are single packets: made here, never queued).
            if run.kind().is_control()
                && let Some(peers) = &self.settings.peers
                && let Some(packet) = run.clone().next()
            {
                let packet = self.to_processor_ranks(packet);
                if let Some(&to) = peers.get(packet.dst as usize) {
                    ctx.deliver_direct(to, SimTime::ZERO, NetMsg::Packet(packet));
                    continue;
                }
            }
            self.hold_or_queue(ctx, run);
        }
        self.pump(ctx);
    }

    /// Queue `run` at the interface, or hold it for its route's latency first when the interface
    /// pays route latencies; its packets then carry that latency as their sharing penalty.
    fn hold_or_queue(&mut self, ctx: &mut Ctx<'_, NetMsg>, mut run: PacketRun) {
        let Some(latency) = &self.settings.route_latency else {
            self.outbox.push(run);
            return;
        };
        let (src, dst) = match &self.settings.addresses {
            Some(a) => (a.address(self.rank), a.address(run.dst())),
            None => (self.rank, run.dst()),
        };
        let held = self.held.get_or_insert_with(Box::default);
        let wait = held.latency_to(latency, src, dst);
        run.set_penalty(SharingPenalty::from_latency(wait));
        if wait == SimTime::ZERO {
            self.outbox.push(run);
            return;
        }
        let until = ctx.now() + wait;
        held.hold(until, run);
        ctx.schedule_at(until, TIMER_HOLD);
    }

    /// Messages whose route latency is over join the interface's queue.
    fn release_held(&mut self, ctx: &mut Ctx<'_, NetMsg>) {
        let Some(held) = &mut self.held else { return };
        for run in held.release(ctx.now()) {
            self.outbox.push(run);
        }
        self.pump(ctx);
    }

    /// Send what can leave now. Packets are made from the outbox's runs only as the interface's
    /// queue drains (at most `NIC_WINDOW` made and waiting), in the order the interface's sharing
    /// of its link gives and at the same times as cutting every message at once would: a packet
    /// joins the queue no later than the moment it could have left.
    fn pump(&mut self, ctx: &mut Ctx<'_, NetMsg>) {
        self.pump_when(ctx, false);
    }

    /// [`Self::pump`] from the interface's timer.
    fn pump_on_time(&mut self, ctx: &mut Ctx<'_, NetMsg>) {
        self.pump_when(ctx, true);
    }

    /// Round robin chooses a message's packet only when the link is free, from the interface's
    /// timer (`on_time`): so every message posted until that moment, those posted at the same
    /// instant included, takes its turn.
    fn pump_when(&mut self, ctx: &mut Ctx<'_, NetMsg>, on_time: bool) {
        loop {
            let now = ctx.now();
            if self.settings.nic_sharing.interleaves() && self.nic.is_empty() && !self.outbox.is_empty() {
                let free_at = ctx.port_free_at(self.nic.port).max(now);
                if free_at > now || !on_time {
                    self.nic.arm(ctx, free_at, TIMER_NIC);
                    return;
                }
            }
            while self.nic.len() < NIC_WINDOW {
                let Some(packet) = self.outbox.next_packet(self.settings.nic_sharing) else { break };
                let packet = self.to_processor_ranks(packet);
                // The interface keeps its one buffer (room for `NIC_WINDOW` packets).
                self.nic.push(Outgoing { packet, earliest: now, from_port: None }, None);
            }
            let mpi = &mut self.mpi;
            let stall = self.nic.pump(ctx, TIMER_NIC, None, |_ctx, item: &Outgoing, info: SendInfo| {
                mpi.on_injected(&item.packet, info.link_free);
            });
            if stall != Stall::Empty || self.outbox.is_empty() {
                return;
            }
        }
    }

    /// A packet as made by MPI (MPI ranks) as the network carries it (processor ranks).
    fn to_processor_ranks(&self, mut packet: Packet) -> Packet {
        if let Some(a) = &self.settings.addresses {
            (packet.src, packet.dst) = (a.address(packet.src), a.address(packet.dst));
        }
        packet
    }

    /// Entries its queues' buffers have room for: the outbox and actions (none while they are
    /// empty), and the network interface (which keeps its buffer).
    #[cfg(test)]
    pub(crate) fn queue_room(&self) -> (usize, usize) {
        (self.outbox.room() + self.actions.capacity(), self.nic.room())
    }

    /// Packets waiting to leave: made and queued, or still to be made.
    fn packets_waiting(&self) -> u64 {
        self.nic.len() as u64
            + self.outbox.packets_waiting()
            + self.held.as_ref().map_or(0, |h| h.packets_waiting())
    }

    fn bind(&mut self, handle: Handle, req: ReqKey) {
        match handle {
            Handle::User(r) => {
                self.user.insert(r, req);
            }
            Handle::Internal(i) => {
                self.internal.insert(i, req);
            }
        }
    }

    /// The requests `on` names, into `into` (emptied first): a wait is looked at again at every
    /// packet that arrives while it is pending, so it reuses one buffer instead of making lists.
    fn resolve_into(&self, on: &WaitOn, into: &mut Vec<ReqKey>) -> Result<(), ProgramFault> {
        into.clear();
        match on {
            WaitOn::AllUser => {
                into.extend(self.user.values().copied());
                Ok(())
            }
            WaitOn::Handles(hs) => hs.iter().try_for_each(|h| {
                let req = match h {
                    Handle::User(r) => self.user.get(r).copied().ok_or(ProgramFault::UnpostedRequest(*r)),
                    Handle::Internal(i) => {
                        self.internal.get(i).copied().ok_or(ProgramFault::UnpostedHandle(*i))
                    }
                }?;
                into.push(req);
                Ok(())
            }),
        }
    }

    /// Run actions until one blocks.
    fn advance(&mut self, ctx: &mut Ctx<'_, NetMsg>) {
        while !self.done && self.error.is_none() && self.in_collective.is_none() {
            let now = ctx.now();
            if self.busy_until > now {
                return;
            }
            // A pending wait that would find nothing new stays as it is (`wait_check.rs`).
            if !self.mpi.requests_changed() && self.wait_check.still_pending(now, self.wake_at) {
                return;
            }
            // An operation's actions hold their buffer only while they run: it is given back as
            // the last one starts, unless that is a wait, which goes back to the front of the same
            // buffer at every packet that arrives while it is pending (then it is given back before
            // the next operation is fetched). A rank computing or finished holds none.
            let Some(action) = self.actions.pop_front() else {
                self.actions = VecDeque::new();
                self.fetch(ctx);
                continue;
            };
            if self.actions.is_empty() && !matches!(action, Action::Wait { .. }) {
                self.actions = VecDeque::new();
            }
            match action {
                Action::Cpu { duration, state } => {
                    ctx.set_state(state);
                    if duration > SimTime::ZERO {
                        self.busy_until = now + duration;
                        ctx.schedule(duration, TIMER_CPU);
                    }
                }
                Action::PostSend { dst, bytes, tag, context, handle } => {
                    let posted = self.mpi.post_send(Outbound { dst, bytes, tag, context }, now);
                    self.sent(ctx, bytes, handle, posted);
                }
                Action::PostRecv { src, tag, context, handle } => {
                    if let Some(live) = Live::when_traced(&mut self.live, ctx) {
                        live.searching(ctx, src);
                    }
                    let (req, effects) = self.mpi.post_recv(src, tag, context, now);
                    self.bind(handle, req);
                    self.apply(ctx, effects);
                }
                Action::Wait { on, state, user } => {
                    // `waiting` lends its buffer: the requests, then those still pending.
                    let mut reqs = std::mem::take(&mut self.waiting);
                    if let Err(e) = self.resolve_into(&on, &mut reqs) {
                        return self.fail(ctx, &e);
                    }
                    let is_pending = |mpi: &Mpi, r: ReqKey| mpi.done_at(r).is_none_or(|t| t > now);
                    if reqs.iter().any(|r| is_pending(&self.mpi, *r)) {
                        reqs.retain(|r| is_pending(&self.mpi, *r));
                        ctx.set_state(state);
                        let later = reqs.iter().filter_map(|r| self.mpi.done_at(*r)).max();
                        if let Some(t) = later
                            && self.wake_at.is_none_or(|w| w < now || w > t)
                        {
                            self.wake_at = Some(t);
                            ctx.schedule_at(t, TIMER_WAKE);
                        }
                        let first_done = reqs.iter().filter_map(|r| self.mpi.done_at(*r)).min();
                        self.wait_check = WaitCheck {
                            until: first_done.unwrap_or(SimTime::MAX),
                            wake_at: later.unwrap_or(SimTime::MAX),
                        };
                        self.mpi.requests_seen();
                        self.waiting = reqs;
                        self.actions.push_front(Action::Wait { on, state, user });
                        return;
                    }
                    self.wait_check = WaitCheck::NONE;
                    self.finish_wait(&reqs, &on, state, user);
                    reqs.clear();
                    self.waiting = reqs;
                }
                Action::Comment(text) => ctx.comment(|| text),
                Action::SheetSend { dst, bytes, tag, handle, completes_after } => {
                    let message = Outbound { dst, bytes, tag, context: Context::User };
                    let posted = self.mpi.post_whole_send(message, now, now + completes_after);
                    self.sent(ctx, bytes, handle, posted);
                }
                Action::SheetRecv { src, tag, handle, kind } => {
                    if let Some(live) = Live::when_traced(&mut self.live, ctx) {
                        live.searching(ctx, src);
                    }
                    let (req, effects) = self.mpi.post_sheet_recv(src, tag, Context::User, now, kind);
                    self.bind(handle, req);
                    self.apply(ctx, effects);
                }
                Action::SheetCollective(call) => {
                    ctx.set_state(state::collective(call.kind));
                    let mut entry = call;
                    if let Some(a) = &self.settings.addresses {
                        entry.rank = a.address(call.rank);
                    }
                    if ctx.send(self.nic.port, NetMsg::CollectiveEnter(entry)).is_none() {
                        return self.fail(ctx, &ProgramFault::SheetUnreachable);
                    }
                    self.in_collective = Some(Box::new(call));
                }
            }
        }
    }

    fn finish_wait(&mut self, reqs: &[ReqKey], on: &WaitOn, state: u16, user: bool) {
        let mut receives = 0u64;
        for r in reqs {
            if self.mpi.is_recv(*r) {
                receives += 1;
                if user {
                    self.last_recv = self.mpi.status(*r).or(self.last_recv);
                }
            }
            self.mpi.forget(*r);
        }
        match on {
            WaitOn::AllUser => self.user = VecMap::new(),
            WaitOn::Handles(hs) => {
                for h in hs {
                    match h {
                        Handle::User(r) => {
                            self.user.remove(r);
                        }
                        Handle::Internal(i) => {
                            self.internal.remove(i);
                        }
                    }
                }
                if self.user.is_empty() {
                    self.user = VecMap::new();
                }
                if self.internal.is_empty() {
                    self.internal = VecMap::new();
                }
            }
        }
        let recv_overhead = self.settings.recv_overhead;
        if receives > 0 && recv_overhead > SimTime::ZERO {
            self.actions.push_front(Action::Cpu { duration: recv_overhead.times(receives), state });
        }
    }

    fn fetch(&mut self, ctx: &mut Ctx<'_, NetMsg>) {
        let mut pctx = ProgramCtx {
            rank: self.rank,
            size: self.settings.size,
            now: ctx.now(),
            last_recv: self.last_recv,
            rng: ctx.rng(),
        };
        let Some(op) = self.program.next(&mut pctx) else {
            self.done = true;
            ctx.set_state(state::DONE);
            return;
        };
        // A program's location may be made afresh for each operation: only asked for when
        // comments are kept.
        if ctx.tracing(TraceLevel::COMMENTS)
            && let Some(location) = self.program.location()
        {
            ctx.comment(|| format!("{location}: {op:?}"));
        }
        Live::operation(ctx, &op);
        let settings = &*self.settings;
        let result = translate(
            op,
            &settings.cpu,
            self.rank,
            settings.size,
            &mut CollectiveSeqs { world: &mut self.collective_seq, comms: &mut self.comm_seqs },
            |k| settings.algorithms.get(&k).copied().unwrap_or_else(|| Algorithm::default_for(k)),
            settings.sheet.as_ref(),
        );
        match result {
            Ok(actions) => {
                // Room for this operation's actions and no more (most operations are one action;
                // growing by `extend` made room for four): a rank waiting holds one `Wait` here.
                self.actions.reserve_exact(actions.len());
                self.actions.extend(actions);
            }
            Err(e) => self.fail(ctx, &e),
        }
    }

    fn on_packet(&mut self, ctx: &mut Ctx<'_, NetMsg>, packet: &Packet) {
        let mut packet = *packet;
        if let Some(a) = &self.settings.addresses {
            let (Some(src), Some(dst)) = (a.rank(packet.src), a.rank(packet.dst)) else {
                ctx.comment(|| format!("processor {} got a packet outside the placement", packet.dst));
                return;
            };
            (packet.src, packet.dst) = (src, dst);
        }
        let packet = &packet;
        if packet.dst != self.rank {
            ctx.comment(|| format!("rank {} received a packet for rank {}", self.rank, packet.dst));
            return;
        }
        let effects = self.mpi.on_packet(packet, ctx.now());
        self.apply(ctx, effects);
    }

    /// Sheet mode: the network model releases us from a collective.
    fn on_collective_done(&mut self, ctx: &mut Ctx<'_, NetMsg>, done: &CollectiveCall) {
        let mut done = *done;
        if let Some(rank) = self.settings.addresses.as_ref().and_then(|a| a.rank(done.rank)) {
            done.rank = rank;
        }
        match self.in_collective.as_deref() {
            Some(c) if c.seq == done.seq && c.comm == done.comm && done.rank == self.rank => {
                self.in_collective = None;
            }
            _ => ctx.comment(|| {
                format!("rank {} was released from collective #{} it is not waiting in", self.rank, done.seq)
            }),
        }
    }
}

impl Behaviour<NetMsg> for ProcessorBehaviour {
    fn init(&mut self, ctx: &mut Ctx<'_, NetMsg>) {
        ctx.set_state(state::IDLE);
        Live::start(ctx);
        self.advance(ctx);
    }

    fn on_message(&mut self, ctx: &mut Ctx<'_, NetMsg>, port: PortIndex, msg: NetMsg) {
        match msg {
            NetMsg::Packet(p) if port == self.rx => self.on_packet(ctx, &p),
            NetMsg::Packet(_) => ctx.comment(|| format!("packet arrived on unexpected port {port}")),
            NetMsg::Credit { count } => {
                self.nic.add_credits(count);
                self.pump(ctx);
            }
            NetMsg::CollectiveDone(done) => self.on_collective_done(ctx, &done),
            NetMsg::CollectiveEnter(_) => {
                ctx.comment(|| format!("rank {} got a collective entry meant for a network", self.rank));
            }
        }
        self.advance(ctx);
    }

    fn on_timer(&mut self, ctx: &mut Ctx<'_, NetMsg>, key: u64) {
        match key {
            TIMER_NIC => {
                self.nic.timer_fired(ctx.now());
                self.pump_on_time(ctx);
            }
            TIMER_WAKE if self.wake_at == Some(ctx.now()) => self.wake_at = None,
            TIMER_HOLD => self.release_held(ctx),
            _ => {}
        }
        self.advance(ctx);
    }

    fn is_finished(&self) -> bool {
        self.done
            && self.error.is_none()
            && self.nic.is_empty()
            && self.outbox.is_empty()
            && self.held.as_ref().is_none_or(|h| h.is_empty())
    }

    fn blocked_reason(&self) -> Option<String> {
        if let Some(e) = &self.error {
            return Some(e.to_string());
        }
        if self.done {
            let waiting = self.packets_waiting();
            return (waiting > 0).then(|| format!("{waiting} packet(s) waiting to leave"));
        }
        let at = self.program.location().map(|l| format!(" ({l})")).unwrap_or_default();
        if let Some(c) = &self.in_collective {
            return Some(format!(
                "rank {} waits in {} (collective #{}) for the data-sheet network to release it{at}",
                self.rank,
                c.kind.state_name(),
                c.seq
            ));
        }
        let what: Vec<String> = self.waiting.iter().map(|r| self.mpi.describe(*r)).collect();
        Some(if what.is_empty() {
            format!("rank {}: unfinished{at}", self.rank)
        } else {
            format!("rank {} waits for {}{at}", self.rank, what.join(" and "))
        })
    }

    fn traced_params(&self) -> Vec<String> {
        crate::catalogue::PROCESSOR_LIVE.iter().map(|v| v.name.to_string()).collect()
    }

    /// A processor in direct rendezvous delivers its control packets straight to its peers.
    fn direct_deliveries(&self) -> DirectDeliveries {
        match &self.settings.peers {
            Some(peers) => DirectDeliveries::To(peers.iter().map(|p| p.entity).collect()),
            None => DirectDeliveries::Never,
        }
    }

    fn may_request_stop(&self) -> bool {
        false
    }

    fn summary(&self) -> Vec<(String, TraceValue)> {
        vec![
            ("messages_sent".into(), TraceValue::Int(self.sent_messages as i64)),
            ("messages_received".into(), TraceValue::Int(self.received_messages as i64)),
            ("unreceived_messages".into(), TraceValue::Int(self.mpi.unexpected_count() as i64)),
        ]
    }
}

#[cfg(test)]
mod tests;
