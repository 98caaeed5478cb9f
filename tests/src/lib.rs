//! Helpers for the end-to-end tests: where the example projects live, running a project to a
//! result, and building small projects in code for the closed-form oracles.

pub mod fuzz;

use std::collections::BTreeMap;
use std::path::PathBuf;

use hase_engine::kernel::RunOutcome;
use hase_engine::model::{ParamValue, Project, StreamSource, Workload};
use hase_engine::time::SimTime;
use hase_library::expected::{HopTiming, Switching};
use hase_library::runner::{RunOptions, RunResult, TraceTarget, run_project};
use hase_templates::{LinkParams, ProjectForm, TemplateSpec, Topology, template_project};

/// The repository's `projects/` directory.
pub fn projects_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../projects")
}

/// The golden fingerprints file.
pub fn golden_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden/fingerprints.ron")
}

/// True when the tests should rewrite committed files instead of comparing (`HASE_BLESS=1`).
pub fn blessing() -> bool {
    std::env::var("HASE_BLESS").is_ok_and(|v| v == "1")
}

/// Run with a fingerprint and no trace; panics with the error if the run cannot start.
pub fn run(project: &Project) -> RunResult {
    run_with(project, &RunOptions { fingerprint: true, base_dir: projects_dir(), ..RunOptions::default() })
}

/// Run with options; panics with the error if the run cannot start.
pub fn run_with(project: &Project, options: &RunOptions) -> RunResult {
    match run_project(project, options, |_| {}) {
        Ok(r) => r,
        Err(e) => panic!("{}: {e}", project.name),
    }
}

/// Run keeping the trace in memory.
pub fn run_traced(project: &Project) -> RunResult {
    run_with(
        project,
        &RunOptions { trace: TraceTarget::Memory, base_dir: projects_dir(), ..RunOptions::default() },
    )
}

/// Makespan of a run that must complete.
pub fn makespan(result: &RunResult) -> SimTime {
    assert_eq!(result.outcome, RunOutcome::Completed, "{:?}", result.stats.deadlock);
    SimTime(result.stats.makespan_ps)
}

/// Network and processor timing used by the oracles.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Link latency L.
    pub latency: SimTime,
    /// Link bandwidth B (bytes/s).
    pub bandwidth: u64,
    /// Router delay o (per switch).
    pub routing_delay: SimTime,
    /// Send overhead o_s.
    pub send_overhead: SimTime,
    /// Receive overhead o_r.
    pub recv_overhead: SimTime,
    /// Largest packet.
    pub max_packet: u64,
    /// `store_and_forward` or `cut_through`.
    pub switching: &'static str,
}

impl Timing {
    /// The timing the oracles share: 100 ns links at 1 GB/s, 20 ns per switch, 500 ns to send
    /// and 300 ns to receive, with the switching model and the largest packet given.
    pub fn oracle(switching: &'static str, max_packet: u64) -> Timing {
        Timing {
            latency: SimTime::from_ns(100),
            bandwidth: 1_000_000_000,
            routing_delay: SimTime::from_ns(20),
            send_overhead: SimTime::from_ns(500),
            recv_overhead: SimTime::from_ns(300),
            max_packet,
            switching,
        }
    }

    /// Serialisation of `bytes` at B.
    pub fn ser(&self, bytes: u64) -> SimTime {
        SimTime::transmission(bytes, self.bandwidth)
    }

    /// The library's hop model with this timing (`hase_library::expected`, the one formula
    /// of a message on an idle network).
    pub fn hop(&self) -> HopTiming {
        HopTiming {
            latency: self.latency,
            bandwidth_bytes_per_s: self.bandwidth,
            routing_delay: self.routing_delay,
            send_overhead: self.send_overhead,
            recv_overhead: self.recv_overhead,
            max_packet_bytes: self.max_packet,
            switching: Switching::from_name(self.switching)
                .unwrap_or_else(|| panic!("unknown switching model {}", self.switching)),
        }
    }

