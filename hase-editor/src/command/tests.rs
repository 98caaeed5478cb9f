//! Edit command tests: each command's effect, its refusals, and that undo restores the document exactly.

use std::collections::BTreeSet;

use hase_engine::SimTime;
use hase_engine::model::{
    AbstractionLevel, Direction, EntityType, Instance, Link, ParamDisplay, ParamValue, PortDef, PortRef, Pos,
    TypeRegistry,
};
use hase_engine::validate::validate_project;
use proptest::prelude::*;

use std::collections::BTreeMap;

use super::history::History;
use super::*;
use crate::document::{Document, NetworkId};
use crate::fixtures::{STAR_TYPE, demo_project};

fn demo() -> Document {
    Document::with_builtins(demo_project())
}

fn top() -> NetworkId {
    NetworkId::Top
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_string()).collect()
}

fn link(a: (&str, &str), b: (&str, &str)) -> Link {
    Link::new(PortRef::new(a.0, a.1), PortRef::new(b.0, b.1), SimTime::ZERO, 0)
}

fn link_cmd(a: (&str, &str), b: (&str, &str)) -> EditCommand {
    EditCommand::Link { net: top(), link: link(a, b), index: None, corners: Vec::new() }
}

fn add(name: &str, ty: &str) -> EditCommand {
    EditCommand::AddInstance {
        net: top(),
        name: name.into(),
        instance: Instance::of(ty),
        pos: Pos::new(10.0, 20.0),
        displayed: BTreeMap::new(),
    }
}

/// Apply through a history, check undo gives back the original and redo the edited document.
pub(super) fn round_trip(doc: &mut Document, command: EditCommand) -> Applied {
    let before = doc.clone();
    let mut history = History::default();
    let applied = history.apply(doc, command).unwrap();
    let after = doc.clone();
    assert_ne!(before, after, "the command changed nothing");
    history.undo(doc).unwrap().unwrap();
    assert_eq!(*doc, before, "undo did not restore the document");
    history.redo(doc).unwrap().unwrap();
    assert_eq!(*doc, after, "redo did not repeat the edit");
    applied
}

fn validates(doc: &Document) {
    let registry = TypeRegistry::for_project(doc.builtins(), &doc.project);
    if let Err(e) = validate_project(&doc.project, &registry) {
        panic!("{e}");
    }
}

#[test]
fn add_move_remove_round_trip() {
    let mut doc = demo();
    let applied = round_trip(&mut doc, add("p8", "Processor"));
    assert_eq!(applied.created, names(&["p8"]));
    assert_eq!(doc.position(&top(), "p8"), Pos::new(10.0, 20.0));
    round_trip(
        &mut doc,
        EditCommand::MoveInstances {
            net: top(),
            moves: vec![("p8".into(), Pos::new(-5.0, 7.5)), ("r0".into(), Pos::new(1.0, 2.0))],
        },
    );
    assert_eq!(doc.position(&top(), "r0"), Pos::new(1.0, 2.0));
    // Removing r0 takes its five links with it; undo puts them back at their old indices.
    round_trip(&mut doc, EditCommand::RemoveInstance { net: top(), name: "r0".into() });
    assert_eq!(doc.project.network.links.len(), 4);
    assert!(!doc.project.layout.top.positions.contains_key("r0"));
    assert!(!doc.project.layout.top.displayed.contains_key("r0"));
}

#[test]
fn duplicate_and_bad_names_are_refused() {
    let mut doc = demo();
    let before = doc.clone();
    let err = apply(&mut doc, add("p0", "Processor")).unwrap_err();
    assert_eq!(err, CommandError::NameTaken("p0".into()));
    assert_eq!(err.to_string(), "p0: the name is already used");
    assert!(apply(&mut doc, add("9x", "Processor")).is_err());
    assert!(apply(&mut doc, add("x", "NoSuchType")).unwrap_err().to_string().contains("unknown entity type"));
    assert_eq!(doc, before);
}

