//! Tests of the routing rules: hand-worked ports for each algorithmic rule, error messages, a
//! 65,536-node torus without tables, and shortest paths checked against Dijkstra distances.

use hase_engine::elaborate::{FlatEntity, Scope, elaborate};
use hase_engine::model::{Instance, Link, ParamValue, PortRef, Project, Routing, TypeRegistry, UpChoice};
use hase_engine::time::SimTime;
use petgraph::graph::DiGraph;

use super::*;
use crate::catalogue::builtin_registry;
use crate::router::route_walk::{RouteLinks, RouteWalk};

fn router(path: &str, params: &[(&str, ParamValue)], ports: usize) -> FlatEntity {
    let mut e = FlatEntity::new(path, ROUTER, (0..ports).map(|i| format!("p{i}")), "packet", &[]);
    e.set_type_name("Router");
    e.params = params.iter().map(|(k, v)| ((*k).to_string(), v.clone())).collect();
    e
}

fn algo(routing: &Routing, e: &FlatEntity) -> Result<Algo, RoutingError> {
    Algo::build(&RuleShape::of(routing, "net").unwrap().unwrap(), e)
}

fn coord(c: &[i64]) -> (&'static str, ParamValue) {
    ("coord", ParamValue::IntArray(c.to_vec()))
}

#[test]
fn torus_goes_the_short_way_and_breaks_ties_plus() {
    let torus = Routing::DimensionOrder { dims: vec![4, 4], wrap: true };
    let a = algo(&torus, &router("t/r_0_0", &[coord(&[0, 0])], 5)).unwrap();
    // rank = x + 4y; ports: 0 = +x, 1 = -x, 2 = +y, 3 = -y, 4 = local.
    assert_eq!(a.next_port(2, 0), Some(0), "x 0→2: both ways 2 hops, tie goes +");
    assert_eq!(a.next_port(3, 0), Some(1), "x 0→3: 1 hop the - way");
    assert_eq!(a.next_port(4, 0), Some(2));
    assert_eq!(a.next_port(12, 0), Some(3), "y 0→3 wraps");
    assert_eq!(a.next_port(15, 0), Some(1), "x is corrected before y");
    assert_eq!(a.next_port(0, 0), Some(4));
    assert_eq!(a.next_port(16, 0), None, "outside the torus");
    let mesh = Routing::DimensionOrder { dims: vec![4, 4], wrap: false };
    let m = algo(&mesh, &router("m/r_2_1", &[coord(&[2, 1])], 5)).unwrap();
    assert_eq!(m.next_port(3 + 4, 0), Some(0));
    assert_eq!(m.next_port(4, 0), Some(1), "no wrap on a mesh: 2→0 goes -");
    assert_eq!(m.next_port(2 + 12, 0), Some(2));
    assert_eq!(m.next_port(6, 0), Some(4));
}

#[test]
fn torus_can_break_ties_as_simgrid_does() {
    let torus = Routing::DimensionOrder { dims: vec![4, 4], wrap: true };
    let simgrid = ("torus_tie", ParamValue::Text("simgrid".into()));
    // x = 2 is halfway round the x ring: its tie (2 → 0) goes the - way; from x = 0, 1, 3 the + way.
    let half = algo(&torus, &router("t/r_2_0", &[coord(&[2, 0]), simgrid.clone()], 5)).unwrap();
    assert_eq!(half.next_port(0, 2), Some(1), "x 2→0: tie from halfway goes -");
    assert_eq!(half.next_port(3, 2), Some(0), "x 2→3: 1 hop the + way");
    assert_eq!(half.next_port(2 + 4 * 2, 2), Some(2), "y 0→2 from y = 0 goes +");
    let wrap = algo(&torus, &router("t/r_3_2", &[coord(&[3, 2]), simgrid.clone()], 5)).unwrap();
    assert_eq!(wrap.next_port(1 + 4 * 2, 3 + 4 * 2), Some(0), "x 3→1 goes + through the wrap");
    assert_eq!(wrap.next_port(3, 3 + 4 * 2), Some(3), "y 2→0: tie from halfway goes -");
    let plain = algo(&torus, &router("t/r_2_0", &[coord(&[2, 0])], 5)).unwrap();
    assert_eq!(plain.next_port(0, 2), Some(0), "the default breaks every tie +");
    let bad = ("torus_tie", ParamValue::Text("minus".into()));
    let err = algo(&torus, &router("t/r_0_0", &[coord(&[0, 0]), bad], 5)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "`t/r_0_0`: dimension-order routing needs parameter `torus_tie` to be plus or simgrid, got minus"
    );
}

