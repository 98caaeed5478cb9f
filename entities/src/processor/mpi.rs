//! The point-to-point engine of one rank: requests, (context, source, tag) matching with wildcards in
//! posting/arrival order, the unexpected-message queue, packet reassembly, and the eager and rendezvous
//! protocols. It knows nothing of the kernel: it returns the packets to inject and reports completions,
//! so it is unit-tested directly.
//!
//! Protocols. Eager (message ≤ `eager_limit`), started as `eager_start` says:
//! - `AtSend` (as Open MPI and MPICH do): the data packets go at once; packet 0 carries the
//!   envelope and is matched on arrival (against posted receives, else queued as unexpected). A
//!   send completes when its last packet has left the network interface.
//! - `ReceivePosted` (as SimGrid's SMPI times it): the message is buffered and its send completes
//!   at once, but its data leaves only when the receiver has posted the matching receive; sender
//!   and receiver meet as a rendezvous does (below: across the network, or directly at no cost),
//!   and no `Fin` follows. The receiver tells such a message from a rendezvous one by its size
//!   against its own limits, so both ends are to have the same `eager_limit` and `eager_start`.
//!
//! Rendezvous (larger), two ways:
//! - `Handshake`: an RTS carries the envelope through the network; when it matches, the receiver
//!   answers with a CTS through the network and the sender then injects the data; the send completes
//!   when its last packet has left.
//! - `Direct` (as SimGrid charges it): sender and receiver meet at no cost as soon as both have
//!   posted — the RTS and CTS go straight between the processors (the processor delivers them
//!   directly, see `super`) — so the data leaves at max(send, receive posted); the send completes
//!   when the receiver has the whole message (a direct `Fin` tells it), as a synchronous send does.
//!
//! A receive completes when the last data packet has arrived. Every message (and control packet)
//! carries `header_bytes` more on the wire than its payload.
//!
//! Sheet mode (a data-sheet network): a message travels whole as one zero-byte packet stamped with
//! its transfer start (after the previous message to the same receiver, `super::sheet`), a send
//! completes when the sheet says, and a receive by the sheet's receive rule.

use std::collections::VecDeque;

use hase_engine::time::SimTime;

use super::action::SheetRecvKind;
use super::error::ProgramFault;
use super::packets::PacketRun;
use super::sheet::{SheetTiming, TWO_WAY_HISTORY};
use crate::message::{Context, MsgId, Packet, PacketKind};
use crate::mpi::op::{RecvStatus, Source, TagSel};
use crate::sharing_penalty::SharingPenalty;
use crate::vecmap::VecMap;

/// Identifies a request of this rank. Keys only tell apart the requests a rank holds at the same
/// time, so they count on modulo 2^32 (as message numbers do, see [`MsgId`]): four bytes instead of
/// eight in every table that refers to a request.
pub type ReqKey = u32;

/// What a request is. A send's size is kept in [`Req::bytes`], so that this is 20 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum ReqKind {
    Send { dst: u32 },
    Recv { src: Source, tag: TagSel, context: Context },
}

/// One request. A rank has every request it has posted and not yet waited for here (eight at once
/// in a halo exchange), so its fields are packed: flags beside values instead of `Option`s, one
/// size for both kinds, and a matched receive's sender and tag kept in place of what it asked for.
/// 40 bytes. (What sheet mode needs besides, the rule and the time a receive was posted, is kept
/// by the rank's [`SheetRank`].)
#[derive(Clone, Debug, PartialEq)]
struct Req {
    /// When it completed, if `done`.
    done_at: SimTime,
    /// A send's size; a receive's message size once `matched`.
    bytes: u64,
    /// A receive's source and tag selection until `matched`, then the sender and tag it matched.
    kind: ReqKind,
    done: bool,
    matched: bool,
}

impl Req {
    fn new(kind: ReqKind, bytes: u64) -> Self {
        Req { done_at: SimTime::ZERO, bytes, kind, done: false, matched: false }
    }

    fn complete(&mut self, at: SimTime) {
        self.done = true;
        self.done_at = at;
    }

    fn done_at(&self) -> Option<SimTime> {
        self.done.then_some(self.done_at)
    }