#[test]
fn link_and_unlink_round_trip() {
    let mut doc = demo();
    apply(&mut doc, add("p8", "Processor")).unwrap();
    apply(&mut doc, add("r1", "Router")).unwrap();
    round_trip(&mut doc, link_cmd(("p8", "net"), ("r1", "p2")));
    let key = link(("p8", "net"), ("r1", "p2")).key();
    round_trip(&mut doc, EditCommand::Unlink { net: top(), key: key.clone() });
    assert!(doc.project.network.links.iter().all(|l| l.key() != key));
}

#[test]
fn links_are_refused_with_reasons() {
    let mut doc = demo();
    apply(&mut doc, add("p8", "Processor")).unwrap();
    apply(&mut doc, add("r1", "Router")).unwrap();
    apply(&mut doc, add("t0", "ProcessorTxRx")).unwrap();
    apply(&mut doc, add("s0", "Switch2x2")).unwrap();
    let before = doc.clone();
    let refuse = |doc: &mut Document, cmd: EditCommand| apply(doc, cmd).unwrap_err().to_string();
    let e = refuse(&mut doc, link_cmd(("p8", "net"), ("r0", "p1")));
    assert_eq!(e, "r0.p1: port already connected (to p1.net)");
    let e = refuse(&mut doc, link_cmd(("t0", "tx"), ("s0", "out0")));
    assert!(e.starts_with("t0.tx: direction mismatch: `out` here and `out` at s0.out0"), "{e}");
    let e = refuse(&mut doc, link_cmd(("p8", "net"), ("p8", "net")));
    assert!(e.contains("itself"), "{e}");
    let e = refuse(&mut doc, link_cmd(("p8", "nope"), ("r1", "p0")));
    assert_eq!(e, "p8.nope: no such port");
    // A port of another link type.
    let mut flit = EntityType::leaf("FlitSource", "Processors", "processor");
    flit.ports.push(PortDef::new("out", Direction::Out, "flit"));
    doc.project.types.insert("FlitSource".into(), flit);
    apply(&mut doc, add("f0", "FlitSource")).unwrap();
    let e = refuse(&mut doc, link_cmd(("f0", "out"), ("r1", "p0")));
    assert_eq!(e, "f0.out: link type mismatch: `flit` here, `packet` at r1.p0");
    // Inside a compound, an exported port is linked one level up.
    let inner = NetworkId::Type(STAR_TYPE.into());
    apply(
        &mut doc,
        EditCommand::AddInstance {
            net: inner.clone(),
            name: "px".into(),
            instance: Instance::of("Processor"),
            pos: Pos::default(),
            displayed: BTreeMap::new(),
        },
    )
    .unwrap();
    let e = refuse(
        &mut doc,
        EditCommand::Link {
            net: inner,
            link: link(("px", "net"), ("sw0", "p0")),
            index: None,
            corners: Vec::new(),
        },
    );
    assert!(e.contains("exported as outer port `p0`"), "{e}");
    doc.project.types.remove("FlitSource");
    assert_ne!(doc, before); // f0 and px were added; the refusals themselves changed nothing
}

#[test]
fn set_param_checks_kind_and_ports() {
    let mut doc = demo();
    round_trip(
        &mut doc,
        EditCommand::SetParam {
            net: top(),
            instance: "p0".into(),
            param: "time_step".into(),
            value: Some(ParamValue::Time(SimTime::from_us(10))),
        },
    );
    let set = |v: i64| EditCommand::SetParam {
        net: top(),
        instance: "r0".into(),
        param: "radix".into(),
        value: Some(ParamValue::Int(v)),
    };
    let e = apply(&mut doc, set(4)).unwrap_err().to_string();
    assert!(e.starts_with("r0.p4: port is linked and would disappear"), "{e}");
    let e = apply(&mut doc, set(9999)).unwrap_err().to_string();
    assert_eq!(e, "r0.radix: 9999 is out of range [1, 4096]");
    round_trip(&mut doc, set(8));
    // Clearing the override brings back the default (radix 4), which would orphan r0.p4.
    let clear =
        EditCommand::SetParam { net: top(), instance: "r0".into(), param: "radix".into(), value: None };
    assert!(apply(&mut doc, clear).is_err());
    let e = apply(
        &mut doc,
        EditCommand::SetParam { net: top(), instance: "r0".into(), param: "colour".into(), value: None },
    )
    .unwrap_err();
    assert!(
        matches!(&e, CommandError::UnknownParam { instance, param, .. } if instance == "r0" && param == "colour")
    );
    assert_eq!(e.to_string(), "r0: type `Router` has no parameter `colour`");
}

