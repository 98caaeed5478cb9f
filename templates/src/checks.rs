//! Property tests over small random dimensions of every topology: sizes against the closed forms,
//! port use per switch, wrap links, validation and elaboration (flat, and compound at both levels),
//! layout sanity, and routing walked over the elaborated model with path lengths from each family's
//! closed form (`Topology::route_links`).
//!
//! Path length convention: links crossed from the source processor to the destination processor.
//! Mesh/torus/ring/linear: distance + 2 (Manhattan, each dimension `min(|Δ|, k-|Δ|)` with wrap);
//! hypercube: popcount(s xor d) + 2; omega: stages + 1 (every packet crosses every stage); binary and
//! fat tree: 2·(L+1), where L is the nearest-common-ancestor switch level (0 = leaf switches), i.e.
//! 2L switch-to-switch links plus the two processor links; PGFT: 2L with L the SimGrid level of the
//! nearest common ancestor; dragonfly: the two processor links plus, within a group, one green link
//! if the router positions differ and one black if the chassis do, and across groups that to the
//! router holding the blue link, the blue link, and that from its far end.

use std::collections::BTreeMap;

use hase_engine::elaborate::{Endpoint, FlatModel, elaborate};
use hase_engine::model::{AbstractionLevel, Network, ParamValue, Project, TypeRegistry};
use hase_entities::catalogue::{NETWORK_MODEL, ROUTER, builtin_registry};
use hase_entities::router::routing::{RankMap, Route, assign_ranks, build_routes};
use proptest::prelude::*;

use crate::{FABRIC, ProjectForm, TemplateSpec, Topology, generate, template_project};

/// Follow `next_port` from processor `s` to processor `d`; returns the links crossed.
fn walk(model: &FlatModel, ranks: &RankMap, routes: &[Option<Route>], s: u32, d: u32) -> usize {
    let start = ranks.processor(s).unwrap();
    let e = model.entity(start);
    let port = e.port_index("net").or_else(|| e.port_index("tx")).unwrap();
    let mut at = model.peer(Endpoint { entity: start, port }).unwrap();
    let mut links = 1;
    while let Some(route) = &routes[at.entity as usize] {
        let port = route
            .next_port(d, s)
            .unwrap_or_else(|| panic!("{} has no port for {s}→{d}", model.entity(at.entity).path));
        at = model
            .peer(Endpoint { entity: at.entity, port })
            .unwrap_or_else(|| panic!("{} sends {s}→{d} on an open port", model.describe(at)));
        links += 1;
        assert!(links <= model.entities.len(), "routing loop {s}→{d}");
    }
    assert_eq!(ranks.rank_of(at.entity), Some(d), "{s}→{d} delivered to {}", model.entity(at.entity).path);
    links
}

/// Every ordered pair of ranks reaches its destination in the closed-form number of links.
pub(crate) fn check_routes(t: &Topology, model: &FlatModel) {
    let ranks = assign_ranks(model).unwrap();
    assert_eq!(ranks.len() as u64, t.counts().endpoints);
    let routes = build_routes(model, &ranks).unwrap();
    let n = ranks.len() as u32;
    for s in 0..n {
        for d in (0..n).filter(|d| *d != s) {
            assert_eq!(walk(model, &ranks, &routes, s, d), t.route_links(s, d) as usize, "{t}: {s}→{d}");
        }
    }
}

/// Extents of a grid topology and whether it wraps.
fn grid_shape(t: &Topology) -> Option<(Vec<u32>, bool)> {
    match *t {
        Topology::Linear { nodes } => Some((vec![nodes], false)),
        Topology::Ring { nodes } => Some((vec![nodes], true)),
        Topology::Mesh2D { x, y } => Some((vec![x, y], false)),
        Topology::Torus2D { x, y } => Some((vec![x, y], true)),
        Topology::Torus3D { x, y, z } => Some((vec![x, y, z], true)),
        _ => None,
    }
}

fn int(net: &Network, inst: &str, param: &str) -> i64 {
    net.instances[inst].params[param].as_int().unwrap()
}

