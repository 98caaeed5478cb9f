//! Importing each kind of SimGrid platform (sizes, names, link values, hop counts walked through the
//! routing of the elaborated project), the notes, and every kind of refusal with its line.

use hase_engine::elaborate::{Endpoint, elaborate};
use hase_engine::model::{DownChoice, ParamValue, Placement, Project, Routing, UpChoice};
use hase_engine::time::SimTime;
use hase_entities::router::routing::{assign_ranks, build_routes};

use super::*;
use crate::catalogue::registry_for;

fn platform(body: &str) -> String {
    format!(
        "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n{body}\n</platform>\n"
    )
}

fn import(body: &str) -> Imported {
    import_simgrid(&platform(body), "p.xml", &ImportOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn refused(body: &str) -> String {
    import_simgrid(&platform(body), "p.xml", &ImportOptions::default()).unwrap_err().to_string()
}

/// Links crossed from rank `s` to rank `d`, following the project's routing.
fn hops(project: &Project, s: u32, d: u32) -> usize {
    let model = elaborate(project, &registry_for(project)).unwrap();
    let ranks = assign_ranks(&model).unwrap();
    let routes = build_routes(&model, &ranks).unwrap();
    let start = ranks.processor(s).unwrap();
    let port = model.entity(start).port_index("net").unwrap();
    let mut at = model.peer(Endpoint { entity: start, port }).unwrap();
    let mut links = 1;
    while let Some(route) = &routes[at.entity as usize] {
        let port = route.next_port(d, s).unwrap();
        at = model.peer(Endpoint { entity: at.entity, port }).unwrap();
        links += 1;
        assert!(links < 64, "routing loop");
    }
    assert_eq!(ranks.rank_of(at.entity), Some(d));
    links
}

fn param<'a>(project: &'a Project, instance: &str, name: &str) -> &'a ParamValue {
    &project.network.instances[instance].params[name]
}

#[test]
fn a_fat_tree_cluster_is_the_pgft_of_its_parameters() {
    let i = import(
        r#"<zone id="world" routing="Full">
  <cluster id="ft" prefix="node-" suffix=".sg" radical="0-15" speed="2Gf" bw="10Gbps" lat="1us"
           topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2"/>
</zone>"#,
    );
    let p = &i.project;
    assert_eq!(i.summary, "cluster ft: FAT_TREE 2;4,4;1,2;1,2, 16 hosts");
    assert_eq!(p.network.instances.len(), 6 + 16);
    assert_eq!(p.network.links.len(), 32);
    assert!(matches!(
        &p.network.routing,
        Routing::Pgft { down, up, parallel, up_choice: UpChoice::ByDestination, down_choice: DownChoice::BySource }
            if *down == [4, 4] && *up == [1, 2] && *parallel == [1, 2]
    ));
    assert!(
        p.network
            .links
            .iter()
            .all(|l| l.latency == SimTime::from_us(1) && l.bandwidth_bytes_per_s == 1_250_000_000)
    );
    assert_eq!(param(p, "node-5_sg", "rank"), &ParamValue::Int(5));
    assert_eq!(param(p, "node-5_sg", "flops_per_s"), &ParamValue::Float(2e9));
    assert_eq!(param(p, "s_l0_0", "switching"), &ParamValue::Text("cut_through".into()));
    // Messages crossing a link share it as SimGrid's flows do.
    assert_eq!(param(p, "s_l1_1", "output_sharing"), &ParamValue::Text("round_robin".into()));
    assert_eq!(i.hosts[15], "node-15.sg");
    // Same leaf: up and down (2 links); across leaves: through a top switch (4 links).
    assert_eq!(hops(p, 0, 3), 2);
    assert_eq!(hops(p, 0, 4), 4);
    assert_eq!(hops(p, 13, 2), 4);
}

