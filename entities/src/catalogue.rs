//! The built-in entity types and the names of the behaviours that simulate them.

use hase_engine::model::{Direction, EntityType, ParamDef, ParamKind, ParamValue, PortDef, TypeRegistry};
use hase_engine::time::SimTime;

use crate::message::PACKET_LINK;
use crate::mpi::op::{Algorithm, CollectiveKind};
use crate::netmodel::datasheet::Estimate;
use crate::packet_queue::OutputSharing;
use crate::processor::mpi::EagerStart;
use crate::processor::outbox::NicSharing;
use crate::router::routing::tie::TorusTie;

/// Behaviour name of processors.
pub const PROCESSOR: &str = "processor";
/// Behaviour name of routers and switches.
pub const ROUTER: &str = "router";
/// Behaviour name of the behavioural network models (hop-count or data-sheet).
pub const NETWORK_MODEL: &str = "network_model";

/// Processor states, in trace order. Collective states follow `CollectiveKind::ALL`; the
/// collectives added later (reduce-scatter, scan) come after `DONE`, so earlier state numbers stay.
pub const PROCESSOR_STATES: [&str; 16] = [
    "IDLE",
    "COMPUTE",
    "SEND",
    "RECV",
    "WAIT",
    "BARRIER",
    "BCAST",
    "REDUCE",
    "ALLREDUCE",
    "GATHER",
    "SCATTER",
    "ALLGATHER",
    "ALLTOALL",
    "DONE",
    "REDUCE_SCATTER",
    "SCAN",
];

/// Router states.
pub const ROUTER_STATES: [&str; 3] = ["IDLE", "BUSY", "BLOCKED"];

/// Network model states.
pub const NETWORK_MODEL_STATES: [&str; 2] = ["IDLE", "BUSY"];

/// A value a built-in behaviour traces at level 3 while it runs (HASE's displayed parameters and
/// memory arrays), for the animator and the timing diagram. The trace header lists a behaviour's
/// live values in this order; the inspector offers a display choice for each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveValue {
    /// Name in the trace header and in the layout's display choices.
    pub name: &'static str,
    /// An array (one element per port, rank or table entry) rather than a single value.
    pub array: bool,
    /// What it counts and when it changes, for tooltips.
    pub description: &'static str,
}

/// Live values of routers and switches.
pub const ROUTER_LIVE: [LiveValue; 2] = [
    LiveValue {
        name: "queued",
        array: false,
        description: "packets held in the output queues; changes on every enqueue and departure",
    },
    LiveValue {
        name: "out_queue",
        array: true,
        description: "packets queued per output port; read when the arbiter inspects that port's queue",
    },
];

/// Live values of processors.
pub const PROCESSOR_LIVE: [LiveValue; 5] = [
    LiveValue {
        name: "op",
        array: false,
        description: "the program operation being run (`send 1024 B → 3`)",
    },
    LiveValue { name: "sent_msgs", array: false, description: "messages this rank has posted for sending" },
    LiveValue { name: "recv_msgs", array: false, description: "messages this rank has received in full" },
    LiveValue {
        name: "sent_bytes",
        array: false,
        description: "bytes of the messages this rank has posted for sending",
    },
    LiveValue {
        name: "unexpected",
        array: true,
        description: "messages arrived per source rank that no receive has matched yet; read when a \
                      posted receive searches them",
    },
];

/// Live values of the behavioural network models (the hop-count model traces only `in_flight`).
pub const NETWORK_MODEL_LIVE: [LiveValue; 3] = [
    LiveValue { name: "in_flight", array: false, description: "messages and releases on their way out" },
    LiveValue {
        name: "entered",
        array: false,
        description: "ranks inside collectives not yet released (data-sheet model)",
    },
    LiveValue {
        name: "sheet_lookups",
        array: true,
        description: "uses of each data-sheet entry: 0 point-to-point, then barrier, bcast, reduce, \
                      allreduce, gather, scatter, allgather, alltoall, reduce_scatter, scan; read at every \
                      lookup",
    },
];