/// The ports each switch should use, from its own parameters; and the wrap-link count.
fn check_ports(t: &Topology, net: &Network) {
    let mut used: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for l in &net.links {
        for end in [&l.a, &l.b] {
            used.entry(end.instance.as_str()).or_default().push(end.port.clone());
        }
    }
    let mut wraps = 0;
    for (name, inst) in &net.instances {
        let mut ports = used.remove(name.as_str()).unwrap_or_default();
        ports.sort();
        let before = ports.len();
        ports.dedup();
        assert_eq!(before, ports.len(), "{name}: a port linked twice");
        let expected: Vec<String> = if inst.type_name.starts_with("Processor") {
            let roles: &[&str] = if t.split_endpoints() { &["rx", "tx"] } else { &["net"] };
            roles.iter().map(|r| (*r).to_string()).collect()
        } else if let Some((dims, wrap)) = grid_shape(t) {
            let c = inst.params["coord"].as_int_array().unwrap();
            let mut p = vec![2 * dims.len()];
            for (d, k) in dims.iter().enumerate() {
                let k = i64::from(*k);
                if (c[d] < k - 1 || wrap) && k >= 2 {
                    p.push(2 * d);
                }
                if (c[d] > 0 || wrap) && k >= 2 {
                    p.push(2 * d + 1);
                }
            }
            p.into_iter().map(|i| format!("p{i}")).collect()
        } else {
            match *t {
                Topology::Hypercube { dimensions } => (0..=dimensions).map(|i| format!("p{i}")).collect(),
                Topology::Omega { .. } => ["in0", "in1", "out0", "out1"].map(String::from).to_vec(),
                Topology::BinaryTree { levels } | Topology::FatTree { levels, .. } => {
                    let k = if let Topology::FatTree { arity, .. } = *t { arity } else { 2 };
                    let up = if let Topology::FatTree { arity, .. } = *t { arity } else { 1 };
                    let top = int(net, name, "level") == i64::from(levels) - 1;
                    let n = if top { k } else { k + up };
                    (0..n).map(|i| format!("p{i}")).collect()
                }
                Topology::Pgft { ref down, ref up, ref parallel } => {
                    let l = int(net, name, "level") as usize + 1;
                    let mut n = down[l - 1] * parallel[l - 1];
                    if l < down.len() {
                        n += up[l] * parallel[l];
                    }
                    (0..n).map(|i| format!("p{i}")).collect()
                }
                Topology::Dragonfly { groups, chassis, routers, nodes, .. } => {
                    let coord = net.instances[name].params["coord"].as_int_array().unwrap();
                    let [group, at_chassis, position] = [0, 1, 2].map(|i| coord[i] as u32);
                    let mut used: Vec<u32> = (0..nodes).collect();
                    used.extend((0..routers).filter(|o| *o != position).map(|o| nodes + o));
                    used.extend((0..chassis).filter(|o| *o != at_chassis).map(|o| nodes + routers + o));
                    let index = at_chassis * routers + position;
                    if index < groups && index != group {
                        used.push(nodes + routers + chassis);
                    }
                    used.into_iter().map(|i| format!("p{i}")).collect()
                }
                _ => unreachable!(),
            }
        };
        let mut expected = expected;
        expected.sort();
        assert_eq!(ports, expected, "{t}: ports of {name}");
    }
    assert!(used.is_empty(), "links to unknown instances: {used:?}");
    // Wrap links join port 2d at coordinate k-1 to port 2d+1 at coordinate 0.
    if let Some((dims, wrap)) = grid_shape(t) {
        for l in &net.links {
            let coord = |i: &str| net.instances[i].params.get("coord").and_then(ParamValue::as_int_array);
            let (Some(ca), Some(cb)) = (coord(&l.a.instance), coord(&l.b.instance)) else {
                continue;
            };
            for (d, k) in dims.iter().enumerate() {
                let k = i64::from(*k);
                let (pa, pb) = (format!("p{}", 2 * d), format!("p{}", 2 * d + 1));
                let forward = l.a.port == pa && l.b.port == pb && ca[d] == k - 1 && cb[d] == 0;
                let backward = l.b.port == pa && l.a.port == pb && cb[d] == k - 1 && ca[d] == 0;
                wraps += usize::from(forward || backward);
            }
        }
        let nodes: u32 = dims.iter().product();
        let expected: u32 = dims.iter().filter(|k| wrap && **k >= 2).map(|k| nodes / k).sum();
        assert_eq!(wraps, expected as usize, "{t}: wrap links");
    }
}

