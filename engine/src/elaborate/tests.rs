//! Elaboration: compounds flatten at the detailed level and stay one entity at the behavioural level;
//! links resolve through port maps; groups and scopes record the hierarchy.

use std::sync::Arc;

use crate::elaborate::{FlatEntity, ParamSet, elaborate, elaborate_type};
use crate::model::{AbstractionLevel, Instance, Link, ParamValue, PortRef, Project};
use crate::time::SimTime;
use crate::validate::tests::registry;

fn two_procs_on(level: AbstractionLevel) -> Project {
    let mut p = Project::new("t");
    p.network.instances.insert("p0".into(), Instance::of("Proc"));
    p.network.instances.insert("p1".into(), Instance::of("Proc"));
    let mut net = Instance::of("Pair");
    net.level = level;
    p.network.instances.insert("net".into(), net);
    p.network.links.push(Link::new(
        PortRef::new("p0", "net"),
        PortRef::new("net", "a"),
        SimTime::from_ns(5),
        100,
    ));
    p.network.links.push(Link::new(
        PortRef::new("p1", "net"),
        PortRef::new("net", "b"),
        SimTime::from_ns(5),
        100,
    ));
    p
}

#[test]
fn detailed_compounds_are_flattened_and_links_resolved_through_exports() {
    let m = elaborate(&two_procs_on(AbstractionLevel::Detailed), &registry()).unwrap();
    let paths: Vec<&str> = m.entities.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, vec!["net/s0", "net/s1", "p0", "p1"]);
    assert_eq!(m.links.len(), 3);
    let p0 = m.find("p0").unwrap();
    let peer = m.peer(crate::elaborate::Endpoint { entity: p0, port: 0 }).unwrap();
    assert_eq!(m.describe(peer), "net/s0.p1");
    assert_eq!(m.groups.len(), 1);
    assert_eq!(m.groups[0].path, "net");
    assert_eq!(m.entity(0).group, Some(0));
    assert_eq!(m.entity(p0).group, None);
    assert_eq!(m.scopes.len(), 2, "top level and the compound's inner network");
    // Parameters are resolved: the switch got its default radix and three ports.
    assert_eq!(m.entity(0).int("radix"), Some(3));
    assert_eq!(m.entity(0).ports().len(), 3);
}

#[test]
fn alike_instances_share_their_kind_and_parameter_names_but_not_their_links() {
    let mut project = two_procs_on(AbstractionLevel::Detailed);
    for (name, rank) in [("p0", 0), ("p1", 1)] {
        project.network.instances.get_mut(name).unwrap().params.insert("rank".into(), ParamValue::Int(rank));
    }
    let m = elaborate(&project, &registry()).unwrap();
    let (p0, p1) = (m.entity(m.find("p0").unwrap()), m.entity(m.find("p1").unwrap()));
    assert!(
        Arc::ptr_eq(p0.kind(), p1.kind()),
        "one kind (type, behaviour, ports, states) for both processors"
    );
    let switch = m.entity(m.find("net/s0").unwrap());
    assert!(!Arc::ptr_eq(p0.kind(), switch.kind()), "another type has another kind");
    assert_eq!((&**switch.type_name(), &**p0.type_name()), ("Sw", "Proc"));
    let (n0, n1) = (p0.params.override_name("rank").unwrap(), p1.params.override_name("rank").unwrap());
    assert!(Arc::ptr_eq(n0, n1), "one name for both overrides");
    assert_eq!((p0.int("rank"), p1.int("rank")), (Some(0), Some(1)));
    // Each keeps its own link: the two links differ and lead to different switch ports.
    let (l0, l1) = (p0.link(0).unwrap(), p1.link(0).unwrap());
    assert_ne!(l0, l1);
    assert_eq!(p0.links().collect::<Vec<_>>(), vec![Some(l0)]);
    assert_eq!(p0.link(1), None, "no such port");
    let s0 = m.entity(m.find("net/s0").unwrap());
    assert_eq!(s0.links().flatten().count(), 2, "s0 is linked to p0 and to s1");
    let mut detached = p0.clone();
    detached.set_link(0, None);
    assert_eq!((detached.link(0), p0.link(0)), (None, Some(l0)));
}