    /// α of a neighbour exchange over p → r → r → p (3 links, 2 switches): the hop model's
    /// message over 3 links with the switching model given (exact for one packet, or whole
    /// packets).
    pub fn neighbour_alpha(&self, store_and_forward: bool, bytes: u64) -> SimTime {
        let switching = if store_and_forward { Switching::StoreAndForward } else { Switching::CutThrough };
        HopTiming { switching, ..self.hop() }.message(3, bytes)
    }
}

/// One allreduce of `bytes` with `algorithm` and nothing else (the oracles' workload).
pub fn allreduce(algorithm: &str, bytes: u64) -> Workload {
    program(
        "collective_loop",
        &[
            ("operation", ParamValue::Text("allreduce".into())),
            ("algorithm", ParamValue::Text(algorithm.into())),
            ("message_bytes", ParamValue::Int(bytes as i64)),
            ("iterations", ParamValue::Int(1)),
            ("compute_time", ParamValue::Time(SimTime::ZERO)),
        ],
    )
}

/// A flat template project with uniform links, the given router and processor settings, an eager
/// limit large enough that every message is eager, and the workload.
pub fn template(topology: Topology, timing: &Timing, workload: Workload) -> Project {
    let mut spec = TemplateSpec::new(topology);
    let link = LinkParams { latency: timing.latency, bandwidth_bytes_per_s: timing.bandwidth };
    spec.link = link;
    spec.endpoint_link = link;
    spec.switch_params.insert("routing_delay".into(), ParamValue::Time(timing.routing_delay));
    spec.switch_params.insert("switching".into(), ParamValue::Text(timing.switching.into()));
    for (k, v) in [
        ("send_overhead", ParamValue::Time(timing.send_overhead)),
        ("recv_overhead", ParamValue::Time(timing.recv_overhead)),
        ("max_packet", ParamValue::Int(timing.max_packet as i64)),
        ("eager_limit", ParamValue::Int(1 << 40)),
    ] {
        spec.endpoint_params.insert(k.into(), v);
    }
    let registry = hase_library::catalogue::registry_for(&Project::new("oracle"));
    let mut project = template_project(&spec, &registry, "oracle", &ProjectForm::Flat)
        .unwrap_or_else(|e| panic!("template: {e}"));
    project.workload = workload;
    project
}

/// One inline instruction stream per listed rank.
pub fn streams(list: &[(u32, &str)]) -> Workload {
    Workload::Streams {
        streams: list
            .iter()
            .map(|(r, s)| (*r, StreamSource::Inline((*s).to_string())))
            .collect::<BTreeMap<_, _>>(),
    }
}

/// The contention oracle's design: p0 and p1 each send 1000 bytes to p2 through one router
/// (radix 3, routing delay 20 ns); links of 100 ns and 1 B/ns; o_s = 500 ns, o_r = 300 ns.
pub fn two_senders_one_router() -> Project {
    use hase_engine::model::{Instance, Link, PortRef};
    let mut project = Project::new("contention");
    let mut router = Instance::of("Router").with("radix", ParamValue::Int(3));
    router.params.insert("routing_delay".into(), ParamValue::Time(SimTime::from_ns(20)));
    project.network.instances.insert("r".into(), router);
    for i in 0..3 {
        let p = Instance::of("Processor")
            .with("rank", ParamValue::Int(i))
            .with("send_overhead", ParamValue::Time(SimTime::from_ns(500)))
            .with("recv_overhead", ParamValue::Time(SimTime::from_ns(300)));
        project.network.instances.insert(format!("p{i}"), p);
        project.network.links.push(Link::new(
            PortRef::new(&format!("p{i}"), "net"),
            PortRef::new("r", &format!("p{i}")),
            SimTime::from_ns(100),
            1_000_000_000,
        ));
    }
    project.workload = streams(&[(0, "SEND 2 1000"), (1, "SEND 2 1000"), (2, "RECV ANY\nRECV ANY")]);
    project
}

/// A built-in program with parameters.
pub fn program(name: &str, params: &[(&str, ParamValue)]) -> Workload {
    Workload::Program {
        name: name.into(),
        params: params.iter().map(|(k, v)| ((*k).to_string(), v.clone())).collect(),
    }
}