/// Positions for every instance, none on top of another, corners only for existing links.
fn check_layout(t: &Topology, g: &crate::Generated) {
    let pos = &g.layout.positions;
    assert_eq!(pos.len(), g.network.instances.len());
    let points: Vec<_> = pos.values().collect();
    for (i, a) in points.iter().enumerate() {
        for b in &points[i + 1..] {
            let dist = ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt();
            assert!(dist >= 40.0, "{t}: icons {dist} apart");
        }
    }
    let keys: Vec<String> = g.network.links.iter().map(hase_engine::model::Link::key).collect();
    assert!(g.layout.corners.keys().all(|k| keys.contains(k)));
    // Corners run from `link.a` to `link.b`: a detour starts beside `a` and ends beside `b`.
    let dist = |p: &hase_engine::model::Pos, q: &hase_engine::model::Pos| (p.x - q.x).hypot(p.y - q.y);
    for l in &g.network.links {
        let Some(corners) = g.layout.corners.get(&l.key()).filter(|c| c.len() >= 2) else {
            continue;
        };
        let (a, b) = (&pos[&l.a.instance], &pos[&l.b.instance]);
        let (first, last) = (&corners[0], &corners[corners.len() - 1]);
        assert!(
            dist(first, a) < dist(first, b) && dist(last, b) < dist(last, a),
            "{t}: corners of {}",
            l.key()
        );
    }
    // Grids, rings and cubes: each processor is nearer its own router than any other.
    if grid_shape(t).is_some() || matches!(t, Topology::Hypercube { .. }) {
        for l in &g.network.links {
            let (proc, router) = if l.a.instance.starts_with('p') {
                (&l.a.instance, &l.b.instance)
            } else {
                (&l.b.instance, &l.a.instance)
            };
            if !proc.starts_with('p') {
                continue;
            }
            let far = |x: &str| ((pos[proc].x - pos[x].x).powi(2) + (pos[proc].y - pos[x].y).powi(2)).sqrt();
            let own = far(router);
            for other in g.network.instances.keys().filter(|n| n.starts_with('r') && *n != router) {
                assert!(own < far(other), "{t}: {proc} is nearer {other} than its router {router}");
            }
        }
    }
}

pub(crate) fn elaborate_checked(project: &Project, registry: &TypeRegistry) -> FlatModel {
    let registry = TypeRegistry::for_project(registry, project);
    elaborate(project, &registry).unwrap_or_else(|e| panic!("{}: {e}", project.name))
}

/// All checks for one topology with the built-in components.
fn check(t: &Topology) {
    let registry = builtin_registry();
    let spec = TemplateSpec::new(t.clone());
    let g = generate(&spec, &registry).unwrap();
    let c = t.counts();
    assert_eq!(g.counts, c);
    assert_eq!(g.network.instances.len() as u64, c.switches + c.endpoints, "{t}: instances");
    assert_eq!(g.network.links.len() as u64, c.links(), "{t}: links");
    check_ports(t, &g.network);
    check_layout(t, &g);
    let flat = template_project(&spec, &registry, "flat", &ProjectForm::Flat).unwrap();
    let model = elaborate_checked(&flat, &registry);
    check_routes(t, &model);
    // Compound form: detailed routes like the flat one; behavioural is one model entity.
    let form = ProjectForm::Compound { type_name: t.type_name() };
    let mut project = template_project(&spec, &registry, "compound", &form).unwrap();
    let detailed = elaborate_checked(&project, &registry);
    assert_eq!(detailed.entities.len(), model.entities.len());
    check_routes(t, &detailed);
    project.network.instances.get_mut(FABRIC).unwrap().level = AbstractionLevel::Behavioural;
    let behavioural = elaborate_checked(&project, &registry);
    assert_eq!(behavioural.entities.len() as u64, c.endpoints + 1);
    let fabric = behavioural.entity(behavioural.find(FABRIC).unwrap());
    assert_eq!(&**fabric.behaviour(), NETWORK_MODEL);
    assert_eq!(fabric.ports().len() as u64, c.endpoint_links);
    assert!(fabric.links().all(|l| l.is_some()));
    assert!(behavioural.entities.iter().all(|e| &**e.behaviour() != ROUTER));
}

