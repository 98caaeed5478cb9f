//! The settings that make a hase run compare with SimGrid's flow model on the same platform.

use hase_engine::model::ParamValue;

/// Processor settings of a SimGrid-like run: no send or receive overhead (SMPI's defaults), SMPI's
/// 64 KiB eager limit, rendezvous without a handshake across the network (SMPI starts a large
/// message as soon as both sides have posted), 4 KiB packets, and the host's speed.
pub(crate) fn processor_params(flops_per_s: f64) -> Vec<(&'static str, ParamValue)> {
    vec![
        ("flops_per_s", ParamValue::Float(flops_per_s)),
        ("send_overhead", ParamValue::Time(hase_engine::SimTime::ZERO)),
        ("recv_overhead", ParamValue::Time(hase_engine::SimTime::ZERO)),
        ("eager_limit", ParamValue::Int(65_536)),
        ("rendezvous", ParamValue::Text("direct".into())),
        ("max_packet", ParamValue::Int(4096)),
    ]
}

/// Router settings of a SimGrid-like run: cut-through (a message is serialised once end to end, as
/// in a flow model) and no routing delay (SimGrid charges only link latencies).
pub(crate) fn router_params() -> Vec<(&'static str, ParamValue)> {
    vec![
        ("switching", ParamValue::Text("cut_through".into())),
        ("routing_delay", ParamValue::Time(hase_engine::SimTime::ZERO)),
    ]
}
