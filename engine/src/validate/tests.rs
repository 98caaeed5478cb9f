//! Every validation problem on a small hand-made registry, with the exact path reported, and the
//! guarantee that all problems of a project are reported together.

use crate::model::{
    AbstractionLevel, CompoundDef, Direction, EntityType, Instance, Link, Network, ParamDef, ParamKind,
    ParamValue, PortDef, PortExport, PortRef, Project, TypeRegistry,
};
use crate::time::SimTime;
use crate::validate::{Problem, validate_project};

fn leaf(name: &str, ports: Vec<PortDef>) -> EntityType {
    EntityType { ports, ..EntityType::leaf(name, "Test", "b") }
}

/// A two-switch network type exporting `a` and `b`; `with_behaviour` decides if it can be behavioural.
fn pair_type(name: &str, with_behaviour: bool) -> EntityType {
    let mut net = Network::default();
    net.instances.insert("s0".into(), Instance::of("Sw"));
    net.instances.insert("s1".into(), Instance::of("Sw"));
    net.links.push(Link::new(PortRef::new("s0", "p0"), PortRef::new("s1", "p0"), SimTime::ZERO, 0));
    EntityType {
        name: name.into(),
        category: "Test".into(),
        description: String::new(),
        icon: None,
        ports: vec![
            PortDef::new("a", Direction::InOut, "packet"),
            PortDef::new("b", Direction::InOut, "packet"),
        ],
        params: vec![],
        states: vec![],
        behaviour: with_behaviour.then(|| "model".to_string()),
        compound: Some(CompoundDef {
            network: net,
            exports: vec![
                PortExport { outer: "a".into(), inner: PortRef::new("s0", "p1") },
                PortExport { outer: "b".into(), inner: PortRef::new("s1", "p1") },
            ],
        }),
    }
}

pub(crate) fn registry() -> TypeRegistry {
    let mut sw = leaf("Sw", vec![PortDef::new("p", Direction::InOut, "packet").array_by("radix").optional()]);
    sw.params.push(ParamDef::new("radix", ParamKind::Int { min: Some(1), max: Some(8) }, ParamValue::Int(3)));
    let mut proc = leaf("Proc", vec![PortDef::new("net", Direction::InOut, "packet")]);
    proc.params.push(ParamDef::new("rank", ParamKind::Int { min: Some(-1), max: None }, ParamValue::Int(-1)));
    let mut needy = leaf("Needy", vec![]);
    needy.params.push(ParamDef {
        default: None,
        ..ParamDef::new("seed", ParamKind::Int { min: None, max: None }, ParamValue::Int(0))
    });
    TypeRegistry::new([
        sw,
        proc,
        needy,
        leaf("Tok", vec![PortDef::new("t", Direction::InOut, "token")]),
        leaf("Src", vec![PortDef::new("o", Direction::Out, "packet").optional()]),
        leaf("Src2", vec![PortDef::new("o", Direction::Out, "packet").optional()]),
        EntityType { behaviour: None, ..leaf("Empty", vec![]) },
        pair_type("Pair", true),
        pair_type("PairNoModel", false),
    ])
}

fn project(instances: &[(&str, Instance)], links: &[(&str, &str, &str, &str)]) -> Project {
    let mut p = Project::new("t");
    for (n, i) in instances {
        p.network.instances.insert((*n).into(), i.clone());
    }
    for (a, ap, b, bp) in links {
        p.network.links.push(Link::new(PortRef::new(a, ap), PortRef::new(b, bp), SimTime::ZERO, 0));
    }
    p
}

fn problems(p: &Project) -> Vec<(String, Problem)> {
    match validate_project(p, &registry()) {
        Ok(()) => vec![],
        Err(e) => e.0.into_iter().map(|e| (e.path, e.problem)).collect(),
    }
}

#[test]
fn a_valid_project_passes() {
    let p = project(
        &[("p0", Instance::of("Proc")), ("p1", Instance::of("Proc")), ("net", Instance::of("Pair"))],
        &[("p0", "net", "net", "a"), ("p1", "net", "net", "b")],
    );
    assert_eq!(problems(&p), vec![]);
}

#[test]
fn unknown_type_and_unknown_or_bad_params() {
    let p = project(
        &[
            ("x", Instance::of("Nope")),
            ("s", Instance::of("Sw").with("radix", ParamValue::Int(99)).with("colour", ParamValue::Int(1))),
            ("n", Instance::of("Needy")),
        ],
        &[],
    );
    let got = problems(&p);
    assert!(got.contains(&("x".into(), Problem::UnknownType("Nope".into()))), "{got:?}");
    assert!(got.contains(&("s".into(), Problem::UnknownParam("colour".into()))), "{got:?}");
    assert!(
        got.iter().any(|(p, e)| p == "s" && matches!(e, Problem::BadParam { param, .. } if param == "radix"))
    );
    assert!(got.contains(&("n".into(), Problem::MissingParam("seed".into()))), "{got:?}");
    assert_eq!(got.len(), 4, "all problems are reported together: {got:?}");
}