fn cases() -> ProptestConfig {
    ProptestConfig::with_cases(12)
}

proptest! {
    #![proptest_config(cases())]

    #[test]
    fn linear_arrays(nodes in 2u32..=9) {
        check(&Topology::Linear { nodes });
    }

    #[test]
    fn rings(nodes in 2u32..=9) {
        check(&Topology::Ring { nodes });
    }

    #[test]
    fn meshes(x in 1u32..=5, y in 1u32..=5) {
        prop_assume!(x * y >= 2);
        check(&Topology::Mesh2D { x, y });
    }

    #[test]
    fn tori_2d(x in 1u32..=5, y in 1u32..=5) {
        prop_assume!(x * y >= 2);
        check(&Topology::Torus2D { x, y });
    }

    #[test]
    fn tori_3d(x in 1u32..=4, y in 1u32..=3, z in 1u32..=3) {
        prop_assume!(x * y * z >= 2);
        check(&Topology::Torus3D { x, y, z });
    }

    #[test]
    fn hypercubes(dimensions in 1u32..=5) {
        check(&Topology::Hypercube { dimensions });
    }

    #[test]
    fn omegas(stages in 1u32..=4) {
        check(&Topology::Omega { stages });
    }

    #[test]
    fn binary_trees(levels in 1u32..=5) {
        check(&Topology::BinaryTree { levels });
    }

    #[test]
    fn fat_trees(arity in 2u32..=4, levels in 1u32..=3) {
        prop_assume!(arity.pow(levels) <= 64);
        check(&Topology::FatTree { arity, levels });
    }

    #[test]
    fn parallel_generalised_fat_trees(
        down in prop::collection::vec(1u32..=3, 1..=3),
        up in prop::collection::vec(1u32..=3, 3),
        parallel in prop::collection::vec(1u32..=2, 3),
    ) {
        let h = down.len();
        let mut up = up[..h].to_vec();
        let mut parallel = parallel[..h].to_vec();
        up[0] = 1;
        parallel[0] = 1;
        let ranks: u32 = down.iter().product();
        // Replicas no denser than the processors below them, so icons keep apart.
        let dense = (1..=h).any(|l| up[..l].iter().product::<u32>() > down[..l].iter().product::<u32>());
        prop_assume!((2..=36).contains(&ranks) && !dense);
        check(&Topology::Pgft { down, up, parallel });
    }

    #[test]
    fn dragonflies(groups in 1u32..=3, chassis in 1u32..=2, routers in 1u32..=3, nodes in 1u32..=2) {
        prop_assume!(groups <= chassis * routers && groups * chassis * routers * nodes >= 2);
        check(&Topology::Dragonfly {
            groups, group_links: 1, chassis, chassis_links: 2, routers, router_links: 1, nodes,
        });
    }
}

#[test]
fn pgfts_reach_everyone_with_every_up_and_down_choice() {
    use hase_engine::model::{DownChoice, UpChoice};
    let registry = builtin_registry();
    let t = Topology::Pgft { down: vec![2, 2, 2], up: vec![1, 2, 2], parallel: vec![1, 2, 2] };
    for up in [UpChoice::ByDestination, UpChoice::BySource, UpChoice::First] {
        for down in [DownChoice::ByDestination, DownChoice::BySource] {
            let mut spec = TemplateSpec::new(t.clone());
            (spec.up_choice, spec.down_choice) = (up, down);
            let project = template_project(&spec, &registry, "pgft", &ProjectForm::Flat).unwrap();
            check_routes(&t, &elaborate_checked(&project, &registry));
        }
    }
}

#[test]
fn dragonfly_link_counts_multiply_bandwidth() {
    let t = Topology::Dragonfly {
        groups: 2,
        group_links: 4,
        chassis: 2,
        chassis_links: 3,
        routers: 2,
        router_links: 2,
        nodes: 1,
    };
    let g = generate(&TemplateSpec::new(t), &builtin_registry()).unwrap();
    let bw = |a: &str, b: &str| {
        let l = g.network.links.iter().find(|l| l.a.instance == a && l.b.instance == b).unwrap();
        l.bandwidth_bytes_per_s / 1_000_000_000
    };
    // Green within a chassis, black between chassis, blue between groups (router 1 of group 0 to
    // router 0 of group 1).
    assert_eq!(bw("r_0_0_0", "r_0_0_1"), 2);
    assert_eq!(bw("r_0_0_0", "r_0_1_0"), 3);
    assert_eq!(bw("r_0_0_1", "r_1_0_0"), 4);
}

