//! Closed forms for the collective algorithms named after SimGrid's and Open MPI's: the
//! recursive-doubling barrier, the XOR pairwise alltoall, reduce-scatter (ring, recursive halving)
//! and scan (chain, recursive doubling, linear), on networks where their exchanges never contend
//! (hypercubes with e-cube routing for the XOR patterns, rings and lines for neighbour patterns).
//! Every message is one packet, eager, store-and-forward; combining costs nothing.

use hase_engine::model::ParamValue;
use hase_engine::time::SimTime;
use hase_templates::Topology;
use hase_tests::{Timing, makespan, program, run, template};

fn timing() -> Timing {
    Timing::oracle("store_and_forward", 4096)
}

/// One message of `bytes` (one packet) over `h` links and h − 1 switches, with both overheads:
/// o_s + h(L + n/B) + (h − 1)o + o_r, the library's hop model.
fn message(t: &Timing, h: u64, bytes: u64) -> SimTime {
    t.hop().message(h, bytes)
}

fn collective(operation: &str, algorithm: &str, bytes: u64) -> hase_engine::model::Workload {
    program(
        "collective_loop",
        &[
            ("operation", ParamValue::Text(operation.into())),
            ("algorithm", ParamValue::Text(algorithm.into())),
            ("message_bytes", ParamValue::Int(bytes as i64)),
            ("iterations", ParamValue::Int(1)),
            ("compute_time", ParamValue::Time(SimTime::ZERO)),
        ],
    )
}

fn time_on(topology: Topology, operation: &str, algorithm: &str, bytes: u64) -> SimTime {
    makespan(&run(&template(topology, &timing(), collective(operation, algorithm, bytes))))
}

/// Recursive-doubling barrier on a 2^d hypercube: d rounds, each a one-hop empty exchange.
#[test]
fn recursive_doubling_barrier_is_log_p_neighbour_exchanges_on_a_hypercube() {
    let t = timing();
    for d in 1..=4u32 {
        let want = message(&t, 3, 0).times(u64::from(d));
        assert_eq!(
            time_on(Topology::Hypercube { dimensions: d }, "barrier", "recursive_doubling", 0),
            want,
            "d = {d}"
        );
    }
}

/// XOR pairwise alltoall on a hypercube: step k pairs r with r ⊕ k, popcount(k) hops away; e-cube
/// routing gives each such permutation its own links, so the steps cost Σ_k message(popcount(k) + 2).
#[test]
fn xor_pairwise_alltoall_pays_each_steps_hop_count_on_a_hypercube() {
    let t = timing();
    for d in 1..=4u32 {
        let n = 1000;
        let want = (1..1u64 << d)
            .map(|k| message(&t, u64::from(k.count_ones()) + 2, n))
            .fold(SimTime::ZERO, |a, b| a + b);
        let got = time_on(Topology::Hypercube { dimensions: d }, "alltoall", "pairwise_xor", n);
        assert_eq!(got, want, "d = {d}");
    }
}

/// Recursive-halving reduce-scatter on a 2^d hypercube: exchanges of n/2, n/4, …, n/2^d bytes,
/// each with the neighbour across one dimension.
#[test]
fn recursive_halving_reduce_scatter_halves_the_message_each_round() {
    let t = timing();
    for d in 1..=4u32 {
        let n = 4096;
        let want = (1..=d).map(|j| message(&t, 3, n >> j)).fold(SimTime::ZERO, |a, b| a + b);
        let got = time_on(Topology::Hypercube { dimensions: d }, "reduce_scatter", "recursive_halving", n);
        assert_eq!(got, want, "d = {d}");
    }
}

/// Ring reduce-scatter on a ring of p: p − 1 steps of an n/p-byte block to the right neighbour.
#[test]
fn ring_reduce_scatter_is_p_minus_1_neighbour_steps() {
    let t = timing();
    for p in [3u32, 4, 6, 8] {
        let n = u64::from(p) * 512;
        let want = message(&t, 3, n / u64::from(p)).times(u64::from(p) - 1);
        assert_eq!(time_on(Topology::Ring { nodes: p }, "reduce_scatter", "ring", n), want, "p = {p}");
    }
}

/// Chain scan on a line: the prefix passes p − 1 neighbours in turn; recursive doubling on a
/// hypercube: d one-hop exchanges.
#[test]
fn chain_and_recursive_doubling_scans() {
    let t = timing();
    for p in [2u32, 3, 5, 8] {
        let want = message(&t, 3, 1000).times(u64::from(p) - 1);
        assert_eq!(time_on(Topology::Linear { nodes: p }, "scan", "chain", 1000), want, "chain, p = {p}");
    }
    for d in 1..=4u32 {
        let want = message(&t, 3, 1000).times(u64::from(d));
        assert_eq!(time_on(Topology::Hypercube { dimensions: d }, "scan", "recursive_doubling", 1000), want);
    }
}

/// SimGrid's linear scan: every rank sends its vector to each higher rank. With two ranks it is one
/// message across the switch; with more, rank 0's link serialises its p − 1 messages, which bounds
/// the time from below, and no rank waits for more than every message one after another.
#[test]
fn linear_scan_is_bound_by_the_first_ranks_link() {
    let t = timing();
    let star = |p: u32| Topology::Pgft { down: vec![p], up: vec![1], parallel: vec![1] };
    assert_eq!(time_on(star(2), "scan", "linear", 1000), message(&t, 2, 1000));
    let p = 4u64;
    let got = time_on(star(p as u32), "scan", "linear", 1000);
    let serial = t.ser(1000).times(p - 1);
    assert!(got > serial, "{got} below rank 0's serialisation {serial}");
    assert!(got < message(&t, 2, 1000).times(p * (p - 1) / 2), "{got}");
}

/// The "exactly twice as long" binomial bcast (docs/collectives.md, "Eager, rendezvous and the order
/// of a binomial bcast"): with a 64 KiB eager limit and the RTS/CTS handshake, the root's data leaves
/// in the order the CTSs come back (nearest child first), so the biggest subtree starts last; with
/// direct rendezvous the data leaves in posting order and the bcast takes exactly the all-eager time.
#[test]
fn a_rendezvous_bcast_is_slow_only_through_the_order_of_the_handshakes() {
    // The template's own defaults, as `hase new --template fat_tree --dims 4,2` makes them.
    let spec = hase_templates::TemplateSpec::new(Topology::FatTree { arity: 4, levels: 2 });
    let registry = hase_library::catalogue::registry_for(&hase_engine::model::Project::new("bcast"));
    let form = hase_templates::ProjectForm::Flat;
    let time_with = |sets: &[&str]| {
        let mut project = hase_templates::template_project(&spec, &registry, "bcast", &form).unwrap();
        project.workload = collective("bcast", "binomial", 1 << 20);
        for s in sets {
            hase_library::overrides::apply_set(&mut project, s).unwrap_or_else(|e| panic!("{s}: {e}"));
        }
        makespan(&run(&project))
    };
    let eager = time_with(&["type:Processor.eager_limit=1G"]);
    let handshake = time_with(&["type:Processor.eager_limit=64K"]);
    let direct = time_with(&["type:Processor.eager_limit=64K", "type:Processor.rendezvous=direct"]);
    assert_eq!(direct, eager, "direct rendezvous sends in posting order, as eager does");
    assert!(
        handshake.as_ps() * 10 > eager.as_ps() * 14,
        "handshake {handshake} against eager {eager}: the reordering should cost far more than the round trips"
    );
}