#[test]
fn ecube_corrects_the_lowest_bit_first() {
    let cube = Routing::ECube { dimensions: 3 };
    let a = algo(&cube, &router("h/r_101", &[coord(&[5])], 4)).unwrap();
    assert_eq!(a.next_port(0b110, 0), Some(0));
    assert_eq!(a.next_port(0b001, 0), Some(2));
    assert_eq!(a.next_port(0b100, 0), Some(0));
    assert_eq!(a.next_port(5, 0), Some(3));
    assert_eq!(a.next_port(8, 0), None);
}

#[test]
fn destination_tag_reads_destination_bits_msb_first() {
    let omega = Routing::DestinationTag { stages: 3 };
    let at = |stage: i64| {
        let e = router("o/s", &[("stage", ParamValue::Int(stage)), ("index", ParamValue::Int(1))], 4);
        algo(&omega, &e).unwrap()
    };
    // 5 = 0b101: out1, out0, out1 (ports 3, 2, 3).
    assert_eq!(at(0).next_port(5, 0), Some(3));
    assert_eq!(at(1).next_port(5, 0), Some(2));
    assert_eq!(at(2).next_port(5, 0), Some(3));
    assert_eq!(at(2).next_port(8, 0), None);
    assert_eq!(at(2).processor_ports(), vec![(2, 2), (3, 3)]);
}

#[test]
fn up_down_climbs_to_the_common_ancestor_with_each_up_choice() {
    let tree = |w: u32, up_choice| Routing::UpDown { arity: 2, levels: 3, up_choice, up_ports: w };
    // Fat tree (4 switches per level), level 1, index 3 = subtree 1 (ranks 4..8), replica 1.
    let sw = router("f/s_l1_3", &[("level", ParamValue::Int(1)), ("index", ParamValue::Int(3))], 4);
    let by_dst = algo(&tree(2, UpChoice::ByDestination), &sw).unwrap();
    assert_eq!(by_dst.next_port(6, 1), Some(1), "rank 6 is below, child (6/2) mod 2 = 1");
    assert_eq!(by_dst.next_port(4, 1), Some(0));
    assert_eq!(by_dst.next_port(1, 7), Some(2), "up by destination digit (1/2) mod 2 = 0");
    assert_eq!(by_dst.next_port(3, 7), Some(3));
    let by_src = algo(&tree(2, UpChoice::BySource), &sw).unwrap();
    assert_eq!(by_src.next_port(1, 7), Some(3), "up by source digit (7/2) mod 2 = 1");
    let first = algo(&tree(2, UpChoice::First), &sw).unwrap();
    assert_eq!(first.next_port(3, 7), Some(2));
    assert_eq!(first.next_port(8, 7), None);
    // Plain binary tree (2 switches at level 1): index 1 serves the same ranks with one up port.
    let plain = router("b/s_l1_1", &[("level", ParamValue::Int(1)), ("index", ParamValue::Int(1))], 3);
    let b = algo(&tree(1, UpChoice::ByDestination), &plain).unwrap();
    assert_eq!(b.next_port(7, 0), Some(1));
    assert_eq!(b.next_port(0, 5), Some(2));
    let too_far = router("b/s_l1_2", &[("level", ParamValue::Int(1)), ("index", ParamValue::Int(2))], 3);
    let err = algo(&tree(1, UpChoice::First), &too_far).unwrap_err();
    assert!(err.to_string().contains("from 0 to 1, got 2"), "{err}");
    // Leaf switch 3 of the fat tree has ranks 6 and 7 on ports 0 and 1.
    let leaf = router("f/s_l0_3", &[("level", ParamValue::Int(0)), ("index", ParamValue::Int(3))], 4);
    let l = algo(&tree(2, UpChoice::First), &leaf).unwrap();
    assert_eq!(l.processor_ports(), vec![(0, 6), (1, 7)]);
}

