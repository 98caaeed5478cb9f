//! A packet waiting to leave an output port, with the earliest time it may start and the input
//! port whose buffer slot it holds.

use hase_engine::PortIndex;
use hase_engine::time::SimTime;

use crate::message::Packet;

/// A packet waiting to leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outgoing {
    /// The packet.
    pub packet: Packet,
    /// It may not start before this time.
    pub earliest: SimTime,
    /// Input port it came in on (routers free that buffer slot when it leaves).
    pub from_port: Option<PortIndex>,
}