#[test]
fn rename_moves_links_layout_and_corners() {
    let mut doc = demo();
    let key = link(("p0", "net"), ("r0", "p0")).key();
    apply(
        &mut doc,
        EditCommand::SetCorners { net: top(), key: key.clone(), corners: vec![Pos::new(1.0, 1.0)] },
    )
    .unwrap();
    round_trip(&mut doc, EditCommand::Rename { net: top(), from: "r0".into(), to: "hub".into() });
    assert!(doc.project.network.instances.contains_key("hub"));
    assert_eq!(
        doc.project.network.links.iter().filter(|l| l.a.instance == "hub" || l.b.instance == "hub").count(),
        5
    );
    let new_key = link(("p0", "net"), ("hub", "p0")).key();
    assert_eq!(doc.project.layout.top.corners[&new_key], vec![Pos::new(1.0, 1.0)]);
    assert!(doc.project.layout.top.displayed.contains_key("hub"));
    let e =
        apply(&mut doc, EditCommand::Rename { net: top(), from: "hub".into(), to: "p1".into() }).unwrap_err();
    assert_eq!(e, CommandError::NameTaken("p1".into()));
    // Renaming an exported inner instance updates the compound's exports.
    let inner = NetworkId::Type(STAR_TYPE.into());
    apply(&mut doc, EditCommand::Rename { net: inner, from: "sw0".into(), to: "left".into() }).unwrap();
    validates(&doc);
}

#[test]
fn levels_need_a_compound_with_a_behaviour() {
    let mut doc = demo();
    let level = |inst: &str, level| EditCommand::SetLevel { net: top(), instance: inst.into(), level };
    round_trip(&mut doc, level("net0", AbstractionLevel::Behavioural));
    assert_eq!(doc.project.network.instances["net0"].level, AbstractionLevel::Behavioural);
    let e = apply(&mut doc, level("r0", AbstractionLevel::Behavioural)).unwrap_err();
    assert_eq!(e, CommandError::OneLevelOnly { instance: "r0".into(), type_name: "Router".into() });
    assert!(e.to_string().contains("not a compound type"), "{e}");
}

#[test]
fn display_choice_round_trips() {
    let mut doc = demo();
    round_trip(
        &mut doc,
        EditCommand::SetDisplay {
            net: top(),
            instance: "p3".into(),
            param: "rank".into(),
            display: ParamDisplay::Value,
        },
    );
    assert_eq!(doc.project.layout.top.displayed["p3"]["rank"], ParamDisplay::Value);
}

#[test]
fn group_inherits_outside_and_free_ports_then_ungroup_restores() {
    let mut doc = demo();
    let original = doc.clone();
    let group = EditCommand::Group {
        net: top(),
        instances: names(&["p0", "p1", "p2", "p3", "r0"]),
        type_name: "Cluster".into(),
        instance_name: "c0".into(),
    };
    let applied = round_trip(&mut doc, group);
    assert_eq!(applied.created, names(&["c0"]));
    let ty = &doc.project.types["Cluster"];
    // Only r0.p4 leaves the group (to net0.p4); no grouped port is unconnected.
    let ports: Vec<&str> = ty.ports.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(ports, ["r0_p4"]);
    let inner = &ty.compound.as_ref().unwrap().network;
    assert_eq!(inner.instances.len(), 5);
    assert_eq!(inner.links.len(), 4);
    assert!(
        doc.project
            .network
            .links
            .iter()
            .any(|l| l.touches(&PortRef::new("c0", "r0_p4")) && l.touches(&PortRef::new("net0", "p4")))
    );
    // The centre of the group is where the compound sits.
    // Mean of p0..p3 (x −440, −320, −200, −80; y −140) and r0 (−260, 40).
    assert_eq!(doc.position(&top(), "c0"), Pos::new(-260.0, -104.0));
    validates(&doc);

    // Ungroup restores the same instances, links and positions (link order aside).
    apply(&mut doc, EditCommand::Ungroup { net: top(), instance: "c0".into() }).unwrap();
    assert!(!doc.project.types.contains_key("Cluster"));
    assert_eq!(doc.project.network.instances, original.project.network.instances);
    let keys = |d: &Document| d.project.network.links.iter().map(Link::key).collect::<BTreeSet<_>>();
    assert_eq!(keys(&doc), keys(&original));
    for (name, p) in &original.project.layout.top.positions {
        let q = doc.position(&top(), name);
        assert!((p.x - q.x).abs() < 1e-3 && (p.y - q.y).abs() < 1e-3, "{name}: {p:?} vs {q:?}");
    }
    validates(&doc);
}

