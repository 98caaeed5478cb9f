//! Tests of the project-wide commands (workload, run settings, routing) and of template insertion:
//! effects worked out by hand, refusals with their reasons, undo restoring the document exactly.

use std::collections::BTreeMap;

use hase_engine::SimTime;
use hase_engine::model::{
    ParamValue, PortRef, Project, Routing, RunSettings, StreamSource, TypeRegistry, UpChoice, Workload,
};
use hase_engine::validate::validate_project;
use hase_templates::{TemplateSpec, Topology};

use super::history::History;
use super::tests::round_trip;
use super::*;
use crate::document::{Document, NetworkId};
use crate::fixtures::demo_project;

fn refused(doc: &mut Document, command: EditCommand) -> String {
    let before = doc.clone();
    let error = apply(doc, command).unwrap_err().to_string();
    assert_eq!(*doc, before, "a refused command changed the document");
    error
}

fn program(params: &[(&str, ParamValue)]) -> Workload {
    Workload::Program {
        name: "collective_loop".into(),
        params: params.iter().map(|(k, v)| ((*k).to_string(), v.clone())).collect(),
    }
}

fn validates(doc: &Document) {
    let registry = TypeRegistry::for_project(doc.builtins(), &doc.project);
    if let Err(e) = validate_project(&doc.project, &registry) {
        panic!("{e}");
    }
}

#[test]
fn workload_is_set_and_undone() {
    let mut doc = Document::with_builtins(demo_project());
    let workload =
        program(&[("iterations", ParamValue::Int(3)), ("operation", ParamValue::Text("bcast".into()))]);
    let applied = round_trip(&mut doc, EditCommand::SetWorkload { workload: workload.clone() });
    assert_eq!(doc.project.workload, workload);
    assert_eq!(
        applied.inverse,
        EditCommand::RestoreRun { workload: Workload::Idle, settings: RunSettings::default() }
    );
}

#[test]
fn bad_programs_and_parameters_are_refused_with_the_reason() {
    let mut doc = Document::with_builtins(demo_project());
    let e = refused(
        &mut doc,
        EditCommand::SetWorkload { workload: program(&[("iterations", ParamValue::Int(-1))]) },
    );
    assert!(e.starts_with("collective_loop.iterations: "), "{e}");
    assert!(e.contains("-1"), "{e}");
    let e = refused(
        &mut doc,
        EditCommand::SetWorkload { workload: program(&[("operation", ParamValue::Text("gossip".into()))]) },
    );
    assert!(e.starts_with("collective_loop.operation: "), "{e}");
    let e =
        refused(&mut doc, EditCommand::SetWorkload { workload: program(&[("bogus", ParamValue::Int(1))]) });
    assert_eq!(e, "program `collective_loop` has no parameter `bogus`");
    let e = refused(
        &mut doc,
        EditCommand::SetWorkload {
            workload: Workload::Program { name: "nbody".into(), params: BTreeMap::new() },
        },
    );
    assert!(e.starts_with("unknown program `nbody`; built-in programs: "), "{e}");
}

#[test]
fn a_changed_inline_stream_must_parse_and_an_unchanged_one_is_left_alone() {
    let mut doc = Document::with_builtins(demo_project());
    let streams = |entries: &[(u32, &str)]| Workload::Streams {
        streams: entries.iter().map(|(r, t)| (*r, StreamSource::Inline((*t).to_string()))).collect(),
    };
    let e = refused(
        &mut doc,
        EditCommand::SetWorkload { workload: streams(&[(0, "COMPUTE 1us\nSEND one 64\n")]) },
    );
    // Line 2, column 6: the destination `one` is not a rank.
    assert!(e.starts_with("rank 0 stream:2:6: "), "{e}");
    // A broken stream already in the project (as loaded from a file) does not block other edits.
    doc.project.workload = streams(&[(1, "JUMP")]);
    round_trip(
        &mut doc,
        EditCommand::SetWorkload { workload: streams(&[(0, "COMPUTE 1us\n"), (1, "JUMP")]) },
    );
    // Files are not read by the editor: any path is accepted.
    let files =
        Workload::Streams { streams: BTreeMap::from([(0, StreamSource::File("missing.txt".into()))]) };
    round_trip(&mut doc, EditCommand::SetWorkload { workload: files });
}