    fn set_status(&mut self, status: RecvStatus) {
        if let ReqKind::Recv { src, tag, .. } = &mut self.kind {
            self.matched = true;
            (*src, *tag, self.bytes) = (Source::Rank(status.source), TagSel::Tag(status.tag), status.bytes);
        }
    }

    /// What a receive delivered, once matched.
    fn status(&self) -> Option<RecvStatus> {
        match self.kind {
            ReqKind::Recv { src: Source::Rank(source), tag: TagSel::Tag(tag), .. } if self.matched => {
                Some(RecvStatus { source, tag, bytes: self.bytes })
            }
            _ => None,
        }
    }
}

/// A rank in sheet mode: the sheet and band it takes its times from, each receive still to be
/// timed by the sheet's rule, with when it was posted, and its latest transfers to each
/// destination rank (start, end; at most [`TWO_WAY_HISTORY`], the last one first): the chain of
/// its messages to a rank follows the last, and a message from that rank that overlaps any of
/// them meets two-way traffic.
#[derive(Clone, Debug)]
struct SheetRank {
    timing: SheetTiming,
    recvs: VecMap<ReqKey, (SheetRecvKind, SimTime)>,
    transfers: VecMap<u32, VecDeque<(SimTime, SimTime)>>,
}

/// The envelope of an arrived (or arriving) message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Envelope {
    src: u32,
    tag: i32,
    context: Context,
    bytes: u64,
    msg_id: MsgId,
    rendezvous: bool,
    injected: SimTime,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Assembly {
    got: u32,
    count: u32,
    req: Option<ReqKey>,
    /// Direct rendezvous: tell the sender (a `Fin`) when the message is all here.
    fin: bool,
}

/// How a rendezvous message meets its receiver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rendezvous {
    /// RTS and CTS cross the network: one handshake round trip before the data.
    #[default]
    Handshake,
    /// RTS, CTS and the completion notice go straight between the processors, at no cost.
    Direct,
}

impl Rendezvous {
    /// The parameter value naming it.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "handshake" => Some(Rendezvous::Handshake),
            "direct" => Some(Rendezvous::Direct),
            _ => None,
        }
    }
}

/// When an eager message's data starts to travel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EagerStart {
    /// At the send (the data goes at once; the receiver keeps it as unexpected if need be).
    #[default]
    AtSend,
    /// When the receiver has posted the matching receive (the send completes at once).
    ReceivePosted,
}

impl EagerStart {
    /// Every mode's parameter value, the default first.
    pub const NAMES: [&'static str; 2] = ["send", "receive_posted"];

    /// The mode a parameter value names.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "send" => Some(EagerStart::AtSend),
            "receive_posted" => Some(EagerStart::ReceivePosted),
            _ => None,
        }
    }
}

/// Sizes that shape the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MpiLimits {
    /// Largest message sent eagerly.
    pub eager_limit: u64,
    /// Largest packet.
    pub max_packet: u64,
    /// Bytes every message and control packet carries on the wire besides its payload.
    pub header_bytes: u64,
    /// How rendezvous messages meet their receiver.
    pub rendezvous: Rendezvous,
    /// When an eager message's data starts to travel.
    pub eager_start: EagerStart,
}

impl MpiLimits {
    /// Eager limit and packet size, no header, handshake rendezvous, eager data sent at once.
    pub const fn new(eager_limit: u64, max_packet: u64) -> Self {
        MpiLimits {
            eager_limit,
            max_packet,
            header_bytes: 0,
            rendezvous: Rendezvous::Handshake,
            eager_start: EagerStart::AtSend,
        }
    }

    /// True if a message of `bytes` waits for its receive before it travels but its send completes
    /// at once (an eager message started when the receive is posted).
    fn buffered_until_received(&self, bytes: u64) -> bool {
        bytes <= self.eager_limit && self.eager_start == EagerStart::ReceivePosted
    }
}

/// A message to send: its destination rank, size, tag and matching context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outbound {
    /// Destination rank.
    pub dst: u32,
    /// Message size.
    pub bytes: u64,
    /// Tag.
    pub tag: i32,
    /// Matching context.
    pub context: Context,
}