/// The live values a built-in behaviour traces (empty for an unknown behaviour).
pub fn live_values(behaviour: &str) -> &'static [LiveValue] {
    match behaviour {
        PROCESSOR => &PROCESSOR_LIVE,
        ROUTER => &ROUTER_LIVE,
        NETWORK_MODEL => &NETWORK_MODEL_LIVE,
        _ => &[],
    }
}

fn time(name: &str, default: SimTime, text: &str) -> ParamDef {
    ParamDef::new(name, ParamKind::Time { min: None, max: None }, ParamValue::Time(default)).describe(text)
}

fn int(name: &str, min: i64, max: Option<i64>, default: i64, unit: Option<&str>, text: &str) -> ParamDef {
    let mut p =
        ParamDef::new(name, ParamKind::Int { min: Some(min), max }, ParamValue::Int(default)).describe(text);
    p.unit = unit.map(str::to_string);
    p
}

fn choice(name: &str, choices: &[&str], default: &str, text: &str) -> ParamDef {
    ParamDef::new(
        name,
        ParamKind::Enum { choices: choices.iter().map(|c| (*c).to_string()).collect() },
        ParamValue::Text(default.to_string()),
    )
    .describe(text)
}

fn algorithm_param(kind: CollectiveKind) -> ParamDef {
    let names: Vec<&str> = Algorithm::for_kind(kind).iter().map(|a| a.name()).collect();
    choice(
        &format!("{}_algorithm", kind.state_name().to_ascii_lowercase()),
        &names,
        Algorithm::default_for(kind).name(),
        "algorithm used when the program does not choose one",
    )
}

/// Parameters every processor type shares.
fn processor_params() -> Vec<ParamDef> {
    let mut params = vec![
        int("rank", -1, None, -1, None, "MPI rank; -1 numbers processors by path order"),
        time("time_step", SimTime::from_ns(1), "duration of one COMPUTE step"),
        ParamDef::new("flops_per_s", ParamKind::Float { min: Some(1.0), max: None }, ParamValue::Float(1e9))
            .unit("flop/s")
            .describe("speed used for traced compute amounts given in flops"),
        time("send_overhead", SimTime::from_ns(500), "processor time to start a send (o_s)"),
        time("recv_overhead", SimTime::from_ns(500), "processor time to complete a receive (o_r)"),
        int(
            "eager_limit",
            0,
            None,
            4096,
            Some("bytes"),
            "messages above this size use the rendezvous protocol",
        ),
        choice(
            "rendezvous",
            &["handshake", "direct"],
            "handshake",
            "rendezvous protocol: RTS/CTS across the network, or direct (sender and receiver meet at no cost \
             and the send completes when the receiver has it all, as SimGrid charges it)",
        ),
        choice(
            "eager_start",
            &EagerStart::NAMES,
            EagerStart::NAMES[0],
            "when an eager message's data starts to travel: at the send (as Open MPI does), or when the \
             receiver has posted its receive, the send completing at once (as SimGrid's SMPI times it)",
        ),
        choice(
            "nic_sharing",
            &NicSharing::NAMES,
            NicSharing::NAMES[0],
            "how the network interface shares its link among messages sent at the same time: one after \
             another in posting order, one packet of each in turn (as multi-queue interfaces do), or \
             bytes of each in inverse proportion to its route's latency (as SimGrid's max-min model \
             shares a link among flows; needs the route_latency parameters, else all weigh the same)",
        ),
        time(
            "route_latency_per_host_link",
            SimTime::ZERO,
            "latency a message waits at the network interface, before its first packet leaves, for \
             each link of its route between a processor and a router (as SimGrid's flow model pays a \
             route's latency; 0: links pay their own)",
        ),
        time(
            "route_latency_per_router_link",
            SimTime::ZERO,
            "latency a message waits at the network interface, before its first packet leaves, for \
             each link of its route between two routers (0: links pay their own)",
        ),
        int(
            "header_bytes",
            0,
            None,
            0,
            Some("bytes"),
            "bytes every message carries on the wire besides its data",
        ),
        int("max_packet", 1, None, 1024, Some("bytes"), "largest packet the network interface sends"),
        time("reduce_time_per_kib", SimTime::ZERO, "time to combine 1 KiB of data in a reduction"),
        int("segment_bytes", 1, None, 8192, Some("bytes"), "segment size of pipelined collectives"),
    ];
    for kind in [
        CollectiveKind::Barrier,
        CollectiveKind::Bcast,
        CollectiveKind::Allreduce,
        CollectiveKind::Allgather,
        CollectiveKind::Alltoall,
        CollectiveKind::ReduceScatter,
        CollectiveKind::Scan,
    ] {
        params.push(algorithm_param(kind));
    }
    params
}