#[test]
fn run_settings_are_set_and_the_trace_level_is_checked() {
    let mut doc = Document::with_builtins(demo_project());
    let settings = RunSettings { seed: 42, trace_level: 4, until: Some(SimTime::from_us(250)) };
    round_trip(&mut doc, EditCommand::SetRunSettings { settings: settings.clone() });
    assert_eq!(doc.project.settings, settings);
    for level in [0, 6] {
        let e = refused(
            &mut doc,
            EditCommand::SetRunSettings { settings: RunSettings { trace_level: level, ..settings.clone() } },
        );
        assert_eq!(e, format!("trace level {level} is not between 1 and 5"));
    }
}

#[test]
fn routing_is_set_per_network() {
    let mut doc = Document::with_builtins(demo_project());
    let routing = Routing::ECube { dimensions: 3 };
    round_trip(&mut doc, EditCommand::SetRouting { net: NetworkId::Top, routing: routing.clone() });
    assert_eq!(doc.project.network.routing, routing);
    let inner = NetworkId::Type(crate::fixtures::STAR_TYPE.into());
    round_trip(&mut doc, EditCommand::SetRouting { net: inner, routing: routing.clone() });
    let e = refused(&mut doc, EditCommand::SetRouting { net: NetworkId::Type("Nope".into()), routing });
    assert_eq!(e, "type `Nope` is not a compound type of this project");
}

fn fat_tree(form: InsertForm, prefix: &str, processors: bool) -> EditCommand {
    let mut spec = TemplateSpec::new(Topology::FatTree { arity: 2, levels: 3 });
    spec.up_choice = UpChoice::BySource;
    EditCommand::InsertTemplate {
        net: NetworkId::Top,
        insert: Box::new(TemplateInsert { spec, form, prefix: prefix.into(), processors }),
    }
}

#[test]
fn a_flat_template_fills_an_empty_network_and_sets_its_routing() {
    let mut doc = Document::with_builtins(Project::new("empty"));
    let applied = round_trip(&mut doc, fat_tree(InsertForm::Flat, "", true));
    let net = &doc.project.network;
    // 2-ary 3-tree: 3 levels of 4 switches, 8 processors; 2 × 8 switch links and 8 processor links.
    assert_eq!(net.instances.len(), 20);
    assert_eq!(net.links.len(), 24);
    assert_eq!(applied.created.len(), 20);
    assert_eq!(
        net.routing,
        Routing::UpDown { arity: 2, levels: 3, up_choice: UpChoice::BySource, up_ports: 2 }
    );
    assert_eq!(net.instances["p5"].params["rank"], ParamValue::Int(5));
    validates(&doc);
    // One undo step for the whole insert.
    let mut history = History::default();
    let mut empty = Document::with_builtins(Project::new("empty"));
    history.apply(&mut empty, fat_tree(InsertForm::Flat, "", false)).unwrap();
    assert_eq!(empty.project.network.instances.len(), 12, "switches only");
    assert_eq!(empty.project.network.links.len(), 16);
    history.undo(&mut empty).unwrap().unwrap();
    assert_eq!(empty, Document::with_builtins(Project::new("empty")));
}

#[test]
fn a_flat_template_is_refused_where_another_routing_rule_is_in_use() {
    let mut doc = Document::with_builtins(demo_project());
    let e = refused(&mut doc, fat_tree(InsertForm::Flat, "ft1_", true));
    assert!(e.starts_with("this network already holds 10 entities routed by shortest path;"), "{e}");
    assert!(e.contains("up/down"), "{e}");
}

