//! The hop-count behavioural network model: a whole network as one entity with the same ports,
//! delivering each packet after the contention-free time of its path (store-and-forward or
//! cut-through formula). Contention on the outer links (into each processor) is still simulated by
//! the kernel, as it is in the detailed network; contention inside the network is not — which is the
//! point of comparing the two levels.
//!
//! A packet is handed to its outer link when it leaves the network (a timer at its leave time),
//! not when it enters with a delay: the kernel reserves a link in the order sends are called, so a
//! packet entering later on a shorter path would otherwise queue behind one that entered earlier on
//! a longer path and leaves after it — a head-of-line wait the detailed network does not have
//! (`docs/analysis.md`, "Why the hop-count level was slower").
//!
//! Live value (level 3): `in_flight`, the packets on their way out (the first of
//! `catalogue::NETWORK_MODEL_LIVE`; the data-sheet model's others do not apply).

use std::collections::BTreeMap;

use hase_engine::kernel::DirectDeliveries;
use hase_engine::trace::TraceValue;
use hase_engine::{Behaviour, Ctx, PortIndex};

use super::paths::PathTable;
use crate::message::{NetMsg, Packet};
use crate::router::switch::Switching;

const IDLE: u16 = 0;
const BUSY: u16 = 1;

/// A network standing in for its detailed structure.
pub struct HopModel {
    switching: Switching,
    paths: PathTable,
    rank_port: Vec<Option<PortIndex>>,
    in_flight: u64,
    delivered: u64,
    unroutable: u64,
    /// Packets inside the network by timer key: the port they leave by.
    leaving: BTreeMap<u64, (PortIndex, Packet)>,
    next_key: u64,
}

impl HopModel {
    /// A model; `rank_port[r]` is the port rank `r` is attached to.
    pub fn new(switching: Switching, paths: PathTable, rank_port: Vec<Option<PortIndex>>) -> Self {
        HopModel {
            switching,
            paths,
            rank_port,
            in_flight: 0,
            delivered: 0,
            unroutable: 0,
            leaving: BTreeMap::new(),
            next_key: 0,
        }
    }
}

impl Behaviour<NetMsg> for HopModel {
    fn head_delivery(&self, _port: PortIndex) -> bool {
        self.switching == Switching::CutThrough
    }

    fn init(&mut self, ctx: &mut Ctx<'_, NetMsg>) {
        ctx.set_state(IDLE);
    }

    fn on_message(&mut self, ctx: &mut Ctx<'_, NetMsg>, port: PortIndex, msg: NetMsg) {
        let NetMsg::Packet(packet) = msg else { return };
        let out = self.rank_port.get(packet.dst as usize).copied().flatten();
        let cost = out.and_then(|o| self.paths.cost(port, o).map(|c| (o, c)));
        let Some((out, cost)) = cost else {
            self.unroutable += 1;
            ctx.comment(|| format!("no path to rank {}: packet dropped", packet.dst));
            return;
        };
        let now = ctx.now();
        let bytes = u64::from(packet.bytes);
        let saf = self.switching == Switching::StoreAndForward;
        let mut leave = now + cost.delay(bytes, saf);
        if !saf {
            leave = leave.max(ctx.tail_arrival().saturating_sub(ctx.transmission_time(out, bytes)));
        }
        let key = self.next_key;
        self.next_key += 1;
        self.leaving.insert(key, (out, packet));
        self.in_flight += 1;
        ctx.set_param(0, TraceValue::Int(self.in_flight as i64));
        self.delivered += 1;
        ctx.set_state(BUSY);
        ctx.schedule_at(leave, key);
    }

    fn on_timer(&mut self, ctx: &mut Ctx<'_, NetMsg>, key: u64) {
        if let Some((out, packet)) = self.leaving.remove(&key) {
            ctx.send(out, NetMsg::Packet(packet));
        }
        self.in_flight = self.in_flight.saturating_sub(1);
        ctx.set_param(0, TraceValue::Int(self.in_flight as i64));
        if self.in_flight == 0 {
            ctx.set_state(IDLE);
        }
    }

    fn traced_params(&self) -> Vec<String> {
        vec![crate::catalogue::NETWORK_MODEL_LIVE[0].name.to_string()]
    }

    fn direct_deliveries(&self) -> DirectDeliveries {
        DirectDeliveries::Never
    }

    fn may_request_stop(&self) -> bool {
        false
    }

    fn summary(&self) -> Vec<(String, TraceValue)> {
        vec![
            ("packets_delivered".into(), TraceValue::Int(self.delivered as i64)),
            ("packets_unroutable".into(), TraceValue::Int(self.unroutable as i64)),
        ]
    }
}