/// What a call produced besides its request.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Effects {
    /// Packets to inject, in order, as runs made one packet at a time.
    pub packets: Vec<PacketRun>,
    /// Completed end-to-end message latencies with their sender ranks (for statistics).
    pub latencies: Vec<(u32, SimTime)>,
    /// Problems to report as program errors (a sheet that cannot time a receive).
    pub errors: Vec<ProgramFault>,
}

/// A rank's requests and the messages it is sending and receiving: the part of [`Mpi`] that is
/// empty until the rank's first call or arriving packet, kept behind one pointer (see
/// [`Mpi::in_flight_mut`]).
#[derive(Clone, Debug, Default)]
struct InFlight {
    reqs: VecMap<ReqKey, Req>,
    posted: Vec<ReqKey>,
    unexpected: VecDeque<Envelope>,
    assembling: VecMap<(u32, MsgId), Assembly>,
    awaiting_cts: VecMap<MsgId, (ReqKey, u32, u64, i32, Context)>,
    /// Data messages being sent, by message number: their request and packets still to leave.
    injecting: VecMap<MsgId, (ReqKey, u32)>,
    /// Direct rendezvous sends whose data is on its way, by message number.
    awaiting_fin: VecMap<MsgId, ReqKey>,
    /// A request has completed or been dropped since the rank last looked at its pending wait
    /// ([`Mpi::requests_seen`]): until one does, every request's completion time stays as it was.
    changed: bool,
}

impl InFlight {
    /// Complete request `req` (if it exists) at `at`.
    fn complete(&mut self, req: ReqKey, at: SimTime) {
        if let Some(r) = self.reqs.get_mut(&req) {
            r.complete(at);
            self.changed = true;
        }
    }
}

/// What a rank that has not started has in flight: nothing.
static NOTHING_IN_FLIGHT: InFlight = InFlight {
    reqs: VecMap::new(),
    posted: Vec::new(),
    unexpected: VecDeque::new(),
    assembling: VecMap::new(),
    awaiting_cts: VecMap::new(),
    injecting: VecMap::new(),
    awaiting_fin: VecMap::new(),
    changed: false,
};

/// One rank's point-to-point state.
#[derive(Clone, Debug)]
pub struct Mpi {
    rank: u32,
    limits: MpiLimits,
    next_msg: MsgId,
    next_req: ReqKey,
    /// Made on first use: a processor set up but not yet running carries 8 bytes here instead of
    /// seven empty collections (176 bytes).
    in_flight: Option<Box<InFlight>>,
    /// Sheet mode only.
    sheet: Option<Box<SheetRank>>,
}

impl Mpi {
    /// A rank with no requests.
    pub fn new(rank: u32, limits: MpiLimits) -> Self {
        Mpi { rank, limits, next_msg: 0, next_req: 0, in_flight: None, sheet: None }
    }

    /// The requests and messages in flight (none before the first call).
    fn in_flight(&self) -> &InFlight {
        self.in_flight.as_deref().unwrap_or(&NOTHING_IN_FLIGHT)
    }

    /// The requests and messages in flight, made empty on first use.
    fn in_flight_mut(&mut self) -> &mut InFlight {
        self.in_flight.get_or_insert_with(Box::default)
    }

    /// The same rank in sheet mode: receives posted with [`Mpi::post_sheet_recv`] are timed by
    /// `timing`.
    #[must_use]
    pub fn with_sheet(mut self, timing: SheetTiming) -> Self {
        self.sheet = Some(Box::new(SheetRank { timing, recvs: VecMap::new(), transfers: VecMap::new() }));
        self
    }

    fn new_req(&mut self, kind: ReqKind, bytes: u64) -> ReqKey {
        let key = self.next_req;
        self.next_req = self.next_req.wrapping_add(1);
        let replaced = self.in_flight_mut().reqs.insert(key, Req::new(kind, bytes));
        // Keys count on modulo 2^32: a key comes round again only after four billion more
        // requests, and only a request never waited for could still hold it.
        debug_assert!(replaced.is_none(), "request key {key} reused while its request is held");
        key
    }

    /// Cut a message and its header into packets of at most `max_packet` wire bytes (one packet
    /// of the header alone if the message is empty), made as they are sent. Fails if the message needs more packets than a message may have.
    fn packetise(
        &self,
        dst: u32,
        bytes: u64,
        tag: i32,
        context: Context,
        msg_id: MsgId,
        now: SimTime,
    ) -> Result<PacketRun, ProgramFault> {
        let mut template = self.control(PacketKind::Data, dst, (msg_id, bytes, tag, context), now);
        template.bytes = 0;
        PacketRun::data(template, bytes, self.limits.header_bytes, self.limits.max_packet)
    }