#[test]
fn link_problems_name_the_port() {
    let p = project(
        &[
            ("p0", Instance::of("Proc")),
            ("p1", Instance::of("Proc")),
            ("p2", Instance::of("Proc")),
            ("t", Instance::of("Tok")),
            ("a", Instance::of("Src")),
            ("b", Instance::of("Src2")),
        ],
        &[
            ("p0", "net", "p1", "net"),
            ("p0", "net", "p2", "net"),   // p0.net doubly connected
            ("p1", "bogus", "p2", "net"), // dangling port (and p2.net doubly connected)
            ("ghost", "x", "t", "t"),     // dangling instance
            ("t", "t", "p2", "net"),      // link type mismatch
            ("a", "o", "b", "o"),         // out to out
        ],
    );
    let got = problems(&p);
    let has = |path: &str, f: &dyn Fn(&Problem) -> bool| got.iter().any(|(p, e)| p == path && f(e));
    assert!(has("p0.net", &|e| *e == Problem::DoublyConnected(2)), "{got:?}");
    assert!(has("p1.bogus", &|e| matches!(e, Problem::DanglingLink(_))), "{got:?}");
    assert!(has("ghost.x", &|e| matches!(e, Problem::DanglingLink(_))), "{got:?}");
    assert!(
        has(
            "t.t",
            &|e| matches!(e, Problem::LinkTypeMismatch { here, there_type, .. } if here == "token" && there_type == "packet")
        ),
        "{got:?}"
    );
    assert!(has("a.o", &|e| matches!(e, Problem::DirectionMismatch { .. })), "{got:?}");
}

#[test]
fn unconnected_required_ports_and_self_links() {
    let p = project(&[("p0", Instance::of("Proc")), ("s", Instance::of("Sw"))], &[("s", "p0", "s", "p0")]);
    let got = problems(&p);
    assert!(got.contains(&("p0.net".into(), Problem::Unconnected)), "{got:?}");
    assert!(got.contains(&("s.p0".into(), Problem::SelfLink)), "{got:?}");
}

#[test]
fn behavioural_level_needs_a_behaviour_and_types_need_something_to_simulate() {
    let mut i = Instance::of("PairNoModel");
    i.level = AbstractionLevel::Behavioural;
    let p = project(&[("net", i), ("e", Instance::of("Empty"))], &[]);
    let got = problems(&p);
    assert!(got.contains(&("net".into(), Problem::NoBehaviourForLevel("PairNoModel".into()))), "{got:?}");
    assert!(got.contains(&("e".into(), Problem::NothingToSimulate("Empty".into()))), "{got:?}");
}

#[test]
fn problems_inside_compounds_carry_the_full_path() {
    let mut reg = registry();
    let mut bad = pair_type("BadPair", true);
    let c = bad.compound.as_mut().unwrap();
    c.network.instances.insert("s2".into(), Instance::of("Sw").with("radix", ParamValue::Int(0)));
    c.exports[1].inner = PortRef::new("s1", "p7");
    reg.insert(bad);
    let mut outer = pair_type("Outer", false);
    outer.compound.as_mut().unwrap().network.instances.get_mut("s0").unwrap().type_name = "BadPair".into();
    outer.compound.as_mut().unwrap().network.links[0].a = PortRef::new("s0", "a");
    outer.compound.as_mut().unwrap().exports[0].inner = PortRef::new("s0", "b");
    reg.insert(outer);
    let p = project(&[("fabric", Instance::of("Outer"))], &[]);
    let got: Vec<(String, Problem)> =
        validate_project(&p, &reg).unwrap_err().0.into_iter().map(|e| (e.path, e.problem)).collect();
    assert!(got.iter().any(|(p, e)| p == "fabric/s0/s2" && matches!(e, Problem::BadParam { .. })), "{got:?}");
    assert!(got.iter().any(|(p, e)| p == "fabric/s0.b" && matches!(e, Problem::BadExport(_))), "{got:?}");
}

#[test]
fn a_compound_that_contains_itself_is_refused() {
    let mut reg = registry();
    let mut loopy = pair_type("Loopy", true);
    loopy.compound.as_mut().unwrap().network.instances.insert("me".into(), Instance::of("Loopy"));
    reg.insert(loopy);
    let p = project(&[("l", Instance::of("Loopy"))], &[]);
    let got = validate_project(&p, &reg).unwrap_err();
    assert!(
        got.0.iter().any(|e| e.path == "l/me" && e.problem == Problem::CyclicType("Loopy".into())),
        "{got}"
    );
    assert!(got.to_string().contains("l/me: compound type `Loopy` contains itself"));
}

