//! `--latency flow` against SimGrid's flow model in closed form: a message of `d` bytes over a
//! route of latency `L` ends at `L + (d + 16) / bw`, and of two flows that leave one host together
//! for routes of different latencies, the shorter one has the link to itself until the longer
//! one's latency is over, then they share it in inverse proportion to their latencies, and the
//! link is never idle after the shorter one's.

use hase_engine::model::{ParamValue, Placement, Project, Workload};
use hase_engine::time::SimTime;

use super::*;
use crate::runner::{RunOptions, run_project};

const FT16: &str = r#"<cluster id="c" prefix="node-" suffix="" radical="0-15" speed="1Gf" bw="1GBps" lat="1us"
    topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2"/>"#;
const TORUS16: &str = r#"<cluster id="c" prefix="node-" suffix="" radical="0-15" speed="1Gf" bw="1GBps" lat="1us"
    topology="TORUS" topo_parameters="4,4"/>"#;

/// SMPI's envelope: every message carries 16 bytes more on the wire.
const ENVELOPE_BYTES: u64 = 16;

fn import_with(cluster: &str, latency: LatencyModel) -> Imported {
    let text = format!(
        "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"world\" routing=\"Full\">\n{cluster}\n</zone>\n</platform>\n"
    );
    let options = ImportOptions { latency, ..ImportOptions::default() };
    import_simgrid(&text, "p.xml", &options).unwrap_or_else(|e| panic!("{e}"))
}

/// Time on a 1 GB/s link (one byte a nanosecond) of `bytes` bytes.
fn at_1_gbps(bytes: u64) -> SimTime {
    SimTime::from_ns(bytes)
}

/// Every rank's end time (the time it spent in states other than IDLE and DONE) after running
/// the time-independent trace `lines` on the first ranks of `project`, with packets of
/// `max_packet` bytes.
fn ends(project: &Project, lines: &[&str], ranks: u32, max_packet: i64) -> Vec<SimTime> {
    let dir = tempfile::tempdir().unwrap();
    let init: Vec<String> = (0..ranks).map(|r| format!("{r} init")).collect();
    std::fs::write(dir.path().join("t.ti"), format!("{}\n{}\n", init.join("\n"), lines.join("\n"))).unwrap();
    let mut project = project.clone();
    project.workload = Workload::TimeIndependentTrace { path: "t.ti".into() };
    project.placement = Placement::First(ranks);
    for instance in project.network.instances.values_mut() {
        if let Some(p) = instance.params.get_mut("max_packet") {
            *p = ParamValue::Int(max_packet);
        }
    }
    let options = RunOptions { base_dir: dir.path().into(), ..RunOptions::default() };
    let result = run_project(&project, &options, |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result.stats.outcome, "completed");
    (0..ranks)
        .map(|r| {
            let busy = result.stats.entities.get(&format!("node-{r}")).unwrap().state_time_ps.iter();
            SimTime(busy.filter(|(s, _)| !matches!(&***s, "IDLE" | "DONE")).map(|(_, t)| *t).sum())
        })
        .collect()
}

#[test]
fn flow_latency_takes_the_latency_off_the_links_and_gives_it_to_the_interfaces() {
    for (cluster, host_link) in [(FT16, SimTime::from_us(1)), (TORUS16, SimTime::ZERO)] {
        let p = import_with(cluster, LatencyModel::Flow).project;
        assert!(p.network.links.iter().all(|l| l.latency == SimTime::ZERO));
        assert!(p.network.links.iter().all(|l| l.bandwidth_bytes_per_s >= 1_000_000_000));
        let node = &p.network.instances["node-3"].params;
        assert_eq!(node["route_latency_per_host_link"], ParamValue::Time(host_link));
        assert_eq!(node["route_latency_per_router_link"], ParamValue::Time(SimTime::from_us(1)));
        assert!(p.description.contains("flow latency"), "{}", p.description);
        // Interfaces and routers share links by route latency, as SimGrid's max-min model does.
        let weighted = ParamValue::Text("latency_weighted".into());
        assert_eq!(node["nic_sharing"], weighted);
        let routers: Vec<_> =
            p.network.instances.values().filter(|i| i.params.contains_key("switching")).collect();
        assert!(!routers.is_empty() && routers.iter().all(|r| r.params["output_sharing"] == weighted));
        // The default keeps the latencies on the links and none at the interfaces.
        let links = import_with(cluster, LatencyModel::Links).project;
        assert!(links.network.links.iter().any(|l| l.latency == SimTime::from_us(1)));
        assert!(!links.network.instances["node-3"].params.contains_key("route_latency_per_router_link"));
        let round_robin = ParamValue::Text("round_robin".into());
        assert_eq!(links.network.instances["node-3"].params["nic_sharing"], round_robin);
        assert!(
            links
                .network
                .instances
                .values()
                .all(|i| i.params.get("output_sharing").is_none_or(|s| *s == round_robin))
        );
    }
    for name in LatencyModel::NAMES {
        assert!(LatencyModel::from_name(name).is_some(), "{name}");
    }
    assert_eq!(LatencyModel::from_name(LatencyModel::NAMES[0]), Some(LatencyModel::default()));
}

