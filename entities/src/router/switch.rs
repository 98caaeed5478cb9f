//! The router/switch behaviour: packets arrive on input ports, wait the routing delay, and leave on
//! the port the routing rule chooses — store-and-forward (forward once the whole packet is in) or
//! virtual cut-through (forward from the head, never letting the tail overtake the input). Output
//! ports queue packets first come, first served, or, with `output_sharing = "round_robin"`, one
//! packet of each waiting message in turn (`RouterBehaviour<FairQueue>`, see `crate::packet_queue`),
//! or, with `"latency_weighted"`, bytes of each waiting message in inverse proportion to its route's
//! latency (`RouterBehaviour<WeightedFairQueue>`, see `crate::weighted_queue`);
//! finite input buffers return credits upstream, which gives back-pressure and, in a cyclic network,
//! can jam (reported as a deadlock naming the stuck ports).
//!
//! The switch is output-queued: contention shows up as waiting for the output link; crossbar
//! conflicts inside the switch are not modelled.
//!
//! Live values (level 3, `catalogue::ROUTER_LIVE`): `queued`, the packets held in all output
//! queues, and `out_queue[p]`, the packets queued for output port p, both updated on enqueue and
//! dequeue; `out_queue[p]` is read each time the output arbiter inspects port p's queue to decide
//! whether its head may leave.

use hase_engine::kernel::DirectDeliveries;
use hase_engine::time::SimTime;
use hase_engine::trace::{TraceLevel, TraceValue};
use hase_engine::{Behaviour, Ctx, PortIndex};

use crate::flow::{OutputPort, Stall};
use crate::message::NetMsg;
use crate::packet_queue::{FairQueue, FifoQueue, Outgoing, PacketQueue, SpareBuffer};
use crate::weighted_queue::WeightedFairQueue;

/// Router states, as in `catalogue::ROUTER_STATES`.
const IDLE: u16 = 0;
const BUSY: u16 = 1;
const BLOCKED: u16 = 2;

/// Traced parameter numbers, in `catalogue::ROUTER_LIVE` order.
const QUEUED: u16 = 0;
const OUT_QUEUE: u16 = 1;

/// Whether a switch waits for the whole packet before forwarding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switching {
    /// Receive the whole packet, then forward.
    StoreAndForward,
    /// Forward as soon as the head is in and routed (buffering the whole packet if the output is busy).
    CutThrough,
}

impl Switching {
    /// From the `switching` parameter's text.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "store_and_forward" => Some(Switching::StoreAndForward),
            "cut_through" => Some(Switching::CutThrough),
            _ => None,
        }
    }
}

/// Chooses the output port for a destination (and source) rank.
pub trait RouteDecision: Send {
    /// The port towards `dst`, or `None` if this router cannot reach it.
    fn next_port(&self, dst: u32, src: u32) -> Option<PortIndex>;
}

impl<F: Fn(u32, u32) -> Option<PortIndex> + Send> RouteDecision for F {
    fn next_port(&self, dst: u32, src: u32) -> Option<PortIndex> {
        self(dst, src)
    }
}

/// Everything a router needs, resolved from its parameters and the network.
pub struct RouterConfig {
    /// Switching model.
    pub switching: Switching,
    /// Delay from (head or tail) arrival to being ready to leave.
    pub routing_delay: SimTime,
    /// Input buffer capacity per port (`None` = unbounded).
    pub buffer_packets: Option<u32>,
    /// Credits each output starts with: the downstream entity's buffer capacity (`None` = unbounded).
    pub downstream_credits: Vec<Option<u32>>,
    /// The routing rule.
    pub route: Box<dyn RouteDecision>,
}

/// What a router counts per port: packets in the port's input buffer, and whether the port's
/// output waits for credits. One 8-byte entry a port, in one vector, where two vectors took two
/// heap blocks and 48 bytes of headers per router.
#[derive(Clone, Copy, Debug, Default)]
struct PortCounters {
    occupancy: u32,
    credit_stalled: bool,
}

/// A router or switch; `Q` orders the packets waiting for each output (first come, first served
/// unless said otherwise).
pub struct RouterBehaviour<Q = FifoQueue> {
    switching: Switching,
    routing_delay: SimTime,
    buffer_packets: Option<u32>,
    route: Box<dyn RouteDecision>,
    outputs: Vec<OutputPort<Q>>,
    /// The buffer an emptied output left, for the next output that queues.
    spare: SpareBuffer,
    /// Per port: its input buffer's occupancy and whether its output waits for credits.
    ports: Vec<PortCounters>,
    forwarded: u64,
    unroutable: u64,
    /// Packets in all output queues (the `queued` live value).
    queued: usize,
    /// Ports whose output waits for credits (four bytes: they sit in padding).
    credit_stalled_ports: u32,
    /// When the last bit of every packet sent so far has left: the latest `link_free` of any
    /// output (only this router sends on its outputs' link directions).
    wire_busy_until: SimTime,
}

