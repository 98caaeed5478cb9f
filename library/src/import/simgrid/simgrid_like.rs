//! The settings that make a hase run compare with SimGrid's flow model on the same platform.

use hase_engine::model::ParamValue;

/// SMPI sends a message eagerly (detached: its send completes at once) when it is smaller than
/// this (`smpi/send-is-detached-thresh`, 65 536 B); hase's `eager_limit` is the largest eager size.
pub(crate) const SMPI_EAGER_BELOW_BYTES: i64 = 65_536;

/// The envelope SMPI adds to every message on the wire (`payload_size_ = size_ + 16` in its
/// `smpi_request.cpp`: tag, destination and communicator).
pub(crate) const SMPI_ENVELOPE_BYTES: i64 = 16;

/// Processor settings of a SimGrid-like run: no send or receive overhead (SMPI's defaults), SMPI's
/// eager limit (eager below 64 KiB) and 16-byte envelope, rendezvous without a handshake across the
/// network (SMPI starts a large message as soon as both sides have posted), eager data that travels
/// once the receive is posted (SMPI's `smpi/async-small-thresh` is 0), a network interface that
/// shares its link among simultaneous sends (SimGrid's flows share it), 4 KiB packets, and the
/// host's speed.
pub(crate) fn processor_params(flops_per_s: f64) -> Vec<(&'static str, ParamValue)> {
    vec![
        ("flops_per_s", ParamValue::Float(flops_per_s)),
        ("send_overhead", ParamValue::Time(hase_engine::SimTime::ZERO)),
        ("recv_overhead", ParamValue::Time(hase_engine::SimTime::ZERO)),
        ("eager_limit", ParamValue::Int(SMPI_EAGER_BELOW_BYTES - 1)),
        ("header_bytes", ParamValue::Int(SMPI_ENVELOPE_BYTES)),
        ("rendezvous", ParamValue::Text("direct".into())),
        ("eager_start", ParamValue::Text("receive_posted".into())),
        ("nic_sharing", ParamValue::Text("round_robin".into())),
        ("max_packet", ParamValue::Int(4096)),
    ]
}

/// Processor settings of a flow-latency import: each message waits at the interface for its
/// route's latency (`host_link` per link between a host and a switch, `router_link` per link
/// between switches) before its first packet leaves, as SimGrid's flow model pays it, and the
/// messages leaving together share the interface's link in inverse proportion to those latencies
/// (SimGrid's max-min sharing, whose sharing penalty of a flow is its route's latency).
pub(crate) fn route_latency_params(
    host_link: hase_engine::SimTime,
    router_link: hase_engine::SimTime,
) -> Vec<(&'static str, ParamValue)> {
    vec![
        ("route_latency_per_host_link", ParamValue::Time(host_link)),
        ("route_latency_per_router_link", ParamValue::Time(router_link)),
        ("nic_sharing", ParamValue::Text("latency_weighted".into())),
    ]
}

/// Router settings of a flow-latency import: outputs share their links among the waiting messages
/// in inverse proportion to their route latencies, which their packets carry from the interfaces.
pub(crate) fn flow_router_params() -> Vec<(&'static str, ParamValue)> {
    vec![("output_sharing", ParamValue::Text("latency_weighted".into()))]
}

/// Router settings of a SimGrid-like run: cut-through (a message is serialised once end to end, as
/// in a flow model), no routing delay (SimGrid charges only link latencies), and outputs that serve
/// one packet of each waiting message in turn (SimGrid's max-min model gives every flow crossing a
/// link its share at every instant).
pub(crate) fn router_params() -> Vec<(&'static str, ParamValue)> {
    vec![
        ("switching", ParamValue::Text("cut_through".into())),
        ("routing_delay", ParamValue::Time(hase_engine::SimTime::ZERO)),
        ("output_sharing", ParamValue::Text("round_robin".into())),
    ]
}

/// Router settings of a SimGrid-like torus: halfway round a ring, the way SimGrid's `TorusZone`
/// takes (the + way, except from the position halfway round, which goes the − way).
pub(crate) fn torus_router_params() -> Vec<(&'static str, ParamValue)> {
    vec![("torus_tie", ParamValue::Text("simgrid".into()))]
}