    fn control(&self, kind: PacketKind, dst: u32, env: (MsgId, u64, i32, Context), now: SimTime) -> Packet {
        let (msg_id, msg_bytes, tag, context) = env;
        Packet {
            src: self.rank,
            dst,
            bytes: self.limits.header_bytes.min(u64::from(u32::MAX)) as u32,
            kind,
            msg_id,
            index: 0,
            count: 1,
            context,
            tag,
            msg_bytes,
            injected: now,
            penalty: SharingPenalty::NONE,
        }
    }

    /// A new send request and the message number its packets will carry.
    fn start_send(&mut self, dst: u32, bytes: u64) -> (ReqKey, MsgId) {
        let req = self.new_req(ReqKind::Send { dst }, bytes);
        let msg_id = self.next_msg;
        self.next_msg = self.next_msg.wrapping_add(1);
        (req, msg_id)
    }

    /// Post a send; returns its request and the packets to inject now.
    pub fn post_send(&mut self, message: Outbound, now: SimTime) -> (ReqKey, Effects) {
        let Outbound { dst, bytes, tag, context } = message;
        let (req, msg_id) = self.start_send(dst, bytes);
        let mut effects = Effects::default();
        let buffered = self.limits.buffered_until_received(bytes);
        if buffered {
            self.in_flight_mut().complete(req, now);
        }
        if bytes > self.limits.eager_limit || buffered {
            self.in_flight_mut().awaiting_cts.insert(msg_id, (req, dst, bytes, tag, context));
            let rts = self.control(PacketKind::Rts, dst, (msg_id, bytes, tag, context), now);
            effects.packets.push(PacketRun::single(rts));
        } else {
            self.inject(req, dst, bytes, (tag, context, msg_id), now, &mut effects);
        }
        (req, effects)
    }

    /// Start sending the data of message `msg_id` (request `req`), or report why it cannot be cut
    /// into packets.
    fn inject(
        &mut self,
        req: ReqKey,
        dst: u32,
        bytes: u64,
        (tag, context, msg_id): (i32, Context, MsgId),
        now: SimTime,
        effects: &mut Effects,
    ) {
        match self.packetise(dst, bytes, tag, context, msg_id, now) {
            Ok(run) => {
                // `PacketRun::data` refuses more packets than `MAX_PACKETS_PER_MESSAGE` (u32::MAX).
                let packets = u32::try_from(run.remaining()).unwrap_or(u32::MAX);
                self.in_flight_mut().injecting.insert(msg_id, (req, packets));
                effects.packets.push(run);
            }
            Err(e) => effects.errors.push(e),
        }
    }

    /// Sheet mode: post a send whose whole message travels as one packet of wire size 0 (stamped
    /// `injected` = its transfer start: `now`, or later while the previous message to `dst` is still
    /// in transfer) and which completes at `done_at`, as the sheet says.
    pub fn post_whole_send(
        &mut self,
        message: Outbound,
        now: SimTime,
        done_at: SimTime,
    ) -> (ReqKey, Effects) {
        let Outbound { dst, bytes, tag, context } = message;
        let (req, msg_id) = self.start_send(dst, bytes);
        self.in_flight_mut().complete(req, done_at);
        let mut effects = Effects::default();
        let mut start = now;
        let to_oneself = dst == self.rank;
        if let Some(sheet) = self.sheet.as_deref_mut() {
            let previous_end = sheet.transfers.get(&dst).and_then(|t| t.front()).map(|&(_, end)| end);
            // A copy to oneself (a sheet with `selfsend`) starts at its send, chained behind nothing.
            let chained = match sheet.timing.self_send(bytes) {
                Ok(Some(_)) if to_oneself => Ok(None),
                Ok(_) => sheet.timing.transfer(now, previous_end, bytes).map(Some),
                Err(e) => Err(e),
            };
            match chained {
                Ok(None) => {}
                Ok(Some((from, to))) => {
                    start = from;
                    let latest = sheet.transfers.get_or_insert_with(dst, VecDeque::new);
                    latest.truncate(TWO_WAY_HISTORY - 1);
                    latest.push_front((from, to));
                }
                Err(e) => effects.errors.push(e.into()),
            }
        }
        let mut packet = self.control(PacketKind::Data, dst, (msg_id, bytes, tag, context), start);
        packet.bytes = 0;
        effects.packets.push(PacketRun::single(packet));
        (req, effects)
    }