impl RouterBehaviour {
    /// A router with one output per port, each serving its packets first come, first served.
    pub fn new(config: RouterConfig) -> Self {
        Self::with_queues(config)
    }
}

impl RouterBehaviour<FairQueue> {
    /// A router with one output per port, each serving one packet of each waiting message in turn.
    pub fn round_robin(config: RouterConfig) -> Self {
        Self::with_queues(config)
    }
}

impl RouterBehaviour<WeightedFairQueue> {
    /// A router with one output per port, each sharing its link among the waiting messages in
    /// inverse proportion to their route latencies.
    pub fn latency_weighted(config: RouterConfig) -> Self {
        Self::with_queues(config)
    }
}

impl<Q: PacketQueue> RouterBehaviour<Q> {
    /// A router with one output per port, each ordering its waiting packets as `Q` does.
    fn with_queues(config: RouterConfig) -> Self {
        let n = config.downstream_credits.len();
        RouterBehaviour {
            switching: config.switching,
            routing_delay: config.routing_delay,
            buffer_packets: config.buffer_packets,
            route: config.route,
            outputs: config
                .downstream_credits
                .iter()
                .enumerate()
                .map(|(i, c)| OutputPort::new(i as PortIndex, *c))
                .collect(),
            spare: SpareBuffer::default(),
            ports: vec![PortCounters::default(); n],
            forwarded: 0,
            unroutable: 0,
            queued: 0,
            credit_stalled_ports: 0,
            wire_busy_until: SimTime::ZERO,
        }
    }

    /// Packets its output queues' buffers have room for, and its spare buffer (one buffer for all
    /// while they are empty).
    #[cfg(test)]
    pub(crate) fn queue_room(&self) -> (usize, usize) {
        (self.outputs.iter().map(OutputPort::room).sum(), self.spare.room())
    }

    /// Free an input buffer slot and, if upstream counts credits, give one back.
    fn release(ports: &mut [PortCounters], finite: bool, ctx: &mut Ctx<'_, NetMsg>, port: PortIndex) {
        let slot = &mut ports[usize::from(port)].occupancy;
        *slot = slot.saturating_sub(1);
        ctx.record_queue(port, *slot as usize);
        if finite {
            ctx.send_untraced(port, SimTime::ZERO, NetMsg::Credit { count: 1 });
        }
    }

    /// Trace the length of output `out`'s queue and the total held (level 3 only).
    fn show_queue(&self, ctx: &mut Ctx<'_, NetMsg>, out: PortIndex) {
        if ctx.tracing(TraceLevel::UPDATES) {
            let len = self.outputs[usize::from(out)].len();
            ctx.set_array(OUT_QUEUE, u32::from(out), TraceValue::Int(len as i64));
            ctx.set_param(QUEUED, TraceValue::Int(self.queued as i64));
        }
    }

    fn pump(&mut self, ctx: &mut Ctx<'_, NetMsg>, out: PortIndex) {
        let finite = self.buffer_packets.is_some();
        let ports = &mut self.ports;
        let forwarded = &mut self.forwarded;
        let wire_busy_until = &mut self.wire_busy_until;
        let output = &mut self.outputs[usize::from(out)];
        // The arbiter looks at this output's queue to decide whether its head may leave.
        ctx.read_array(OUT_QUEUE, u32::from(out));
        let before = output.len();
        let stall = output.pump(ctx, u64::from(out), Some(&mut self.spare), |ctx, item: &Outgoing, info| {
            *forwarded += 1;
            *wire_busy_until = (*wire_busy_until).max(info.link_free);
            if let Some(from) = item.from_port {
                Self::release(ports, finite, ctx, from);
            }
        });
        let left = before - output.len();
        if left > 0 {
            self.queued -= left;
            self.show_queue(ctx, out);
        }
        let output = &mut self.outputs[usize::from(out)];
        if stall == Stall::Empty && ctx.port_free_at(out) > ctx.now() {
            // Stay BUSY while the last packet is on the wire; look again when it has left.
            let free = ctx.port_free_at(out);
            output.arm(ctx, free, u64::from(out));
        }
        let stalled = stall == Stall::Credit;
        let flag = &mut self.ports[usize::from(out)].credit_stalled;
        if *flag != stalled {
            *flag = stalled;
            if stalled {
                self.credit_stalled_ports += 1;
            } else {
                self.credit_stalled_ports -= 1;
            }
        }
        self.update_state(ctx);
    }