/// About 6 s (generation 0.9 s, elaboration 4.4 s, routes 0.14 s); the routing side alone is
/// covered quickly in `hase-entities`.
#[test]
#[ignore = "slow: elaborates 131,072 entities"]
fn a_65536_node_torus_routes_without_tables() {
    let t = Topology::Torus2D { x: 256, y: 256 };
    let registry = builtin_registry();
    let started = std::time::Instant::now();
    let project =
        template_project(&TemplateSpec::new(t.clone()), &registry, "big", &ProjectForm::Flat).unwrap();
    let generated = started.elapsed();
    let model = elaborate_checked(&project, &registry);
    let elaborated = started.elapsed();
    let ranks = assign_ranks(&model).unwrap();
    let routes = build_routes(&model, &ranks).unwrap();
    eprintln!("generate {generated:?}, elaborate {elaborated:?}, routes {:?}", started.elapsed());
    let routers: Vec<&Route> = routes.iter().flatten().collect();
    assert_eq!(routers.len(), 65_536);
    assert!(routers.iter().all(|r| r.table_entries() == 0));
    for (s, d) in [(0, 65_535), (257, 40_000), (65_535, 128 * 257)] {
        assert_eq!(walk(&model, &ranks, &routes, s, d), t.route_links(s, d) as usize);
    }
}

#[test]
fn fat_trees_reach_everyone_with_every_up_choice() {
    use hase_engine::model::UpChoice;
    let registry = builtin_registry();
    for t in [Topology::FatTree { arity: 2, levels: 3 }, Topology::FatTree { arity: 3, levels: 2 }] {
        for choice in [UpChoice::ByDestination, UpChoice::BySource, UpChoice::First] {
            let mut spec = TemplateSpec::new(t.clone());
            spec.up_choice = choice;
            let project = template_project(&spec, &registry, "fat", &ProjectForm::Flat).unwrap();
            check_routes(&t, &elaborate_checked(&project, &registry));
        }
    }
}

#[test]
fn the_k_ary_n_tree_is_the_pgft_simgrid_writes_for_it() {
    use hase_engine::model::UpChoice;
    let registry = builtin_registry();
    let tree = Topology::FatTree { arity: 2, levels: 3 };
    let pgft = Topology::Pgft { down: vec![2, 2, 2], up: vec![1, 2, 2], parallel: vec![1, 1, 1] };
    for choice in [UpChoice::ByDestination, UpChoice::BySource] {
        let models: Vec<FlatModel> = [&tree, &pgft]
            .map(|t| {
                let mut spec = TemplateSpec::new(t.clone());
                spec.up_choice = choice;
                elaborate_checked(
                    &template_project(&spec, &registry, "t", &ProjectForm::Flat).unwrap(),
                    &registry,
                )
            })
            .into();
        let links_of = |t: &Topology| {
            let mut links: Vec<String> = generate(&TemplateSpec::new(t.clone()), &registry)
                .unwrap()
                .network
                .links
                .iter()
                .map(hase_engine::model::Link::key)
                .collect();
            links.sort();
            links
        };
        assert_eq!(links_of(&tree), links_of(&pgft), "the same switches, ports and cables");
        let routes: Vec<Vec<Option<Route>>> =
            models.iter().map(|m| build_routes(m, &assign_ranks(m).unwrap()).unwrap()).collect();
        for (id, e) in models[0].entities.iter().enumerate() {
            let other = models[1].find(&e.path).unwrap() as usize;
            let (Some(a), Some(b)) = (&routes[0][id], &routes[1][other]) else { continue };
            for s in 0..8 {
                for d in 0..8 {
                    assert_eq!(a.next_port(d, s), b.next_port(d, s), "{} {s}→{d} ({choice:?})", e.path);
                }
            }
        }
    }
}