    /// A packet of this rank left the network interface; its last byte is on the wire at `free_at`.
    pub fn on_injected(&mut self, packet: &Packet, free_at: SimTime) {
        if packet.kind != PacketKind::Data {
            return;
        }
        let Some(q) = self.in_flight.as_deref_mut() else { return };
        if let Some((req, left)) = q.injecting.get_mut(&packet.msg_id) {
            *left -= 1;
            if *left == 0 {
                let req = *req;
                q.injecting.remove(&packet.msg_id);
                q.complete(req, free_at);
            }
        }
    }

    fn matches(req: &Req, env: &Envelope) -> bool {
        let ReqKind::Recv { src, tag, context } = &req.kind else {
            return false;
        };
        *context == env.context
            && match src {
                Source::Any => true,
                Source::Rank(r) => *r == env.src,
            }
            && match tag {
                TagSel::Any => true,
                TagSel::Tag(t) => *t == env.tag,
            }
    }

    /// Post a receive; it may complete at once (an unexpected message already arrived) or answer a
    /// waiting rendezvous with a CTS.
    pub fn post_recv(
        &mut self,
        src: Source,
        tag: TagSel,
        context: Context,
        now: SimTime,
    ) -> (ReqKey, Effects) {
        self.post_recv_with(src, tag, context, now, None)
    }

    /// Sheet mode: post a receive that completes by the sheet's receive rule for `kind`.
    pub fn post_sheet_recv(
        &mut self,
        src: Source,
        tag: TagSel,
        context: Context,
        now: SimTime,
        kind: SheetRecvKind,
    ) -> (ReqKey, Effects) {
        self.post_recv_with(src, tag, context, now, Some(kind))
    }

    fn post_recv_with(
        &mut self,
        src: Source,
        tag: TagSel,
        context: Context,
        now: SimTime,
        sheet_rule: Option<SheetRecvKind>,
    ) -> (ReqKey, Effects) {
        let req = self.new_req(ReqKind::Recv { src, tag, context }, 0);
        if let (Some(rule), Some(sheet)) = (sheet_rule, self.sheet.as_deref_mut()) {
            sheet.recvs.insert(req, (rule, now));
        }
        let q = self.in_flight_mut();
        let mut effects = Effects::default();
        let found = q.reqs.get(&req).and_then(|r| q.unexpected.iter().position(|e| Self::matches(r, e)));
        match found.and_then(|i| q.unexpected.remove(i)) {
            Some(env) => self.bind(req, env, now, &mut effects),
            None => q.posted.push(req),
        }
        (req, effects)
    }

    /// Tie a matched envelope to a receive request.
    fn bind(&mut self, req: ReqKey, env: Envelope, now: SimTime, effects: &mut Effects) {
        if let Some(r) = self.in_flight_mut().reqs.get_mut(&req) {
            r.set_status(RecvStatus { source: env.src, tag: env.tag, bytes: env.bytes });
        }
        if env.rendezvous {
            let wire = env.bytes.saturating_add(self.limits.header_bytes);
            let count = wire.div_ceil(self.limits.max_packet.max(1)).max(1);
            let count = u32::try_from(count).unwrap_or(u32::MAX);
            // A direct rendezvous sender waits for a Fin; a buffered eager sender has completed.
            let fin = self.limits.rendezvous == Rendezvous::Direct
                && !self.limits.buffered_until_received(env.bytes);
            self.in_flight_mut()
                .assembling
                .insert((env.src, env.msg_id), Assembly { got: 0, count, req: Some(req), fin });
            effects.packets.push(PacketRun::single(self.control(
                PacketKind::Cts,
                env.src,
                (env.msg_id, env.bytes, env.tag, env.context),
                now,
            )));
            return;
        }
        let key = (env.src, env.msg_id);
        let q = self.in_flight_mut();
        match q.assembling.get_mut(&key) {
            Some(a) if a.got == a.count => {
                q.assembling.remove(&key);
                self.complete_recv(req, now, env.injected, effects);
            }
            Some(a) => a.req = Some(req),
            None => {}
        }
    }