#[test]
fn a_compound_template_beside_existing_entities_gets_fresh_names_and_free_space() {
    let mut doc = Document::with_builtins(demo_project());
    let form = InsertForm::Compound { type_name: "FatTree_k2_n3".into(), instance: "fabric".into() };
    // p0…p7 are taken: without a prefix the insert is refused, naming the first clash.
    let e = refused(&mut doc, fat_tree(form.clone(), "", true));
    assert_eq!(e, "p0: the name is already used; choose a name prefix");
    let EditCommand::InsertTemplate { net, insert } = fat_tree(form.clone(), "", true) else {
        unreachable!()
    };
    let generated = template::generate(&doc, &insert).unwrap();
    assert_eq!(template::free_prefix(&doc, &net, &generated, &insert), "ft1_");

    let right_edge = doc.project.layout.top.positions.values().map(|p| p.x).fold(f32::MIN, f32::max);
    let applied = round_trip(&mut doc, fat_tree(form, "ft1_", true));
    let net = &doc.project.network;
    assert_eq!(net.instances.len(), 10 + 1 + 8);
    assert_eq!(net.instances["fabric"].type_name, "FatTree_k2_n3");
    assert_eq!(net.instances["ft1_p3"].params["rank"], ParamValue::Int(3));
    assert!(
        net.links.iter().any(|l| l.a == PortRef::new("ft1_p3", "net") && l.b == PortRef::new("fabric", "p3"))
    );
    assert_eq!(net.routing, Routing::ShortestPath, "the existing network keeps its rule");
    let inner = &doc.project.types["FatTree_k2_n3"].compound.as_ref().unwrap().network;
    assert_eq!(inner.instances.len(), 12);
    assert!(matches!(inner.routing, Routing::UpDown { up_choice: UpChoice::BySource, .. }));
    let mut created = applied.created.clone();
    created.sort();
    assert_eq!(created.first().map(String::as_str), Some("fabric"));
    // Everything new lies right of what was there.
    let layout = &doc.project.layout.top.positions;
    let leftmost_new = applied.created.iter().map(|n| layout[n].x).fold(f32::MAX, f32::min);
    assert!(leftmost_new >= right_edge + 200.0, "{leftmost_new} vs {right_edge}");
    // A second insert under the same type name is refused.
    let e = refused(
        &mut doc,
        fat_tree(
            InsertForm::Compound { type_name: "FatTree_k2_n3".into(), instance: "fabric2".into() },
            "ft2_",
            true,
        ),
    );
    assert_eq!(e, "type `FatTree_k2_n3` already exists; choose another type name");
}

#[test]
fn template_errors_name_the_component_and_port() {
    let mut doc = Document::with_builtins(Project::new("empty"));
    let mut spec = TemplateSpec::new(Topology::Omega { stages: 3 });
    spec.endpoint_type = "Processor".into();
    let insert = TemplateInsert { spec, form: InsertForm::Flat, prefix: String::new(), processors: true };
    let e = refused(&mut doc, EditCommand::InsertTemplate { net: NetworkId::Top, insert: Box::new(insert) });
    assert_eq!(e, "component Processor has no port `tx` (out, packet) required by template omega");
}

#[test]
fn the_project_name_must_be_a_usable_library_name() {
    let mut doc = Document::with_builtins(demo_project());
    round_trip(&mut doc, EditCommand::SetProjectName { name: "fat tree, take 2".into() });
    assert_eq!(doc.project.name, "fat tree, take 2");
    let e = refused(&mut doc, EditCommand::SetProjectName { name: " padded".into() });
    assert!(e.starts_with("' padded' is not a usable project name"), "{e}");
}

#[test]
fn link_keys_are_matched_without_building_them() {
    use hase_engine::model::Link;
    let link = |a: (&str, &str), b: (&str, &str)| {
        Link::new(PortRef::new(a.0, a.1), PortRef::new(b.0, b.1), SimTime::ZERO, 0)
    };
    for l in
        [link(("r-1", "p0"), ("p--2", "net")), link(("a", "b"), ("a", "c")), link(("x.y", "p"), ("x", "y.p"))]
    {
        assert!(super::primitives::has_key(&l, &l.key()), "{}", l.key());
        let swapped = Link { a: l.b.clone(), b: l.a.clone(), ..l.clone() };
        assert!(super::primitives::has_key(&swapped, &l.key()));
    }
    let l = link(("r0", "p1"), ("p1", "net"));
    for other in ["p1.net--r0.p", "p1.net--r0.p11", "p1.ne--r0.p1", "p1.net-r0.p1", "", "p1.net--r0.p1 "] {
        assert!(!super::primitives::has_key(&l, other), "{other}");
    }
}
