//! Workflow tests of the template dialog and the workload editor, driving the real widgets with
//! egui_kittest: generate a fat tree and find the instances the preview counted (one undo step),
//! see bad dimensions and an unfit component explained before inserting, be offered the compound
//! form where a flat network would change the routing, and edit the workload and run settings
//! (refused values explained, every change undoable).

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use hase_engine::SimTime;
use hase_engine::model::{DownChoice, ParamValue, Project, Routing, StreamSource, UpChoice, Workload};

use super::{harness_on, settle};
use crate::app::{App, StartOptions};

fn app_on(project: Project) -> App {
    let mut app = App::new(StartOptions::default());
    app.editor.replace_project(project, None);
    app
}

/// Replace the text of the field labelled `label` and press Enter.
fn type_into(h: &mut Harness<'_, App>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    settle(h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label(label).type_text(text);
    h.key_press(Key::Enter);
    settle(h);
}

#[test]
fn a_template_from_the_palette_inserts_what_the_preview_counts_in_one_undo_step() {
    let mut h = harness_on(app_on(Project::new("empty")));
    h.get_by_label("Fat tree (k-ary n-tree)").click();
    settle(&mut h);
    assert!(h.state().windows.template.open);
    type_into(&mut h, "Dimensions", "4,2");
    // A 4-ary 2-tree: 2 levels of 4 switches, 16 processors; 16 + 16 links.
    let preview = "8 switches, 16 processors, 32 links (16 between switches, 16 to processors)";
    assert!(h.query_by_label_contains(preview).is_some(), "preview missing");
    h.get_by_label("Insert network").click();
    settle(&mut h);
    let app = h.state();
    assert!(!app.windows.template.open);
    let net = &app.editor.doc.project.network;
    assert_eq!(net.instances.len(), 8 + 16);
    assert_eq!(net.links.len(), 32);
    assert_eq!(
        net.routing,
        Routing::UpDown { arity: 4, levels: 2, up_choice: UpChoice::ByDestination, up_ports: 4 }
    );
    assert_eq!(app.editor.selection.instances.len(), 24, "the new network is selected");
    assert_eq!(app.editor.history.undo_label(), Some("insert 4-ary 2-tree fat tree (16 processors)"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    let net = &h.state().editor.doc.project.network;
    assert!(net.instances.is_empty() && net.links.is_empty());
    assert_eq!(net.routing, Routing::ShortestPath);
}

#[test]
fn a_pgft_with_source_cables_and_ideal_processor_links_from_the_dialog() {
    let mut h = harness_on(app_on(Project::new("empty")));
    h.get_by_label("Fat tree (SimGrid PGFT)").click();
    settle(&mut h);
    // SimGrid's own example is the default: 2;4,4;1,2;1,2.
    let preview = "6 switches, 16 processors, 32 links (16 between switches, 16 to processors)";
    assert!(h.query_by_label_contains(preview).is_some(), "preview missing");
    h.get_by_label("Down cables").click();
    settle(&mut h);
    h.get_by_label("by source (as SimGrid)").click();
    settle(&mut h);
    h.get_by_label("ideal: zero latency, no serialisation").click();
    settle(&mut h);
    type_into(&mut h, "Switch links bandwidth", "10Gbps");
    h.get_by_label("Insert network").click();
    settle(&mut h);
    let net = &h.state().editor.doc.project.network;
    assert!(matches!(
        net.routing,
        Routing::Pgft { down_choice: DownChoice::BySource, up_choice: UpChoice::ByDestination, .. }
    ));
    let (hosts, switches): (Vec<_>, Vec<_>) = net.links.iter().partition(|l| l.a.instance.starts_with('p'));
    assert_eq!((hosts.len(), switches.len()), (16, 16));
    assert!(hosts.iter().all(|l| l.latency == SimTime::ZERO && l.bandwidth_bytes_per_s == 0));
    assert!(switches.iter().all(|l| l.bandwidth_bytes_per_s == 1_250_000_000));
}

#[test]
fn problems_are_explained_in_the_dialog_before_inserting() {
    let mut h = harness_on(app_on(Project::new("empty")));
    h.state_mut().perform(&egui::Context::default(), crate::actions::AppAction::InsertTemplate);
    settle(&mut h);
    type_into(&mut h, "Dimensions", "2x");
    assert!(h.query_by_label_contains("template fat_tree: expected k,n").is_some());
    assert!(h.query_by_label_contains("Fix the fields marked above").is_some());
    type_into(&mut h, "Dimensions", "2100,1");
    let radix = "component Router parameter `radix`: cannot take 4200: 4200 is out of range [1, 4096]";
    assert!(h.query_by_label_contains(radix).is_some());
    type_into(&mut h, "Switch links bandwidth", "fast");
    assert!(h.query_by_label_contains("bandwidth: unknown unit `fast` in `fast`").is_some());
    type_into(&mut h, "Switch links bandwidth", "10 Gbit/s");
    // An omega network needs processors with separate tx and rx ports.
    let dialog = &mut h.state_mut().windows.template;
    dialog.template = "omega";
    dialog.dims = "8".into();
    dialog.endpoint_type = "Processor".into();
    settle(&mut h);
    let port = "component Processor has no port `tx` (out, packet) required by template omega";
    assert!(h.query_by_label_contains(port).is_some());
    h.get_by_label("Insert network").click();
    settle(&mut h);
    assert!(h.state().editor.doc.project.network.instances.is_empty(), "nothing was inserted");
}

#[test]
fn a_flat_network_that_would_change_the_routing_is_offered_as_a_compound() {
    let mut h = harness_on(app_on(hase_editor::fixtures::demo_project()));
    h.get_by_label("Fat tree (k-ary n-tree)").click();
    settle(&mut h);
    // The demo's hand-drawn network is routed by shortest path: the compound form is chosen.
    assert!(h.state().windows.template.compound);
    h.get_by_label("Flat: switches and processors in this network").click();
    settle(&mut h);
    assert!(h.query_by_label_contains("routed by shortest path").is_some());
    h.get_by_label("Insert as a compound network instead").click();
    settle(&mut h);
    // The demo has processors already: they are left out unless asked for.
    assert!(!h.state().windows.template.processors);
    h.get_by_label("Insert the processors (ranks 0–7)").click();
    settle(&mut h);
    assert!(h.query_by_label_contains("Names start with `ft1_`").is_some());
    h.get_by_label("Insert network").click();
    settle(&mut h);
    let app = h.state();
    let net = &app.editor.doc.project.network;
    assert_eq!(net.instances["fabric"].type_name, "FatTree_k2_n3");
    assert_eq!(net.instances["ft1_p7"].params["rank"], ParamValue::Int(7));
    assert_eq!(net.instances.len(), 10 + 1 + 8);
    assert_eq!(net.routing, Routing::ShortestPath);
}

#[test]
fn the_workload_and_run_settings_are_edited_with_reasons_and_undo() {
    let mut h = harness_on(app_on(hase_editor::fixtures::demo_project()));
    assert!(h.query_by_label("Workload").is_some(), "shown when nothing is selected");
    h.get_by_label("Program").click();
    settle(&mut h);
    let workload = |h: &Harness<'_, App>| h.state().editor.doc.project.workload.clone();
    assert!(matches!(workload(&h), Workload::Program { ref name, .. } if name == "collective_loop"));
    type_into(&mut h, "iterations", "-3");
    assert!(h.query_by_label_contains("iterations: ").is_some(), "the refusal is shown");
    let Workload::Program { params, .. } = workload(&h) else { panic!() };
    assert!(params.is_empty(), "a refused value changes nothing");
    type_into(&mut h, "iterations", "5");
    let Workload::Program { params, .. } = workload(&h) else { panic!() };
    assert_eq!(params.get("iterations"), Some(&ParamValue::Int(5)));
    type_into(&mut h, "Seed", "42");
    type_into(&mut h, "Run until", "250us");
    type_into(&mut h, "Run until", "soon");
    assert!(h.query_by_label_contains("unknown unit `soon` in `soon`: use ps, ns, us, ms or s").is_some());
    let settings = h.state().editor.doc.project.settings.clone();
    assert_eq!((settings.seed, settings.until), (42, Some(SimTime::from_us(250))));
    // Undo walks back: run-until, seed, iterations, the program.
    for _ in 0..3 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        settle(&mut h);
    }
    assert_eq!(h.state().editor.doc.project.settings, hase_engine::model::RunSettings::default());
    assert!(matches!(workload(&h), Workload::Program { ref params, .. } if params.is_empty()));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(workload(&h), Workload::Idle);
}

#[test]
fn an_inline_stream_is_checked_before_it_is_applied() {
    let mut h = harness_on(app_on(hase_editor::fixtures::demo_project()));
    h.get_by_label("Streams").click();
    settle(&mut h);
    assert!(h.query_by_label_contains("8 processors (ranks 0–7)").is_some());
    h.get_by_label("Edit the stream of rank 0").click();
    settle(&mut h);
    h.get_by_label("Stream of rank 0").focus();
    h.get_by_label("Stream of rank 0").type_text("COMPUTE 1us\nSEND one 64");
    settle(&mut h);
    h.get_by_label("Apply stream").click();
    settle(&mut h);
    assert!(h.query_by_label_contains("rank 0 stream:2:6: ").is_some(), "line and column of the error");
    assert!(
        matches!(h.state().editor.doc.project.workload, Workload::Streams { ref streams } if streams.is_empty())
    );
    h.get_by_label("Stream of rank 0").focus();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("Stream of rank 0").type_text("COMPUTE 1us\nSEND 1 64");
    settle(&mut h);
    h.get_by_label("Apply stream").click();
    settle(&mut h);
    let Workload::Streams { streams } = &h.state().editor.doc.project.workload else { panic!() };
    assert_eq!(streams.get(&0), Some(&StreamSource::Inline("COMPUTE 1us\nSEND 1 64".into())));
    assert!(h.query_by_label_contains("inline, 2 lines").is_some());
}