#[test]
fn a_port_array_is_never_sized_from_an_out_of_range_parameter() {
    // The fuzzed abort: `radix: Int(4294967296)` built four billion ports before the range check.
    let s = Instance::of("Sw").with("radix", ParamValue::Int(4_294_967_296));
    let ty = registry().get("Sw").unwrap().clone();
    assert!(ty.concrete_ports(&s.params).is_empty());
    let got = problems(&project(&[("s", s)], &[]));
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(matches!(&got[0].1, Problem::BadParam { param, .. } if param == "radix"), "{got:?}");
}

#[test]
fn port_arrays_beyond_the_limit_are_refused_with_the_limit() {
    // A project's own type may declare no upper bound; the limit still applies.
    let mut wide = leaf("Wide", vec![PortDef::new("p", Direction::InOut, "packet").array_by("n").optional()]);
    wide.params.push(ParamDef::new("n", ParamKind::Int { min: None, max: None }, ParamValue::Int(2)));
    let fixed = leaf("Fixed", vec![PortDef::new("q", Direction::InOut, "packet").array(u32::MAX).optional()]);
    let registry = TypeRegistry::new([wide, fixed]);
    let p = project(
        &[
            ("w", Instance::of("Wide").with("n", ParamValue::Int(i64::MAX))),
            ("f", Instance::of("Fixed")),
            ("ok", Instance::of("Wide").with("n", ParamValue::Int(65_536))),
        ],
        &[],
    );
    let err = validate_project(&p, &registry).unwrap_err();
    let text = err.to_string();
    assert_eq!(err.0.len(), 2, "{text}");
    assert!(
        text.contains("w: port array `p` would have 9223372036854775807 ports; the limit is 65536"),
        "{text}"
    );
    assert!(text.contains("f: port array `q` would have 4294967295 ports"), "{text}");
}

#[test]
fn deep_or_huge_hierarchies_are_refused_before_elaboration() {
    let mut types = vec![leaf("L0", vec![])];
    for level in 1..=10 {
        let mut net = Network::default();
        for i in 0..10 {
            net.instances.insert(format!("i{i}"), Instance::of(&format!("L{}", level - 1)));
        }
        types.push(EntityType {
            compound: Some(CompoundDef { network: net, exports: vec![] }),
            behaviour: None,
            ..leaf(&format!("L{level}"), vec![])
        });
    }
    let registry = TypeRegistry::new(types.clone());
    let p = project(&[("root", Instance::of("L10"))], &[]);
    let text = validate_project(&p, &registry).unwrap_err().to_string();
    assert!(text.contains("10000000000 simulated entities; the limit is 4194304"), "{text}");

    // A chain of 100 distinct compound types, each holding the next.
    let mut chain = vec![leaf("C100", vec![])];
    for level in 0..100 {
        let mut net = Network::default();
        net.instances.insert("x".into(), Instance::of(&format!("C{}", level + 1)));
        chain.push(EntityType {
            compound: Some(CompoundDef { network: net, exports: vec![] }),
            behaviour: None,
            ..leaf(&format!("C{level}"), vec![])
        });
    }
    let p = project(&[("top", Instance::of("C0"))], &[]);
    let got = validate_project(&p, &TypeRegistry::new(chain)).unwrap_err().0;
    assert!(got.iter().any(|e| e.problem == Problem::TooDeep), "{got:?}");
}

#[test]
fn a_project_type_stored_under_another_name_is_refused_with_both_names() {
    let mut p = project(
        &[("p0", Instance::of("Proc")), ("p1", Instance::of("Proc")), ("net", Instance::of("Fab"))],
        &[("p0", "net", "net", "a"), ("p1", "net", "net", "b")],
    );
    // A hand-edited file: the compound is found as `Fab` but calls itself `Proc`, like a leaf.
    p.types.insert("Fab".into(), pair_type("Proc", true));
    let reg = TypeRegistry::for_project(&registry(), &p);
    let errors = validate_project(&p, &reg).unwrap_err().0;
    let named: Vec<String> = errors
        .iter()
        .filter(|e| matches!(e.problem, Problem::TypeNamedOtherwise(_)))
        .map(ToString::to_string)
        .collect();
    assert_eq!(named, ["types/Fab: the type stored under this name is named `Proc`; the two must agree"]);
    p.types.insert("Fab".into(), pair_type("Fab", true));
    let reg = TypeRegistry::for_project(&registry(), &p);
    assert_eq!(validate_project(&p, &reg), Ok(()));
}