#[test]
fn grouping_exports_unconnected_ports_and_ungroup_renames_on_clash() {
    let mut doc = demo();
    apply(&mut doc, add("p8", "Processor")).unwrap();
    apply(
        &mut doc,
        EditCommand::Group {
            net: top(),
            instances: names(&["p8"]),
            type_name: "Solo".into(),
            instance_name: "c0".into(),
        },
    )
    .unwrap();
    assert_eq!(doc.project.types["Solo"].ports[0].name, "p8_net");
    // A new p8 takes the name, so ungrouping must rename the inner p8.
    apply(&mut doc, add("p8", "Processor")).unwrap();
    let applied = apply(&mut doc, EditCommand::Ungroup { net: top(), instance: "c0".into() }).unwrap();
    assert_eq!(applied.created, names(&["p9"]));
    let e = apply(&mut doc, EditCommand::Ungroup { net: top(), instance: "r0".into() }).unwrap_err();
    assert_eq!(e, CommandError::NothingToUngroup { instance: "r0".into(), type_name: "Router".into() });
}

#[test]
fn paste_renames_and_keeps_inner_links() {
    let mut doc = demo();
    let fragment = Fragment::copy(&doc, &top(), &names(&["p0", "r0", "net0"]));
    assert_eq!(fragment.instances.len(), 3);
    assert_eq!(fragment.links.len(), 2); // p0–r0 and r0–net0
    let applied =
        round_trip(&mut doc, EditCommand::Paste { net: top(), fragment, offset: Pos::new(40.0, 40.0) });
    assert_eq!(applied.created, names(&["net1", "p8", "r1"]));
    assert_eq!(doc.position(&top(), "r1"), Pos::new(-220.0, 80.0));
    assert!(doc.project.network.links.iter().any(|l| l.key() == link(("p8", "net"), ("r1", "p0")).key()));
}

#[test]
fn align_and_distribute() {
    let mut doc = demo();
    round_trip(
        &mut doc,
        EditCommand::Align { net: top(), instances: names(&["p0", "r0", "net0"]), how: Alignment::Left },
    );
    for n in ["p0", "r0", "net0"] {
        assert_eq!(doc.position(&top(), n), Pos::new(-440.0, doc.position(&top(), n).y));
    }
    let moves = align_moves(&doc, &top(), &names(&["p4", "p5", "p7"]), Alignment::DistributeHorizontal);
    let xs: Vec<f32> = moves.iter().map(|(_, p)| p.x).collect();
    // p4, p5, p7 sit at 80, 200, 440: equal gaps between the outer two.
    assert_eq!(xs, [80.0, 260.0, 440.0]);
}