#[test]
fn errors_name_the_router() {
    let torus = Routing::DimensionOrder { dims: vec![4, 4], wrap: true };
    let err = algo(&torus, &router("fabric/r_1_0", &[coord(&[])], 5)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "`fabric/r_1_0`: dimension-order routing needs parameter `coord` to be 2 coordinates within \
         the extents [4, 4], got []"
    );
    let err = algo(&torus, &router("fabric/r_9", &[coord(&[1, 4])], 5)).unwrap_err();
    assert!(err.to_string().starts_with("`fabric/r_9`"), "{err}");
    let err = algo(&torus, &router("fabric/r_1_1", &[coord(&[1, 1])], 3)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "`fabric/r_1_1`: dimension-order routing needs at least 5 ports, the router has 3"
    );
    let err = algo(&Routing::ECube { dimensions: 2 }, &router("h/x", &[], 3)).unwrap_err();
    assert!(err.to_string().contains("`h/x`") && err.to_string().contains("got nothing"), "{err}");
    let bad = Routing::DimensionOrder { dims: vec![4, 0], wrap: false };
    assert!(
        matches!(RuleShape::of(&bad, ""), Err(RoutingError::BadRule { scope, .. }) if scope == "the top-level network")
    );
}

#[test]
fn a_65536_node_torus_builds_no_tables() {
    let dims = vec![256u32, 256];
    let entities: Vec<FlatEntity> =
        (0..256 * 256).map(|r: i64| router(&format!("r{r}"), &[coord(&[r % 256, r / 256])], 5)).collect();
    let model = FlatModel {
        entities,
        scopes: vec![Scope { path: String::new(), routing: Routing::DimensionOrder { dims, wrap: true } }],
        ..FlatModel::default()
    };
    let routes = build_routes(&model, &RankMap::default()).unwrap();
    assert!(routes.iter().all(|r| r.as_ref().is_some_and(|r| r.table_entries() == 0)));
    let corner = routes[0].as_ref().unwrap();
    assert_eq!(corner.next_port(128 + 256 * 128, 0), Some(0), "half way round: + way");
    assert_eq!(corner.next_port(255, 0), Some(1));
    assert_eq!(corner.next_port(256 * 255, 0), Some(3));
    assert_eq!(corner.rule_name(), "dimension-order");
}

fn link(a: (&str, &str), b: (&str, &str)) -> Link {
    Link::new(PortRef::new(a.0, a.1), PortRef::new(b.0, b.1), SimTime::ZERO, 0)
}

/// Routers a–e in an irregular graph, a one-way shortcut e → a through a 2×2 switch, and an
/// island router f; processors on a, c, d, e, f.
fn hand_drawn() -> (Project, TypeRegistry) {
    let mut p = Project::new("hand");
    let net = &mut p.network;
    for r in ["a", "b", "c", "d", "e", "f"] {
        net.instances.insert(r.into(), Instance::of("Router").with("radix", ParamValue::Int(4)));
    }
    net.instances.insert("sw".into(), Instance::of("Switch2x2"));
    for r in ["a", "c", "d", "e", "f"] {
        net.instances.insert(format!("p{r}"), Instance::of("Processor"));
        net.links.push(link((&format!("p{r}"), "net"), (r, "p3")));
    }
    net.links.extend([
        link(("a", "p0"), ("b", "p0")),
        link(("b", "p1"), ("c", "p0")),
        link(("c", "p1"), ("d", "p0")),
        link(("d", "p1"), ("a", "p1")),
        link(("b", "p2"), ("d", "p2")),
        link(("c", "p2"), ("e", "p0")),
        link(("e", "p1"), ("sw", "in0")),
        link(("sw", "out0"), ("a", "p2")),
    ]);
    (p, builtin_registry())
}

/// Follow `next_port` from the processor of `src` to the processor of `dst`; links crossed.
fn walk(model: &FlatModel, ranks: &RankMap, routes: &[Option<Route>], src: u32, dst: u32) -> Option<usize> {
    let start = ranks.processor(src)?;
    let mut at = model.peer(Endpoint { entity: start, port: 0 })?;
    let mut links = 1;
    while let Some(route) = &routes[at.entity as usize] {
        let port = route.next_port(dst, src)?;
        at = model.peer(Endpoint { entity: at.entity, port })?;
        links += 1;
        assert!(links <= model.links.len(), "routing loop from {src} to {dst}");
    }
    assert_eq!(ranks.rank_of(at.entity), Some(dst), "delivered to the wrong processor");
    Some(links)
}