/// A processor with one bidirectional network port.
pub fn processor_type() -> EntityType {
    EntityType {
        description: "Runs one MPI rank: computes, sends and receives through its network port, and runs \
                      collectives as point-to-point schedules."
            .into(),
        icon: Some("processor".into()),
        ports: vec![PortDef::new("net", Direction::InOut, PACKET_LINK)],
        params: processor_params(),
        states: PROCESSOR_STATES.iter().map(|s| (*s).to_string()).collect(),
        ..EntityType::leaf("Processor", "Processors", PROCESSOR)
    }
}

/// A processor with separate transmit and receive ports, for unidirectional multistage networks.
pub fn processor_split_type() -> EntityType {
    EntityType {
        name: "ProcessorTxRx".into(),
        description: "A processor whose network interface has separate transmit (`tx`) and receive (`rx`) \
                      ports, for unidirectional networks such as the omega network."
            .into(),
        ports: vec![
            PortDef::new("tx", Direction::Out, PACKET_LINK),
            PortDef::new("rx", Direction::In, PACKET_LINK),
        ],
        ..processor_type()
    }
}

/// Parameters every router type shares.
fn router_params() -> Vec<ParamDef> {
    vec![
        choice("switching", &["store_and_forward", "cut_through"], "store_and_forward", "switching model"),
        time("routing_delay", SimTime::from_ns(20), "time to route a packet through the switch (o)"),
        int("buffer_packets", 0, None, 0, Some("packets"), "input buffer per port; 0 = unbounded"),
        choice(
            "output_sharing",
            &OutputSharing::NAMES,
            OutputSharing::NAMES[0],
            "how an output serves the packets waiting for it: first come, first served, one packet of \
             each waiting message in turn (as a fair-queueing switch does; messages share the link as \
             flows do in SimGrid), or bytes of each waiting message in inverse proportion to the latency \
             of its route, which its sender's route_latency parameters give (SimGrid's max-min sharing, \
             which weighs each flow by its route's latency)",
        ),
        choice(
            "torus_tie",
            &TorusTie::NAMES,
            TorusTie::NAMES[0],
            "on a torus, the way a packet takes when both ways round a ring are equally long: always the + \
             way, or as SimGrid's TorusZone (the + way, except from halfway round the ring)",
        ),
        ParamDef::new("coord", ParamKind::IntArray { len: None }, ParamValue::IntArray(Vec::new()))
            .describe("position in a mesh, torus or hypercube (set by templates)"),
        int("stage", 0, None, 0, None, "stage of a multistage network (set by templates)"),
        int("level", 0, None, 0, None, "level in a tree, 0 = leaf switches (set by templates)"),
        int("index", 0, None, 0, None, "position within its level or stage (set by templates)"),
    ]
}

/// A router or switch with `radix` bidirectional ports.
pub fn router_type() -> EntityType {
    let mut params = vec![int("radix", 1, Some(4096), 4, Some("ports"), "number of ports")];
    params.extend(router_params());
    EntityType {
        description:
            "Forwards packets between its ports using the network's routing rule, store-and-forward \
                      or cut-through, with optional finite input buffers and credit back-pressure."
                .into(),
        icon: Some("router".into()),
        ports: vec![PortDef::new("p", Direction::InOut, PACKET_LINK).array_by("radix").optional()],
        params,
        states: ROUTER_STATES.iter().map(|s| (*s).to_string()).collect(),
        ..EntityType::leaf("Router", "Switches", ROUTER)
    }
}

