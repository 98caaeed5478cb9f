//! The hop model of one message on an idle network, LogGP-style: the sender's overhead o_s, h links
//! of latency L and bandwidth B, h − 1 switches of routing delay o, the receiver's overhead o_r.
//! Store-and-forward serialises every packet on every link and pipelines the packets behind the
//! first; cut-through serialises once end to end. The one formula the closed-form oracles
//! (`tests/tests/e2e/oracles.rs`) check against the simulator and [`super::expected_run`] builds
//! collectives from.

use hase_engine::time::SimTime;

/// How a switch forwards a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switching {
    /// The whole packet arrives before it leaves (each link serialises it).
    StoreAndForward,
    /// The head leaves as soon as it is routed (one serialisation end to end).
    CutThrough,
}

impl Switching {
    /// The value of a router's `switching` parameter, if it is one of the two.
    pub fn from_name(name: &str) -> Option<Switching> {
        match name {
            "store_and_forward" => Some(Switching::StoreAndForward),
            "cut_through" => Some(Switching::CutThrough),
            _ => None,
        }
    }
}

/// Network and processor timing of a uniform design: every link, switch and processor alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HopTiming {
    /// Link latency L.
    pub latency: SimTime,
    /// Link bandwidth B (bytes/s).
    pub bandwidth_bytes_per_s: u64,
    /// Delay o of each switch on the route.
    pub routing_delay: SimTime,
    /// Send overhead o_s.
    pub send_overhead: SimTime,
    /// Receive overhead o_r.
    pub recv_overhead: SimTime,
    /// Largest packet P (bytes).
    pub max_packet_bytes: u64,
    /// The switches' model.
    pub switching: Switching,
}

impl HopTiming {
    /// Serialisation of `bytes` at B.
    pub fn ser(&self, bytes: u64) -> SimTime {
        SimTime::transmission(bytes, self.bandwidth_bytes_per_s)
    }

    /// Packets of a message of `bytes` (an empty message is one packet).
    pub fn packets(&self, bytes: u64) -> u64 {
        bytes.div_ceil(self.max_packet_bytes.max(1)).max(1)
    }

    /// True when the formula of [`HopTiming::message`] is exact for `bytes`: always with
    /// cut-through (the packets leave back to back and are serialised once); with
    /// store-and-forward one packet or whole packets only (a short last packet catches up with
    /// the one before it on the second link).
    pub fn exact_for(&self, bytes: u64) -> bool {
        match self.switching {
            Switching::CutThrough => true,
            Switching::StoreAndForward => {
                self.packets(bytes) == 1 || bytes.is_multiple_of(self.max_packet_bytes)
            }
        }
    }

    /// Time of one message of `bytes` over `links` links (processor links included, so
    /// `links − 1` switches), from the send call to the end of the receive, with nothing else on
    /// the network. With k packets of P bytes, the last of R bytes (R = P for whole packets):
    /// store-and-forward o_s + h(L + P/B) + (h − 1)o + (k − 1)P/B + o_r;
    /// cut-through o_s + hL + (h − 1)o + (k − 1)P/B + R/B + o_r.
    pub fn message(&self, links: u64, bytes: u64) -> SimTime {
        let k = self.packets(bytes);
        let packet = self.ser(bytes.min(self.max_packet_bytes));
        let last = self.ser(bytes - (k - 1) * self.max_packet_bytes.max(1));
        let fixed = self.send_overhead
            + self.recv_overhead
            + self.latency.times(links)
            + self.routing_delay.times(links.saturating_sub(1));
        match self.switching {
            Switching::StoreAndForward => fixed + packet.times(links) + packet.times(k - 1),
            Switching::CutThrough => fixed + packet.times(k - 1) + last,
        }
    }
}