#[test]
fn a_torus_cluster_has_its_hosts_on_links_of_their_torus_links_bandwidth_without_latency() {
    let i = import(
        r#"<cluster id="t" prefix="n" radical="0-15" speed="1Gf" bw="1GBps" lat="100ns" topology="TORUS" topo_parameters="4,4"/>"#,
    );
    let p = &i.project;
    assert_eq!(p.network.routing, Routing::DimensionOrder { dims: vec![4, 4], wrap: true });
    let (hosts, torus): (Vec<_>, Vec<_>) =
        p.network.links.iter().partition(|l| l.a.port == "net" || l.b.port == "net");
    assert_eq!((hosts.len(), torus.len()), (16, 32));
    // A host injects as fast as its four torus links (2 per dimension, 1GBps each) carry together,
    // and no latency is added.
    assert!(hosts.iter().all(|l| l.latency == SimTime::ZERO && l.bandwidth_bytes_per_s == 4_000_000_000));
    assert!(torus.iter().all(|l| l.latency == SimTime::from_ns(100)));
    // Torus hops (with wrap) plus the two host links: 0 → 10 is (2, 2) away.
    assert_eq!(hops(p, 0, 10), 4 + 2);
    assert_eq!(hops(p, 0, 3), 1 + 2, "wrap-around");
    // Halfway round a ring, packets go the way SimGrid's TorusZone sends them.
    let tie = p.network.instances.values().filter_map(|i| i.params.get("torus_tie"));
    assert_eq!(tie.filter(|t| **t == ParamValue::Text("simgrid".into())).count(), 16);
    let ring = import(
        r#"<cluster id="r" prefix="n" radical="0-5" speed="1Gf" bw="1GBps" lat="1us" topology="TORUS" topo_parameters="6"/>"#,
    );
    assert_eq!(ring.project.network.routing, Routing::DimensionOrder { dims: vec![6], wrap: true });
    let ring_hosts = ring.project.network.links.iter().filter(|l| l.a.port == "net" || l.b.port == "net");
    assert!(ring_hosts.into_iter().all(|l| l.bandwidth_bytes_per_s == 2_000_000_000));
    assert!(refused(r#"<cluster id="t" prefix="n" radical="0-15" speed="1Gf" bw="1GBps" lat="1us" topology="TORUS" topo_parameters="2,2,2,2"/>"#)
        .contains("a 4-dimensional torus"));
}

#[test]
fn a_dragonfly_cluster_is_the_dragonfly_of_its_parameters() {
    let i = import(
        r#"<cluster id="d" prefix="n" radical="0-15" speed="1Gf" bw="1GBps" lat="1us" topology="DRAGONFLY" topo_parameters="2,1;2,2;2,1;2"/>"#,
    );
    let p = &i.project;
    assert_eq!(p.network.routing, Routing::Dragonfly { groups: 2, chassis: 2, routers: 2, nodes: 2 });
    // 8 routers: green 4 chassis × 1, black 2 groups × 2 positions × 1 (2 cables), blue 1; 16 host links.
    assert_eq!(p.network.links.len(), 4 + 4 + 1 + 16);
    let black =
        p.network.links.iter().find(|l| l.a.instance == "r_0_0_0" && l.b.instance == "r_0_1_0").unwrap();
    assert_eq!(black.bandwidth_bytes_per_s, 2_000_000_000, "two cables: twice the bandwidth");
    assert_eq!(hops(p, 0, 1), 2, "same router");
    assert_eq!(hops(p, 0, 2), 3, "green");
    // Rank 0 (group 0, chassis 0, router 0) to rank 15 (group 1, chassis 1, router 1): green to the
    // blue router (position 1), blue to group 1 router 0, green to position 1, black to chassis 1.
    assert_eq!(hops(p, 0, 15), 2 + 4);
}

#[test]
fn a_flat_cluster_is_a_star_with_its_backbone_latency() {
    let i = import(
        r#"<cluster id="c" prefix="c-" radical="0-7" speed="1Gf" bw="125MBps" lat="50us" bb_bw="2.25GBps" bb_lat="500us" sharing_policy="SHARED" limiter_link="100MBps" loopback_bw="1GBps" loopback_lat="0"/>"#,
    );
    let p = &i.project;
    assert_eq!(p.network.links.len(), 8);
    assert!(
        p.network
            .links
            .iter()
            .all(|l| l.latency == SimTime::from_us(50) && l.bandwidth_bytes_per_s == 100_000_000)
    );
    assert_eq!(param(p, "s_l0_0", "routing_delay"), &ParamValue::Time(SimTime::from_us(500)));
    assert_eq!(hops(p, 0, 7), 2);
    let notes: Vec<&str> = i.notes.iter().map(|n| n.text.as_str()).collect();
    for expected in ["backbone", "limiter_link", "sharing_policy=\"SHARED\"", "loopback"] {
        assert!(notes.iter().any(|n| n.contains(expected)), "no note about {expected}: {notes:?}");
    }
}

#[test]
fn explicit_hosts_links_and_routes_meet_at_routers() {
    let i = import(
        r#"<zone id="AS0" routing="Full">
  <host id="a.node" speed="1Gf"/>
  <host id="b" speed="1Gf"/>
  <host id="c" speed="500Mf"/>
  <link id="la" bandwidth="1GBps" latency="10us" sharing_policy="SPLITDUPLEX"/>
  <link id="lb" bandwidth="1GBps" latency="10us" sharing_policy="SPLITDUPLEX"/>
  <link id="lc" bandwidth="2GBps" latency="0.00002" sharing_policy="SPLITDUPLEX"/>
  <link id="unused" bandwidth="1GBps" latency="1us" sharing_policy="SPLITDUPLEX"/>
  <route src="a.node" dst="b"><link_ctn id="la"/><link_ctn id="lb"/></route>
  <route src="a.node" dst="c"><link_ctn id="la"/><link_ctn id="lc"/></route>
  <route src="b" dst="c"><link_ctn id="lb"/><link_ctn id="lc"/></route>
</zone>"#,
    );
    let p = &i.project;
    // Three hosts on their own switches, the links meeting at one hub router.
    assert!(p.network.instances.contains_key("a_node") && p.network.instances.contains_key("sw_a_node"));
    assert!(p.network.instances.contains_key("r0"));
    assert_eq!(p.network.links.len(), 3 + 3);
    let lc = p.network.links.iter().find(|l| l.bandwidth_bytes_per_s == 2_000_000_000).unwrap();
    assert_eq!(lc.latency, SimTime::from_us(20), "a bare latency is in seconds");
    for (s, d) in [(0, 1), (0, 2), (2, 1)] {
        assert_eq!(hops(p, s, d), 4, "{s} → {d}: ideal, two links, ideal");
    }
    assert_eq!(param(p, "c", "flops_per_s"), &ParamValue::Float(5e8));
    for router in ["r0", "sw_a_node"] {
        assert_eq!(param(p, router, "output_sharing"), &ParamValue::Text("round_robin".into()), "{router}");
    }
    assert!(
        i.notes.iter().any(|n| n.line == 11 && n.text == "link unused is in no route: left out"),
        "{:?}",
        i.notes
    );
}

#[test]
fn explicit_routes_longer_than_the_shortest_path_are_noted() {
    let i = import(
        r#"<zone id="z" routing="Full">
  <host id="a" speed="1Gf"/><host id="b" speed="1Gf"/><router id="x"/>
  <link id="direct" bandwidth="1GBps" latency="1us"/>
  <link id="l1" bandwidth="1GBps" latency="1us"/><link id="l2" bandwidth="1GBps" latency="1us"/>
  <route src="a" dst="x"><link_ctn id="l1"/></route>
  <route src="x" dst="b"><link_ctn id="l2"/></route>
  <route src="b" dst="a"><link_ctn id="direct"/></route>
  <route src="a" dst="b"><link_ctn id="l1"/><link_ctn id="l2"/></route>
</zone>"#,
    );
    assert!(
        i.notes.iter().any(|n| n.text == "route a → b has 2 links; hase follows a shortest path of 1"),
        "{:?}",
        i.notes
    );
    assert!(
        i.notes.iter().any(|n| n.text.contains("SHARED")),
        "links without a policy are SHARED in SimGrid"
    );
}

#[test]
fn a_hostfile_places_the_ranks_by_simgrid_host_name() {
    let text = platform(
        r#"<cluster id="c" prefix="node-" suffix=".org" radical="0-7" speed="1Gf" bw="1GBps" lat="1us"/>"#,
    );
    let hosts = Placement::from_hostfile("node-6.org\nnode-1.org\n", "hosts").unwrap();
    let options = ImportOptions { placement: Some(hosts), ..ImportOptions::default() };
    let i = import_simgrid(&text, "c.xml", &options).unwrap();
    assert_eq!(i.project.placement, Placement::Hosts(vec!["node-6_org".into(), "node-1_org".into()]));
    let bad = ImportOptions {
        placement: Some(Placement::from_hostfile("node-9.org\n", "h").unwrap()),
        ..ImportOptions::default()
    };
    let e = import_simgrid(&text, "c.xml", &bad).unwrap_err();
    assert_eq!(e.to_string(), "placement entry 0: `node-9_org` is not a processor of the project");
    let np = ImportOptions { placement: Some(Placement::First(9)), ..ImportOptions::default() };
    assert!(import_simgrid(&text, "c.xml", &np).unwrap_err().to_string().contains("--np 9"));
}

#[test]
fn malformed_and_unsupported_input_is_refused_with_its_line() {
    let e = import_simgrid(
        "<platform version=\"4.1\">\n<cluster id=\"c\"\n</platform>",
        "bad.xml",
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(&e, ImportError::Xml { place, .. } if place.line == 3), "{e}");
    assert!(e.to_string().starts_with("bad.xml:3:"), "{e}");
    // Lines count from the file's first line (the platform body starts on line 4).
    let e = refused(
        "<zone id=\"z\" routing=\"Full\">\n<zoneRoute src=\"a\" dst=\"b\" gw_src=\"x\" gw_dst=\"y\"/>\n</zone>",
    );
    assert!(e.starts_with("p.xml:5: <zoneRoute> is not supported: routes between zones"), "{e}");
    let e =
        refused("<cluster id=\"c\" prefix=\"n\" radical=\"0-3\" speed=\"fast\" bw=\"1GBps\" lat=\"1us\"/>");
    assert!(e.starts_with("p.xml:4: attribute speed=\"fast\": unknown unit `fast`"), "{e}");
    let e = refused(
        "<cluster id=\"c\" prefix=\"n\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1,2;1,2\"/>",
    );
    assert_eq!(e, "p.xml:4: the fat tree has 16 hosts but the radical gives 4");
    let e = refused(
        "<cluster id=\"c\" prefix=\"n\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/>\n<cluster id=\"d\" prefix=\"m\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/>",
    );
    assert!(e.starts_with("p.xml:5: <cluster> is not supported: a second cluster"), "{e}");
    let e =
        refused("<host id=\"a\" speed=\"1Gf\"/>\n<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>");
    assert_eq!(e, "p.xml:5: route end `b` is not a host or router");
    let e =
        refused("<host id=\"a\" speed=\"1Gf\"><disk id=\"d\" read_bw=\"1GBps\" write_bw=\"1GBps\"/></host>");
    assert!(e.starts_with("p.xml:4: <disk> is not supported: storage"), "{e}");
    let e = refused("<host id=\"a\"/>");
    assert_eq!(e, "p.xml:4: <host> needs the attribute `speed`");
    let e = refused("<link id=\"l\" bandwidth=\"1GBps\"/>");
    assert_eq!(e, "p.xml: no <cluster> and no <host> to import");
    let e = import_simgrid("<notaplatform/>", "x.xml", &ImportOptions::default()).unwrap_err();
    assert_eq!(e.to_string(), "x.xml:1: the root element is <notaplatform>, not <platform>");
}

#[test]
fn processors_are_set_as_smpi_times_messages() {
    let i = import(
        r#"<cluster id="c" prefix="n" radical="0-3" speed="1Gf" bw="1GBps" lat="1us" topology="TORUS" topo_parameters="4"/>"#,
    );
    let p = &i.project;
    // SMPI sends eagerly below 65 536 B: hase's eager limit is the largest eager size.
    assert_eq!(param(p, "n0", "eager_limit"), &ParamValue::Int(65_535));
    // SMPI's 16-byte envelope on every message.
    assert_eq!(param(p, "n0", "header_bytes"), &ParamValue::Int(16));
    assert_eq!(param(p, "n0", "eager_start"), &ParamValue::Text("receive_posted".into()));
    assert_eq!(param(p, "n0", "nic_sharing"), &ParamValue::Text("round_robin".into()));
    assert_eq!(param(p, "n3", "rendezvous"), &ParamValue::Text("direct".into()));
    // Every value is one the processor type accepts.
    let registry = registry_for(p);
    let model = elaborate(p, &registry).unwrap();
    let built = hase_entities::factory::build_behaviours(&hase_entities::factory::BuildInputs {
        model: &model,
        registry: &registry,
        workload: &p.workload,
        base_dir: std::path::Path::new("."),
        placement: &p.placement,
    });
    assert!(built.is_ok());
}