/// A 2×2 switch with two inputs and two outputs, for omega networks. Port order: `in0, in1, out0, out1`.
pub fn switch2x2_type() -> EntityType {
    EntityType {
        description: "A 2×2 crossbar switch of a multistage network: packets enter on in0/in1 and leave on \
                      out0/out1 chosen by the destination tag."
            .into(),
        icon: Some("switch".into()),
        ports: vec![
            PortDef::new("in", Direction::In, PACKET_LINK).array(2).optional(),
            PortDef::new("out", Direction::Out, PACKET_LINK).array(2).optional(),
        ],
        params: router_params(),
        states: ROUTER_STATES.iter().map(|s| (*s).to_string()).collect(),
        ..EntityType::leaf("Switch2x2", "Switches", ROUTER)
    }
}

/// Parameters of the behavioural network models (also carried by template compound network types).
pub fn network_model_params() -> Vec<ParamDef> {
    vec![
        choice("model", &["hop", "datasheet"], "hop", "hop-count (contention-free) or MPI data-sheet model"),
        ParamDef::new(
            "sheet",
            ParamKind::File { extensions: vec!["ron".into()] },
            ParamValue::Text("cray_t3d".into()),
        )
        .describe(
            "data sheet used by the datasheet model: a built-in name (cray_t3d, network_of_workstations) \
             or a sheet file (.ron) relative to the project",
        ),
        choice(
            "band",
            &Estimate::NAMES,
            "avg",
            "which fit of the data sheet to use: min, avg, max, or measured (the measurements between measured sizes, avg elsewhere)",
        ),
    ]
}

/// A stand-alone behavioural network with `ports` attachment points, for hand-drawn projects: every
/// pair of ports is `hops` switches apart.
pub fn network_model_type() -> EntityType {
    let mut params = vec![
        int("ports", 1, Some(65_536), 8, Some("ports"), "number of attachment ports"),
        int("hops", 0, None, 1, Some("switches"), "switches between any two ports (hop model)"),
        choice(
            "switching",
            &["store_and_forward", "cut_through"],
            "store_and_forward",
            "switching model (hop model)",
        ),
        time("routing_delay", SimTime::from_ns(20), "per-switch delay (hop model)"),
        time("latency", SimTime::from_ns(10), "per-link latency inside the network (hop model)"),
        int(
            "bandwidth",
            0,
            None,
            1_000_000_000,
            Some("B/s"),
            "per-link bandwidth inside the network (hop model)",
        ),
    ];
    params.extend(network_model_params());
    EntityType {
        description: "A whole network as one behavioural model: a hop-count formula without contention, or \
                      per-MPI-function data-sheet equations."
            .into(),
        icon: Some("network".into()),
        ports: vec![PortDef::new("p", Direction::InOut, PACKET_LINK).array_by("ports").optional()],
        params,
        states: NETWORK_MODEL_STATES.iter().map(|s| (*s).to_string()).collect(),
        ..EntityType::leaf("NetworkModel", "Networks", NETWORK_MODEL)
    }
}

/// Every built-in type.
pub fn builtin_types() -> Vec<EntityType> {
    vec![processor_type(), processor_split_type(), router_type(), switch2x2_type(), network_model_type()]
}

/// A registry holding the built-in types.
pub fn builtin_registry() -> TypeRegistry {
    TypeRegistry::new(builtin_types())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_satisfy_their_own_kinds() {
        for t in builtin_types() {
            for p in &t.params {
                let d = p.default.as_ref().expect("built-in params have defaults");
                assert!(p.kind.check(d).is_ok(), "{}.{}: {:?}", t.name, p.name, p.kind.check(d));
            }
        }
    }

    #[test]
    fn live_values_never_share_a_name_with_a_parameter() {
        // Display choices are keyed by name, so a live value must not shadow a parameter.
        for t in builtin_types() {
            let live = live_values(t.behaviour.as_deref().unwrap_or_default());
            assert!(!live.is_empty(), "{} traces nothing", t.name);
            for v in live {
                assert!(t.param(v.name).is_none(), "{}.{} is both", t.name, v.name);
            }
        }
    }

    #[test]
    fn processor_states_cover_every_collective() {
        for k in CollectiveKind::ALL {
            let state = crate::processor::action::state::collective(k);
            assert_eq!(PROCESSOR_STATES[usize::from(state)], k.state_name(), "{k:?}");
        }
        assert_eq!(PROCESSOR_STATES[usize::from(crate::processor::action::state::DONE)], "DONE");
    }
}