#[test]
fn flow_latency_is_refused_for_explicit_routes_whose_links_differ() {
    let text = "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"w\" routing=\"Full\">\n\
                <host id=\"a\" speed=\"1Gf\"/>\n<host id=\"b\" speed=\"1Gf\"/>\n\
                <link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>\n\
                <route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n</zone>\n</platform>\n";
    let options = ImportOptions { latency: LatencyModel::Flow, ..ImportOptions::default() };
    let e = import_simgrid(text, "p.xml", &options).unwrap_err().to_string();
    assert!(e.starts_with("p.xml:4: flow latency"), "{e}");
    assert!(import_simgrid(text, "p.xml", &ImportOptions::default()).is_ok());
}

#[test]
fn a_message_takes_its_route_latency_then_its_wire_bytes_at_the_bandwidth() {
    // (platform, destination, latency of the route from rank 0): on the fat tree 2 links within
    // a leaf, 4 across the top; on the 4 × 4 torus one router link per hop of dimension order (the
    // hosts are the routers: their links carry none), 1 to rank 1 and 2 + 2 to rank 10.
    let ft16 = import_with(FT16, LatencyModel::Flow).project;
    let torus16 = import_with(TORUS16, LatencyModel::Flow).project;
    let cases = [(&ft16, 1, 2), (&ft16, 4, 4), (&torus16, 1, 1), (&torus16, 10, 4)];
    for (project, dst, links) in cases {
        // Eager (one and several packets) and rendezvous.
        for d in [1000u64, 8192, 65_536] {
            let send = format!("0 send {dst} 0 {d}");
            let recv = format!("{dst} recv 0 0 {d}");
            let end = ends(project, &[&send, &recv], dst + 1, 4096)[dst as usize];
            let want = SimTime::from_us(links) + at_1_gbps(d + ENVELOPE_BYTES);
            assert_eq!(end, want, "0 -> {dst}, {d} B");
        }
    }
}

#[test]
fn a_short_and_a_long_route_share_the_senders_link_as_simgrid_flows_do() {
    // Rank 0 sends w = 8192 + 16 wire bytes to rank 1 (2 links, L1 = 2 us) and to rank 4 (4 links,
    // L4 = 4 us) at once. In SimGrid the flow to 1 has the link alone from L1 to L4, then both
    // share it; the link is never idle after L1, so the flow to 4 ends at L1 + 2w/bw = 18.416 us
    // (SMPI 3.32: 18.426, its 10 ns start included). hase's 16-byte packets give it exactly that.
    let lines = ["0 isend 1 0 8192", "0 isend 4 0 8192", "0 waitall", "1 recv 0 0 8192", "4 recv 0 0 8192"];
    let w = 8192 + ENVELOPE_BYTES;
    let packet = at_1_gbps(16);
    let ft16 = import_with(FT16, LatencyModel::Flow).project;
    let flow = ends(&ft16, &lines, 5, 16);
    assert_eq!(flow[4], SimTime::from_us(2) + at_1_gbps(2 * w));
    // While they share the link, SimGrid gives each flow a share in inverse proportion to its
    // route's latency (its sharing penalty): L4 / (L1 + L4) = 2/3 to the flow to 1, which ends at
    // L4 + (w - (L4 - L1)·bw)·(L1 + L4)/L4 / bw = 13.312 us (SMPI 3.32: 13.322). The imported
    // latency-weighted interface ends it there within one packet.
    let weighted_share = SimTime::from_us(4) + at_1_gbps((w - 2000) * 3 / 2);
    assert!(flow[1].0.abs_diff(weighted_share.0) <= packet.0, "{:?} against {weighted_share:?}", flow[1]);
    // One packet of each in turn (half the bandwidth each) would end it at
    // L4 + 2(w - (L4 - L1)·bw)/bw = 16.416 us.
    let mut round_robin = ft16.clone();
    for instance in round_robin.network.instances.values_mut() {
        if let Some(sharing) = instance.params.get_mut("nic_sharing") {
            *sharing = ParamValue::Text("round_robin".into());
        }
    }
    let equal = ends(&round_robin, &lines, 5, 16);
    let equal_shares = SimTime::from_us(4) + at_1_gbps(2 * (w - 2000));
    assert!(equal[1].0.abs_diff(equal_shares.0) <= packet.0, "{:?} against {equal_shares:?}", equal[1]);
    assert_eq!(equal[4], flow[4]);
    // With the latency on the links both messages start at once and the long route pays its 4 us
    // after the shared transfer: 2 us later than SimGrid.
    let links = ends(&import_with(FT16, LatencyModel::Links).project, &lines, 5, 16);
    assert_eq!(links[4], SimTime::from_us(4) + at_1_gbps(2 * w));
}
