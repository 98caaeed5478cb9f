//! A router output's latency-weighted fair queue (`output_sharing = "latency_weighted"`): the
//! messages waiting for the output share it in inverse proportion to their sharing penalties
//! (the route latencies their packets carry, [`crate::sharing_penalty::SharingPenalty`]), as
//! SimGrid's max-min model shares a link among the flows crossing it.
//!
//! It is self-clocked fair queueing in integers. A message that has no packet waiting joins with
//! the virtual finish of its packet = the queue's virtual time (the finish of the packet served
//! last) + the packet's bytes × its penalty; while it stays queued, each next packet's finish is
//! the previous one's plus its own service. The packet with the smallest finish among those that
//! may start leaves next, ties to the message that joined first. Two messages that stay queued
//! then receive bytes in the inverse ratio of their penalties (a route of 2 us gets twice the bytes
//! of one of 4 us); messages with equal penalties share the bytes equally. The virtual time starts
//! again from zero whenever the queue empties, so it stays within the bytes waiting × the largest
//! penalty.
//!
//! The network interface's weighted queue (`processor::outbox`) keeps as its virtual time the
//! latest *start* of a packet sent, so a message that joins there takes its share from the next
//! packet on. Here the virtual time is the *finish* of the packet served last: a router's messages
//! come packet by packet, empty and join again, and joining at the latest start would let a
//! message that does so gain its packets' service each time. Measured against SMPI
//! (`scripts/crosscheck-simgrid --latency flow`), the pairwise alltoall on a 4 × 4 × 4 torus is
//! +1.9 / −0.1 / −0.5 % apart at 8 KiB / 64 KiB / 1 MiB with the finish here, and +3.5 / +10.2 /
//! +10.3 % with the start.

use std::collections::VecDeque;

use hase_engine::time::SimTime;

use crate::packet_queue::{MessageKey, Outgoing, Overflow, PacketQueue, SpareBuffer, fill_buffer, key_of};

/// One message's packets waiting for the output.
#[derive(Clone, Debug)]
struct Backlog {
    key: MessageKey,
    packets: VecDeque<Outgoing>,
    /// Virtual finish of its first waiting packet.
    finish: u128,
}

/// Packets served in order of their messages' virtual finish times.
#[derive(Clone, Debug, Default)]
pub struct WeightedFairQueue {
    /// The messages with packets waiting, in the order they joined. Its room for one entry (64
    /// bytes) is kept when the queue empties: most packets cross an output alone, and making and
    /// freeing the entry for each of them was a tenth of an imported fat tree's run.
    backlogs: Vec<Backlog>,
    /// Packets waiting, all messages together.
    len: usize,
    /// Virtual finish of the packet served last (zero when the queue last emptied).
    virtual_time: u128,
}

impl PacketQueue for WeightedFairQueue {
    fn len(&self) -> usize {
        self.len
    }

    fn room(&self) -> usize {
        self.backlogs.iter().map(|b| b.packets.capacity()).sum::<usize>()
    }

    fn push(&mut self, item: Outgoing, spare: Option<&mut SpareBuffer>) {
        let key = key_of(&item.packet);
        self.len += 1;
        // The message that joined last is the likeliest to be receiving more packets.
        if let Some(backlog) = self.backlogs.iter_mut().rev().find(|b| b.key == key) {
            backlog.packets.push_back(item);
            return;
        }
        let finish = self.virtual_time + item.packet.penalty.service(u64::from(item.packet.bytes));
        let mut packets = VecDeque::new();
        fill_buffer(&mut packets, spare, Overflow::Free);
        packets.push_back(item);
        if self.backlogs.capacity() == 0 {
            self.backlogs.reserve_exact(1);
        }
        self.backlogs.push(Backlog { key, packets, finish });
    }

    fn next_start(&self) -> Option<SimTime> {
        self.backlogs.iter().filter_map(|b| b.packets.front()).map(|head| head.earliest).min()
    }

    fn take(&mut self, now: SimTime, spare: Option<&mut SpareBuffer>) -> Option<Outgoing> {
        let (at, _) = self
            .backlogs
            .iter()
            .enumerate()
            .filter(|(_, b)| b.packets.front().is_some_and(|head| head.earliest <= now))
            .min_by_key(|(_, b)| b.finish)?;
        let backlog = &mut self.backlogs[at];
        let served = backlog.packets.pop_front()?;
        self.len -= 1;
        self.virtual_time = backlog.finish;
        if let Some(next) = backlog.packets.front() {
            backlog.finish += next.packet.penalty.service(u64::from(next.packet.bytes));
        } else {
            let emptied = self.backlogs.remove(at);
            if let Some(spare) = spare {
                spare.keep(emptied.packets, Overflow::Free);
            }
        }
        if self.backlogs.is_empty() {
            self.virtual_time = 0;
        }
        Some(served)
    }
}

#[cfg(test)]
#[path = "weighted_queue_tests.rs"]
mod tests;