#[test]
fn shortest_paths_agree_with_dijkstra_and_prefer_low_ports() {
    let (project, registry) = hand_drawn();
    let model = elaborate(&project, &registry).unwrap();
    let ranks = assign_ranks(&model).unwrap();
    let routes = build_routes(&model, &ranks).unwrap();
    // Oracle: Dijkstra with unit weights over the directed link graph.
    let mut g = DiGraph::<(), ()>::new();
    let nodes: Vec<_> = model.entities.iter().map(|_| g.add_node(())).collect();
    for l in &model.links {
        let (a, b) = (nodes[l.ends[0].entity as usize], nodes[l.ends[1].entity as usize]);
        if l.forward {
            g.add_edge(a, b, ());
        }
        if l.backward {
            g.add_edge(b, a, ());
        }
    }
    let mut checked = 0;
    for (s, ps) in ranks.iter() {
        let dist = petgraph::algo::dijkstra(&g, nodes[ps as usize], None, |_| 1usize);
        for (d, pd) in ranks.iter() {
            if s == d {
                continue;
            }
            let expected = dist.get(&nodes[pd as usize]).copied();
            assert_eq!(walk(&model, &ranks, &routes, s, d), expected, "rank {s} to {d}");
            checked += usize::from(expected.is_some());
        }
    }
    assert_eq!(checked, 4 * 3, "every pair outside the island is reachable");
    let id = |path: &str| model.find(path).unwrap();
    let rank = |path: &str| ranks.rank_of(id(path)).unwrap();
    let route = |path: &str| routes[id(path) as usize].as_ref().unwrap();
    assert_eq!(route("a").next_port(rank("pc"), 0), Some(0), "a→c via b (p0) or d (p1): lowest port");
    assert_eq!(route("e").next_port(rank("pa"), 0), Some(1), "e takes the one-way shortcut");
    assert_eq!(route("a").next_port(rank("pe"), 0), Some(0), "the shortcut cannot be used backwards");
    assert_eq!(route("a").next_port(rank("pf"), 0), None, "the island is unreachable");
    assert_eq!(route("a").table_entries(), ranks.len());
    assert!(routes[id("pa") as usize].is_none());
}

#[test]
fn a_route_walk_counts_the_links_the_routers_send_a_packet_over() {
    let (project, registry) = hand_drawn();
    let model = elaborate(&project, &registry).unwrap();
    let ranks = assign_ranks(&model).unwrap();
    let routes = build_routes(&model, &ranks).unwrap();
    let shared = routes.iter().map(|r| r.clone().map(std::sync::Arc::new)).collect();
    let route_walk = RouteWalk::new(&model, &ranks, shared);
    let mut reached = 0;
    for (s, _) in ranks.iter() {
        for (d, _) in ranks.iter().filter(|(d, _)| *d != s) {
            let links = route_walk.links(s, d);
            // Every route through routers starts and ends on a processor's link.
            let expected = walk(&model, &ranks, &routes, s, d)
                .map(|n| RouteLinks { host_links: 2, router_links: n as u32 - 2 });
            assert_eq!(links, expected, "rank {s} to {d}");
            reached += usize::from(links.is_some());
        }
    }
    assert_eq!(reached, 4 * 3, "the island is reached from nowhere and reaches nothing");
    assert_eq!(route_walk.links(99, 0), None, "no such rank");
}

#[test]
fn a_processor_on_the_wrong_router_port_is_refused() {
    let mut p = Project::new("ring");
    p.network.routing = Routing::DimensionOrder { dims: vec![2], wrap: true };
    for i in 0..2 {
        let r = format!("r{i}");
        p.network.instances.insert(
            r.clone(),
            Instance::of("Router")
                .with("radix", ParamValue::Int(3))
                .with("coord", ParamValue::IntArray(vec![i])),
        );
        // Swapped: rank 1 sits on r0 and rank 0 on r1.
        let proc = format!("p{i}");
        p.network
            .instances
            .insert(proc.clone(), Instance::of("Processor").with("rank", ParamValue::Int(1 - i)));
        p.network.links.push(link((&proc, "net"), (&r, "p2")));
    }
    p.network.links.push(link(("r0", "p0"), ("r1", "p1")));
    p.network.links.push(link(("r1", "p0"), ("r0", "p1")));
    let model = elaborate(&p, &builtin_registry()).unwrap();
    let ranks = assign_ranks(&model).unwrap();
    let err = build_routes(&model, &ranks).unwrap_err();
    assert_eq!(
        err.to_string(),
        "`r0.p2` leads to `p0` (rank 1), but dimension-order routing expects rank 0 there"
    );
}