    /// A receive's message is all here (`now`); it completes now, or in sheet mode by the sheet's
    /// receive rule (never before now).
    fn complete_recv(&mut self, req: ReqKey, now: SimTime, injected: SimTime, effects: &mut Effects) {
        let Mpi { in_flight, sheet, rank, .. } = self;
        let Some(q) = in_flight.as_deref_mut() else { return };
        let Some(r) = q.reqs.get_mut(&req) else { return };
        let mut done = now;
        if let Some(sheet) = sheet.as_deref_mut()
            && let Some((kind, posted_at)) = sheet.recvs.remove(&req)
        {
            let (source, bytes) = r.status().map_or((*rank, 0), |s| (s.source, s.bytes));
            let own = sheet.transfers.get(&source).filter(|_| source != *rank);
            let timed = match sheet.timing.self_send(bytes) {
                // A copy to oneself has arrived when the send made it: nothing more to wait for.
                Ok(Some(copy)) if source == *rank => Ok(posted_at.max(injected + copy)),
                Ok(_) => sheet
                    .timing
                    .meets_two_way(own.into_iter().flatten().copied(), injected, bytes)
                    .and_then(|two_way| sheet.timing.receive_done(kind, injected, posted_at, bytes, two_way)),
                Err(e) => Err(e),
            };
            match timed {
                Ok(t) => done = done.max(t),
                Err(e) => effects.errors.push(e.into()),
            }
        }
        r.complete(done);
        let source = r.status().map_or(*rank, |s| s.source);
        q.changed = true;
        effects.latencies.push((source, done.saturating_sub(injected)));
    }

    /// A packet addressed to this rank arrived.
    pub fn on_packet(&mut self, p: &Packet, now: SimTime) -> Effects {
        let mut effects = Effects::default();
        match p.kind {
            PacketKind::Cts => {
                if let Some((req, dst, bytes, tag, context)) =
                    self.in_flight_mut().awaiting_cts.remove(&p.msg_id)
                {
                    self.inject(req, dst, bytes, (tag, context, p.msg_id), now, &mut effects);
                    // A buffered eager send completed when it was posted; a direct rendezvous send
                    // completes when the receiver has it all (its Fin).
                    let buffered = self.limits.buffered_until_received(bytes);
                    let direct = self.limits.rendezvous == Rendezvous::Direct;
                    let q = self.in_flight_mut();
                    if (buffered || direct)
                        && let Some((req, _)) = q.injecting.remove(&p.msg_id)
                        && !buffered
                    {
                        q.awaiting_fin.insert(p.msg_id, req);
                    }
                }
            }
            PacketKind::Fin => {
                let q = self.in_flight_mut();
                if let Some(req) = q.awaiting_fin.remove(&p.msg_id) {
                    q.complete(req, now);
                }
            }
            PacketKind::Rts => {
                let env = Self::envelope(p, true);
                self.arrive_envelope(env, now, &mut effects);
            }
            PacketKind::Data => {
                let key = (p.src, p.msg_id);
                if p.index == 0 && !self.in_flight().assembling.contains_key(&key) {
                    // Eager: the first packet carries the envelope.
                    self.in_flight_mut()
                        .assembling
                        .insert(key, Assembly { got: 0, count: p.count, req: None, fin: false });
                    let env = Self::envelope(p, false);
                    self.arrive_envelope(env, now, &mut effects);
                }
                let q = self.in_flight_mut();
                if let Some(a) = q.assembling.get_mut(&key) {
                    a.got += 1;
                    if a.got == a.count
                        && let Some(req) = a.req
                    {
                        let fin = a.fin;
                        q.assembling.remove(&key);
                        self.complete_recv(req, now, p.injected, &mut effects);
                        if fin {
                            let env = (p.msg_id, p.msg_bytes, p.tag, p.context);
                            effects.packets.push(PacketRun::single(self.control(
                                PacketKind::Fin,
                                p.src,
                                env,
                                now,
                            )));
                        }
                    }
                }
            }
        }
        effects
    }