    /// BLOCKED while an output waits for credits, else BUSY while a packet waits or is still on a
    /// wire, else IDLE. Kept as counts instead of a look at every port: a router's state is set
    /// each time one of its outputs is served.
    fn update_state(&self, ctx: &mut Ctx<'_, NetMsg>) {
        let state = if self.credit_stalled_ports > 0 {
            BLOCKED
        } else if self.queued > 0 || self.wire_busy_until > ctx.now() {
            BUSY
        } else {
            IDLE
        };
        ctx.set_state(state);
    }
}

impl<Q: PacketQueue> Behaviour<NetMsg> for RouterBehaviour<Q> {
    fn head_delivery(&self, _port: PortIndex) -> bool {
        self.switching == Switching::CutThrough
    }

    fn init(&mut self, ctx: &mut Ctx<'_, NetMsg>) {
        ctx.set_state(IDLE);
        // Every output's queue starts empty; show them all so the list has its full length.
        for out in 0..self.outputs.len() {
            self.show_queue(ctx, out as PortIndex);
        }
    }

    fn on_message(&mut self, ctx: &mut Ctx<'_, NetMsg>, port: PortIndex, msg: NetMsg) {
        match msg {
            NetMsg::Packet(packet) => {
                let slot = &mut self.ports[usize::from(port)].occupancy;
                *slot += 1;
                ctx.record_queue(port, *slot as usize);
                let Some(out) = self
                    .route
                    .next_port(packet.dst, packet.src)
                    .filter(|o| usize::from(*o) < self.outputs.len())
                else {
                    self.unroutable += 1;
                    ctx.comment(|| {
                        format!("no route to rank {} (from rank {}): packet dropped", packet.dst, packet.src)
                    });
                    Self::release(&mut self.ports, self.buffer_packets.is_some(), ctx, port);
                    return;
                };
                let mut earliest = ctx.now() + self.routing_delay;
                if self.switching == Switching::CutThrough {
                    // The output may not finish before the input's tail has arrived.
                    let out_time = ctx.transmission_time(out, u64::from(packet.bytes));
                    earliest = earliest.max(ctx.tail_arrival().saturating_sub(out_time));
                }
                self.outputs[usize::from(out)]
                    .push(Outgoing { packet, earliest, from_port: Some(port) }, Some(&mut self.spare));
                self.queued += 1;
                self.show_queue(ctx, out);
                self.pump(ctx, out);
            }
            NetMsg::Credit { count } => {
                if let Some(o) = self.outputs.get_mut(usize::from(port)) {
                    o.add_credits(count);
                    self.pump(ctx, port);
                }
            }
            NetMsg::CollectiveEnter(_) | NetMsg::CollectiveDone(_) => {
                ctx.comment(|| {
                    "collective message reached a router; only data-sheet network models take them".into()
                });
            }
        }
    }

    fn on_timer(&mut self, ctx: &mut Ctx<'_, NetMsg>, key: u64) {
        let port = key as PortIndex;
        if usize::from(port) < self.outputs.len() {
            self.outputs[usize::from(port)].timer_fired(ctx.now());
            self.pump(ctx, port);
        }
    }

    fn is_finished(&self) -> bool {
        self.outputs.iter().all(OutputPort::is_empty)
    }

    fn blocked_reason(&self) -> Option<String> {
        let waiting: Vec<String> = self
            .outputs
            .iter()
            .filter(|o| !o.is_empty())
            .map(|o| {
                let why = if self.ports[usize::from(o.port)].credit_stalled {
                    "no credit from downstream"
                } else {
                    "link"
                };
                format!("{} packet(s) for port {} waiting ({why})", o.len(), o.port)
            })
            .collect();
        (!waiting.is_empty()).then(|| waiting.join("; "))
    }

    fn traced_params(&self) -> Vec<String> {
        crate::catalogue::ROUTER_LIVE.iter().map(|v| v.name.to_string()).collect()
    }

    fn direct_deliveries(&self) -> DirectDeliveries {
        DirectDeliveries::Never
    }

    fn may_request_stop(&self) -> bool {
        false
    }

    fn summary(&self) -> Vec<(String, TraceValue)> {
        vec![
            ("packets_forwarded".into(), TraceValue::Int(self.forwarded as i64)),
            ("packets_unroutable".into(), TraceValue::Int(self.unroutable as i64)),
        ]
    }
}