#[test]
fn the_trace_header_shares_name_lists_among_alike_entities() {
    let m = elaborate(&two_procs_on(AbstractionLevel::Detailed), &registry()).unwrap();
    let (p0, p1, s0) = (m.find("p0").unwrap(), m.find("p1").unwrap(), m.find("net/s0").unwrap());
    let mut params = vec![Vec::new(); m.entities.len()];
    params[p0 as usize] = vec!["queue".to_string()];
    params[p1 as usize] = vec!["queue".to_string()];
    let header = m.trace_header(1, 2, &params);
    let info = |e: u32| &header.entities[e as usize];
    assert!(Arc::ptr_eq(&info(p0).states, &info(p1).states));
    assert!(Arc::ptr_eq(&info(p0).ports, &info(p1).ports));
    assert!(Arc::ptr_eq(&info(p0).params, &info(p1).params), "equal parameter lists are one list");
    assert_eq!(*info(p1).params, ["queue"]);
    assert!(info(s0).params.is_empty());
    assert!(!Arc::ptr_eq(&info(p0).ports, &info(s0).ports), "another kind, its own ports");
    assert_eq!(
        &*info(p0).states,
        &m.entity(p0).states().iter().map(ToString::to_string).collect::<Vec<_>>()[..]
    );
}

/// A million-entity model holds a million of these: growing it should be a decision.
#[test]
fn an_entity_stays_small() {
    assert_eq!(std::mem::size_of::<FlatEntity>(), 88);
}

#[test]
fn behavioural_compounds_stay_one_entity_with_outer_ports() {
    let m = elaborate(&two_procs_on(AbstractionLevel::Behavioural), &registry()).unwrap();
    let paths: Vec<&str> = m.entities.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, vec!["net", "p0", "p1"]);
    let net = m.entity(0);
    assert_eq!(&**net.behaviour(), "model");
    assert_eq!(net.stands_for().map(|t| &**t), Some("Pair"));
    assert_eq!(m.entity(1).stands_for(), None, "a processor stands for nothing");
    let names: Vec<&str> = net.ports().iter().map(|p| &*p.name).collect();
    assert_eq!(names, vec!["a", "b"]);
    assert!(m.groups.is_empty());
}

#[test]
fn a_type_can_be_elaborated_alone_with_its_port_map() {
    let (inner, outer) = elaborate_type(&registry(), "Pair").unwrap();
    assert_eq!(inner.entities.len(), 2);
    assert_eq!(inner.describe(outer["a"]), "s0.p1");
    assert_eq!(inner.describe(outer["b"]), "s1.p1");
}

#[test]
fn invalid_projects_do_not_elaborate() {
    let mut p = two_procs_on(AbstractionLevel::Detailed);
    p.network.links.pop();
    let err = elaborate(&p, &registry()).unwrap_err();
    assert!(err.to_string().contains("p1.net: port is not connected"), "{err}");
}

#[test]
fn overrides_given_in_any_order_are_kept_sorted_and_the_later_of_two_counts() {
    let defaults =
        Arc::new([("a".to_string(), ParamValue::Int(1)), ("z".to_string(), ParamValue::Int(26))].into());
    let overrides = vec![
        (Arc::from("z"), ParamValue::Int(0)),
        (Arc::from("m"), ParamValue::Int(13)),
        (Arc::from("z"), ParamValue::Int(-26)),
    ];
    let mut params = ParamSet::with_overrides(defaults, overrides);
    let all: Vec<(&str, i64)> = params.iter().map(|(k, v)| (k, v.as_int().unwrap())).collect();
    assert_eq!(all, [("a", 1), ("m", 13), ("z", -26)]);
    params.insert("b", ParamValue::Int(2));
    params.insert("m", ParamValue::Int(31));
    let all: Vec<(&str, i64)> = params.iter().map(|(k, v)| (k, v.as_int().unwrap())).collect();
    assert_eq!(all, [("a", 1), ("b", 2), ("m", 31), ("z", -26)]);
    assert_eq!(params.get("b"), Some(&ParamValue::Int(2)), "found by binary search after inserting");
}