    fn envelope(p: &Packet, rendezvous: bool) -> Envelope {
        Envelope {
            src: p.src,
            tag: p.tag,
            context: p.context,
            bytes: p.msg_bytes,
            msg_id: p.msg_id,
            rendezvous,
            injected: p.injected,
        }
    }

    fn arrive_envelope(&mut self, env: Envelope, now: SimTime, effects: &mut Effects) {
        let q = self.in_flight_mut();
        let found = q.posted.iter().position(|k| q.reqs.get(k).is_some_and(|r| Self::matches(r, &env)));
        match found {
            Some(i) => {
                let req = q.posted.remove(i);
                self.bind(req, env, now, effects);
            }
            None => q.unexpected.push_back(env),
        }
    }

    /// When the request completed (`None` if still pending).
    #[inline]
    pub fn done_at(&self, req: ReqKey) -> Option<SimTime> {
        self.in_flight().reqs.get(&req).and_then(Req::done_at)
    }

    /// True if `req` is a receive.
    pub fn is_recv(&self, req: ReqKey) -> bool {
        self.in_flight().reqs.get(&req).is_some_and(|r| matches!(r.kind, ReqKind::Recv { .. }))
    }

    /// What a completed receive delivered.
    pub fn status(&self, req: ReqKey) -> Option<RecvStatus> {
        self.in_flight().reqs.get(&req).and_then(Req::status)
    }

    /// True if a request has completed or been dropped since [`Mpi::requests_seen`] was last called.
    pub fn requests_changed(&self) -> bool {
        self.in_flight().changed
    }

    /// The rank has looked at its requests: [`Mpi::requests_changed`] is false until one changes.
    pub fn requests_seen(&mut self) {
        if let Some(q) = self.in_flight.as_deref_mut() {
            q.changed = false;
        }
    }

    /// Drop a finished request.
    pub fn forget(&mut self, req: ReqKey) {
        if let Some(q) = self.in_flight.as_deref_mut()
            && q.reqs.remove(&req).is_some()
        {
            q.changed = true;
        }
        if let Some(sheet) = self.sheet.as_deref_mut() {
            sheet.recvs.remove(&req);
        }
    }

    /// A description of an unfinished request, for deadlock reports.
    pub fn describe(&self, req: ReqKey) -> String {
        let q = self.in_flight();
        match q.reqs.get(&req).map(|r| (r.kind, r.bytes)) {
            Some((ReqKind::Send { dst }, bytes)) => {
                let rendezvous = q.awaiting_cts.values().any(|(k, ..)| *k == req);
                if rendezvous {
                    format!("send of {bytes} B to rank {dst} waiting for the receiver (rendezvous)")
                } else if q.awaiting_fin.values().any(|k| *k == req) {
                    format!(
                        "send of {bytes} B to rank {dst} waiting for the receiver to have it all (rendezvous)"
                    )
                } else {
                    format!("send of {bytes} B to rank {dst}")
                }
            }
            Some((ReqKind::Recv { src, tag, context }, _)) => {
                let from = match src {
                    Source::Any => "any rank".to_string(),
                    Source::Rank(r) => format!("rank {r}"),
                };
                let tag = match tag {
                    TagSel::Any => "any tag".to_string(),
                    TagSel::Tag(t) if context == Context::Collective => format!("collective #{t}"),
                    TagSel::Tag(t) => format!("tag {t}"),
                };
                format!("receive from {from}, {tag}")
            }
            None => "unknown request".into(),
        }
    }

    /// Messages that arrived but were never received (reported at the end of a run).
    pub fn unexpected_count(&self) -> usize {
        self.in_flight().unexpected.len()
    }

    /// Arrived, unmatched messages per source rank (index = rank; as long as the highest source
    /// with a message waiting).
    pub fn unexpected_by_source(&self) -> Vec<u32> {
        let mut counts = Vec::new();
        for e in &self.in_flight().unexpected {
            let r = e.src as usize;
            if counts.len() <= r {
                counts.resize(r + 1, 0);
            }
            counts[r] += 1;
        }
        counts
    }
}

#[cfg(test)]
#[path = "mpi_tests.rs"]
mod tests;