/// An edit chosen by numbers, made concrete against the current document.
#[allow(clippy::many_single_char_names, reason = "a, b, x: the random numbers")]
fn concrete(doc: &Document, op: u8, a: usize, b: usize, x: f32) -> EditCommand {
    let names: Vec<String> = doc.project.network.instances.keys().cloned().collect();
    let pick = |i: usize| names[i % names.len()].clone();
    let port_of = |name: &str, i: usize| {
        let ports = doc.ports_of(&top(), name);
        ports.get(i % ports.len().max(1)).map_or_else(|| "none".to_string(), |p| p.name.clone())
    };
    let types = ["Processor", "Router", "ProcessorTxRx", "Switch2x2", "NetworkModel", STAR_TYPE];
    match op % 11 {
        0 => EditCommand::AddInstance {
            net: top(),
            name: doc.project.network.fresh_name("n"),
            instance: Instance::of(types[a % types.len()]),
            pos: Pos::new(x, -x),
            displayed: BTreeMap::new(),
        },
        1 => EditCommand::RemoveInstance { net: top(), name: pick(a) },
        2 => EditCommand::MoveInstances {
            net: top(),
            moves: vec![(pick(a), Pos::new(x, x)), (pick(b), Pos::new(-x, 0.5))],
        },
        3 => {
            let (i, j) = (pick(a), pick(b));
            EditCommand::Link {
                net: top(),
                link: link((&i, &port_of(&i, b)), (&j, &port_of(&j, a))),
                index: None,
                corners: vec![Pos::new(x, 1.0)],
            }
        }
        4 => match doc.project.network.links.get(a % doc.project.network.links.len().max(1)) {
            Some(l) => EditCommand::Unlink { net: top(), key: l.key() },
            None => EditCommand::Unlink { net: top(), key: "none".into() },
        },
        5 => EditCommand::SetParam {
            net: top(),
            instance: pick(a),
            param: ["radix", "time_step", "rank", "model"][b % 4].into(),
            value: [Some(ParamValue::Int(b as i64 % 12)), None][a % 2].clone(),
        },
        6 => EditCommand::Rename { net: top(), from: pick(a), to: format!("x{b}") },
        7 => EditCommand::SetLevel {
            net: top(),
            instance: pick(a),
            level: [AbstractionLevel::Detailed, AbstractionLevel::Behavioural][b % 2],
        },
        8 => EditCommand::Group {
            net: top(),
            instances: vec![pick(a), pick(b)],
            type_name: doc.fresh_type_name("G"),
            instance_name: format!("g{a}"),
        },
        9 => EditCommand::Ungroup { net: top(), instance: pick(a) },
        _ => EditCommand::Paste {
            net: top(),
            fragment: Fragment::copy(doc, &top(), &[pick(a), pick(b)]),
            offset: Pos::new(x, x),
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any sequence of edits, undone step by step, gives back the original document; redone, the
    /// edited one. A refused edit changes nothing.
    #[test]
    fn undo_restores_and_redo_repeats(ops in proptest::collection::vec((any::<u8>(), 0usize..64, 0usize..64, -500.0f32..500.0), 1..24)) {
        let mut doc = demo();
        let original = doc.clone();
        let mut history = History::default();
        let mut applied = 0;
        for (op, a, b, x) in ops {
            let command = concrete(&doc, op, a, b, x);
            let before = doc.clone();
            if history.apply(&mut doc, command).is_ok() {
                applied += 1;
            } else {
                prop_assert_eq!(&doc, &before);
            }
        }
        let edited = doc.clone();
        for _ in 0..applied {
            history.undo(&mut doc).unwrap().unwrap();
        }
        prop_assert!(history.undo(&mut doc).is_none());
        prop_assert_eq!(&doc, &original);
        for _ in 0..applied {
            history.redo(&mut doc).unwrap().unwrap();
        }
        prop_assert_eq!(&doc, &edited);
    }
}

#[test]
fn link_latency_and_bandwidth_round_trip_and_unknown_links_are_refused() {
    let mut doc = demo();
    let key = doc.project.network.links[0].key();
    let old = (doc.project.network.links[0].latency, doc.project.network.links[0].bandwidth_bytes_per_s);
    let command = EditCommand::SetLinkProps {
        net: top(),
        key: key.clone(),
        latency: SimTime::from_ns(250),
        bandwidth_bytes_per_s: 2_000_000_000,
    };
    round_trip(&mut doc, command);
    let link = &doc.project.network.links[0];
    assert_eq!((link.latency, link.bandwidth_bytes_per_s), (SimTime::from_ns(250), 2_000_000_000));
    assert_ne!(old, (link.latency, link.bandwidth_bytes_per_s));
    validates(&doc);
    let mut history = History::default();
    let unknown = EditCommand::SetLinkProps {
        net: top(),
        key: "nowhere.p--elsewhere.q".into(),
        latency: SimTime::ZERO,
        bandwidth_bytes_per_s: 0,
    };
    let before = doc.clone();
    let error = history.apply(&mut doc, unknown).unwrap_err();
    assert!(error.to_string().contains("no link nowhere.p--elsewhere.q"), "{error}");
    assert_eq!(doc, before, "a refused command changes nothing");
}
