//! Workflow tests that drive the real widgets with egui_kittest (no GPU, no display): place from
//! the palette, link ports by dragging, a refused link, undo/redo by keyboard, open a compound and
//! come back, toggle abstraction, edit a parameter, and the unsaved-changes question on close.

use egui::{Event, Key, Modifiers, PointerButton, Pos2, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use hase_engine::SimTime;
use hase_engine::model::{AbstractionLevel, Instance, ParamValue, PortRef, Pos};

use super::{harness_on, settle};
use crate::app::{App, StartOptions};
use hase_editor::command::EditCommand;
use hase_editor::document::NetworkId;

/// The app on the small demo fixture, without a project library.
fn demo_app() -> App {
    let mut app = App::new(StartOptions::default());
    app.editor.replace_project(hase_editor::fixtures::demo_project(), None);
    app
}

fn harness() -> Harness<'static, App> {
    harness_on(demo_app())
}

fn has_link(app: &App, a: (&str, &str), b: (&str, &str)) -> bool {
    let (a, b) = (PortRef::new(a.0, a.1), PortRef::new(b.0, b.1));
    app.editor.doc.project.network.links.iter().any(|l| l.touches(&a) && l.touches(&b))
}

/// Press at `from`, move in steps to `to`, release: a real pointer drag.
pub(crate) fn drag(h: &mut Harness<'_, App>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.step();
    h.drag_at(from);
    h.step();
    for k in 1..=6 {
        h.hover_at(from + (to - from) * (k as f32 / 6.0));
        h.step();
    }
    h.drop_at(to);
    settle(h);
}

fn click_at(h: &mut Harness<'_, App>, at: Pos2, modifiers: Modifiers) {
    h.hover_at(at);
    h.step();
    // As a windowing backend does: the held modifiers are part of the frame's input.
    h.event(Event::ModifiersChanged(modifiers));
    for pressed in [true, false] {
        h.event(Event::PointerButton { pos: at, button: PointerButton::Primary, pressed, modifiers });
    }
    h.step();
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    settle(h);
}

/// Place an instance through the command layer (setup for link tests), then lay out a frame.
fn add(h: &mut Harness<'_, App>, name: &str, ty: &str, x: f32, y: f32) {
    let app = h.state_mut();
    assert!(app.editor.run(EditCommand::AddInstance {
        net: NetworkId::Top,
        name: name.into(),
        instance: Instance::of(ty),
        pos: Pos::new(x, y),
        displayed: std::collections::BTreeMap::new(),
    }));
    settle(h);
}

fn port(h: &Harness<'_, App>, name: &str, port: &str) -> Pos2 {
    let app = h.state();
    app.canvas.screen_pos_of_port(&app.editor, name, port).unwrap()
}

/// A canvas point with nothing on it (below the demo's entities).
fn empty_spot(h: &Harness<'_, App>) -> Pos2 {
    let app = h.state();
    let view = app.canvas.view(&NetworkId::Top);
    view.to_screen(app.canvas.area, Pos2::new(0.0, 300.0))
}

#[test]
fn place_by_dragging_from_the_palette() {
    let mut h = harness();
    let from = h.get_by_label("Router").rect().center();
    let to = empty_spot(&h);
    drag(&mut h, from, to);
    let app = h.state();
    let net = &app.editor.doc.project.network;
    assert_eq!(net.instances["r1"].type_name, "Router");
    // Dropped where the pointer was, snapped to the 20-unit grid.
    let at = app.editor.doc.position(&NetworkId::Top, "r1");
    assert_eq!((at.x, at.y), (0.0, 300.0));
    assert!(app.editor.selection.instances.contains("r1"));
}

#[test]
fn place_by_clicking_palette_then_canvas() {
    let mut h = harness();
    h.get_by_label("Processor").click();
    settle(&mut h);
    assert_eq!(h.state().editor.placing.as_deref(), Some("Processor"));
    let to = empty_spot(&h);
    click_at(&mut h, to, Modifiers::NONE);
    let app = h.state();
    assert_eq!(app.editor.doc.project.network.instances["p8"].type_name, "Processor");
    assert!(app.editor.placing.is_none());
}

#[test]
fn link_by_dragging_then_undo_and_redo_by_keyboard() {
    let mut h = harness();
    add(&mut h, "p8", "Processor", -100.0, 300.0);
    add(&mut h, "r1", "Router", 100.0, 300.0);
    let (a, b) = (port(&h, "p8", "net"), port(&h, "r1", "p0"));
    drag(&mut h, a, b);
    let log: Vec<&str> = h.state().editor.log.iter().map(|l| l.text.as_str()).collect();
    assert!(
        has_link(h.state(), ("p8", "net"), ("r1", "p0")),
        "{a:?} {b:?} {:?} {log:?}",
        h.state().canvas.drag
    );
    let link = h.state().editor.doc.project.network.links.last().unwrap().clone();
    assert_eq!(link.latency, SimTime::from_ns(100));

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert!(!has_link(h.state(), ("p8", "net"), ("r1", "p0")));
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    settle(&mut h);
    assert!(has_link(h.state(), ("p8", "net"), ("r1", "p0")));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    settle(&mut h);
    assert!(has_link(h.state(), ("p8", "net"), ("r1", "p0")));
}

#[test]
fn incompatible_link_is_refused_with_a_reason() {
    let mut h = harness();
    add(&mut h, "t0", "ProcessorTxRx", -100.0, 300.0);
    add(&mut h, "s0", "Switch2x2", 100.0, 300.0);
    let links_before = h.state().editor.doc.project.network.links.len();
    let (a, b) = (port(&h, "t0", "tx"), port(&h, "s0", "out0"));
    drag(&mut h, a, b);
    let app = h.state();
    assert_eq!(app.editor.doc.project.network.links.len(), links_before);
    let last = &app.editor.log.last().unwrap().text;
    assert!(last.contains("t0.tx: direction mismatch"), "{last}");
    assert!(app.editor.toasts.iter().any(|t| t.text.contains("direction mismatch")));
    // An already connected port is refused too.
    let (a, b) = (port(&h, "t0", "rx"), port(&h, "r0", "p0"));
    drag(&mut h, a, b);
    let last = &h.state().editor.log.last().unwrap().text;
    assert!(last.contains("r0.p0: port already connected (to p0.net)"), "{last}");
}

#[test]
fn open_compound_by_double_click_and_return_by_breadcrumb() {
    let mut h = harness();
    let at = {
        let app = h.state();
        app.canvas.screen_pos_of(&app.editor, "net0").unwrap()
    };
    h.hover_at(at);
    h.step();
    for _ in 0..2 {
        for pressed in [true, false] {
            h.event(Event::PointerButton {
                pos: at,
                button: PointerButton::Primary,
                pressed,
                modifiers: Modifiers::NONE,
            });
        }
        h.step();
    }
    settle(&mut h);
    let app = h.state();
    assert_eq!(app.editor.current_net(), NetworkId::Type("StarNet5".into()));
    assert!(app.canvas.scene().by_name.contains_key("sw0"));
    h.get_by_role_and_label(egui::accesskit::Role::Link, "demo").click();
    settle(&mut h);
    let app = h.state();
    assert_eq!(app.editor.current_net(), NetworkId::Top);
    assert!(app.editor.selection.instances.contains("net0"));
}

#[test]
fn toggle_abstraction_in_the_inspector() {
    let mut h = harness();
    let at = {
        let app = h.state();
        app.canvas.screen_pos_of(&app.editor, "net0").unwrap()
    };
    click_at(&mut h, at, Modifiers::NONE);
    h.get_by_label("behavioural").click();
    settle(&mut h);
    let level = |h: &Harness<'_, App>| h.state().editor.doc.project.network.instances["net0"].level;
    assert_eq!(level(&h), AbstractionLevel::Behavioural);
    h.get_by_label("detailed").click();
    settle(&mut h);
    assert_eq!(level(&h), AbstractionLevel::Detailed);

    // A grouped compound has no behavioural model: the button is disabled.
    let app = h.state_mut();
    app.editor.selection.only("p0");
    app.perform(&egui::Context::default(), crate::actions::AppAction::Group);
    settle(&mut h);
    assert!(h.state().editor.selection.instances.contains("c0"));
    h.get_by_label("behavioural").click();
    settle(&mut h);
    assert_eq!(h.state().editor.doc.project.network.instances["c0"].level, AbstractionLevel::Detailed);
}

#[test]
fn edit_a_parameter_in_the_inspector() {
    let mut h = harness();
    let at = {
        let app = h.state();
        app.canvas.screen_pos_of(&app.editor, "p0").unwrap()
    };
    click_at(&mut h, at, Modifiers::NONE);
    assert!(h.state().editor.selection.instances.contains("p0"));
    let set_field = |h: &mut Harness<'_, App>, text: &str| {
        h.get_by_label("time_step").focus();
        settle(h);
        h.key_press_modifiers(Modifiers::COMMAND, Key::A);
        h.get_by_label("time_step").type_text(text);
        h.key_press(Key::Enter);
        settle(h);
    };
    let value = |h: &Harness<'_, App>| {
        h.state().editor.doc.project.network.instances["p0"].params.get("time_step").cloned()
    };
    set_field(&mut h, "10us");
    assert_eq!(value(&h), Some(ParamValue::Time(SimTime::from_us(10))));
    set_field(&mut h, "ten");
    assert_eq!(value(&h), Some(ParamValue::Time(SimTime::from_us(10))));
    assert!(h.query_by_label_contains("cannot read `ten`").is_some());
}

#[test]
fn closing_with_unsaved_changes_asks_first() {
    let mut h = harness();
    add(&mut h, "p8", "Processor", 0.0, 300.0);
    assert!(h.state().editor.is_dirty());
    assert_eq!(h.state().title(), "demo * — hase");
    h.input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    settle(&mut h);
    assert_eq!(h.state().pending, Some(crate::ui::dialogs::UnsavedQuestion::Quit));
    assert!(h.query_by_label("Unsaved changes").is_some());
    h.get_by_label("Cancel").click();
    settle(&mut h);
    assert_eq!(h.state().pending, None);
}

#[test]
fn glyphs_used_in_the_ui_exist_in_the_default_fonts() {
    let ctx = egui::Context::default();
    let mut out = ctx.run_ui(egui::RawInput::default(), |_| {});
    out.textures_delta.clear();
    let font = egui::FontId::proportional(14.0);
    let missing: String =
        "…›“”−–—·×≥µ".chars().filter(|c| !ctx.fonts_mut(|f| f.has_glyph(&font, *c))).collect();
    assert_eq!(missing, "", "glyphs missing from the default fonts");
}

#[test]
fn rubber_band_then_duplicate_delete_and_undo() {
    let mut h = harness();
    let (p0, p3) = {
        let app = h.state();
        (
            app.canvas.screen_pos_of(&app.editor, "p0").unwrap(),
            app.canvas.screen_pos_of(&app.editor, "p3").unwrap(),
        )
    };
    // A band from above-left of p0 to below-right of p3 (bodies are 64 units, zoom below 1).
    drag(&mut h, p0 - Vec2::new(45.0, 45.0), p3 + Vec2::new(45.0, 45.0));
    let selected = |h: &Harness<'_, App>| h.state().editor.selected_instances();
    assert_eq!(selected(&h), ["p0", "p1", "p2", "p3"]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::D);
    settle(&mut h);
    assert_eq!(selected(&h), ["p10", "p11", "p8", "p9"]);
    let count = |h: &Harness<'_, App>| h.state().editor.doc.project.network.instances.len();
    assert_eq!(count(&h), 14);
    h.key_press(Key::Delete);
    settle(&mut h);
    assert_eq!(count(&h), 10);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(count(&h), 14);
}

#[test]
fn shift_click_selects_several_and_edits_their_shared_parameter() {
    let mut h = harness();
    let at = |h: &Harness<'_, App>, name: &str| {
        let app = h.state();
        app.canvas.screen_pos_of(&app.editor, name).unwrap()
    };
    let p0 = at(&h, "p0");
    click_at(&mut h, p0, Modifiers::NONE);
    // The inspector's parameter grid (the processor's longest name, `reduce_scatter_algorithm`)
    // may widen the side panel when p0 is selected; find p1 where it is drawn now.
    let p1 = at(&h, "p1");
    click_at(&mut h, p1, Modifiers::SHIFT);
    assert_eq!(h.state().editor.selected_instances(), ["p0", "p1"]);
    assert!(h.query_by_label("2 entities").is_some());
    h.get_by_label("send_overhead").focus();
    settle(&mut h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("send_overhead").type_text("2us");
    h.key_press(Key::Enter);
    settle(&mut h);
    let app = h.state();
    for name in ["p0", "p1"] {
        let value = app.editor.doc.project.network.instances[name].params.get("send_overhead");
        assert_eq!(value, Some(&ParamValue::Time(SimTime::from_us(2))), "{name}");
    }
    assert!(!app.editor.doc.project.network.instances["p2"].params.contains_key("send_overhead"));
    // One undo step for the whole multi-selection edit.
    assert_eq!(app.editor.history.undo_label(), Some("set send_overhead on 2 entities"));
}

#[test]
fn an_unreadable_project_file_is_reported_and_the_default_example_opens() {
    let app =
        App::new(StartOptions { project: Some("/nonexistent/p.ron".into()), ..StartOptions::default() });
    assert_eq!(app.editor.doc.project.name, "Allreduce on a fat tree");
    let last = &app.editor.log.last().unwrap().text;
    assert!(last.starts_with("cannot open project: /nonexistent/p.ron:"), "{last}");
    assert!(app.editor.file.is_none());
}

#[test]
fn select_a_link_add_and_move_a_corner_then_delete_it() {
    let mut h = harness();
    let key = "net0.p4--r0.p4".to_string();
    let (a, b) = (port(&h, "r0", "p4"), port(&h, "net0", "p4"));
    let mid = a + (b - a) * 0.5;
    click_at(&mut h, mid, Modifiers::NONE);
    assert!(h.state().editor.selection.links.contains(&key));
    assert!(h.query_by_label("Link").is_some());
    // Double-click adds a corner where the pointer is.
    h.hover_at(mid);
    h.step();
    for _ in 0..2 {
        for pressed in [true, false] {
            h.event(Event::PointerButton {
                pos: mid,
                button: PointerButton::Primary,
                pressed,
                modifiers: Modifiers::NONE,
            });
        }
        h.step();
    }
    settle(&mut h);
    let corners = |h: &Harness<'_, App>| {
        h.state().editor.doc.project.layout.top.corners.get(&key).cloned().unwrap_or_default()
    };
    assert_eq!(corners(&h).len(), 1);
    let before = corners(&h)[0];
    // Drag the corner 100 points down; it snaps to half the grid.
    drag(&mut h, mid, mid + Vec2::new(0.0, 100.0));
    let after = corners(&h)[0];
    assert!(after.y > before.y + 50.0, "{before:?} -> {after:?}");
    assert!((after.y / 10.0).fract().abs() < 1e-4, "{after:?} is not on the 10-unit half grid");
    // The link is still selected: Delete removes it, undo brings it back with its corner.
    h.key_press(Key::Delete);
    settle(&mut h);
    assert!(!has_link(h.state(), ("r0", "p4"), ("net0", "p4")));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert!(has_link(h.state(), ("r0", "p4"), ("net0", "p4")));
    assert_eq!(corners(&h), vec![after]);
}

#[test]
fn edit_a_links_latency_and_bandwidth_in_the_inspector_in_the_units_typed() {
    let mut h = harness();
    let key = "net0.p4--r0.p4".to_string();
    let (a, b) = (port(&h, "r0", "p4"), port(&h, "net0", "p4"));
    click_at(&mut h, a + (b - a) * 0.5, Modifiers::NONE);
    assert!(h.state().editor.selection.links.contains(&key));
    let set_field = |h: &mut Harness<'_, App>, label: &str, text: &str| {
        h.get_by_label(label).focus();
        settle(h);
        h.key_press_modifiers(Modifiers::COMMAND, Key::A);
        h.get_by_label(label).type_text(text);
        h.key_press(Key::Enter);
        settle(h);
    };
    let link = |h: &Harness<'_, App>| {
        let links = &h.state().editor.doc.project.network.links;
        let l = links.iter().find(|l| l.key() == key).unwrap();
        (l.latency, l.bandwidth_bytes_per_s)
    };
    let shown = |h: &Harness<'_, App>, label: &str| h.get_by_label(label).value().unwrap_or_default();
    set_field(&mut h, "latency", "1500ns");
    set_field(&mut h, "bandwidth", "10Gbps");
    // Decimal rates: 10 Gbit/s is 1.25e9 bytes per second; the fields keep the units typed.
    assert_eq!(link(&h), (SimTime::from_ns(1500), 1_250_000_000));
    assert_eq!(shown(&h, "latency"), "1500 ns");
    assert_eq!(shown(&h, "bandwidth"), "10 Gbps");
    // `1G` is 10^9 B/s here as on the command line (it was 2^30 as an integer field before).
    set_field(&mut h, "bandwidth", "1G");
    assert_eq!(link(&h).1, 1_000_000_000);
    assert_eq!(shown(&h, "bandwidth"), "1 G");
    // Reselecting the link keeps showing the units last typed.
    let away = empty_spot(&h);
    click_at(&mut h, away, Modifiers::NONE);
    assert!(h.state().editor.selection.links.is_empty());
    click_at(&mut h, a + (b - a) * 0.5, Modifiers::NONE);
    assert_eq!(shown(&h, "latency"), "1500 ns");
    // A refused value says why and changes nothing.
    set_field(&mut h, "bandwidth", "fast");
    assert_eq!(link(&h).1, 1_000_000_000);
    assert!(h.query_by_label_contains("bandwidth: unknown unit `fast`").is_some());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(link(&h), (SimTime::from_ns(1500), 1_250_000_000));
}

#[test]
fn one_wheel_notch_is_one_whole_zoom_step_about_the_pointer() {
    let mut h = harness();
    let over = empty_spot(&h);
    h.event(Event::PointerMoved(over));
    settle(&mut h);
    let view = |h: &Harness<'_, App>| h.state().canvas.view(&NetworkId::Top);
    let before = view(&h);
    let area = h.state().canvas.area;
    let under = before.to_canvas(area, over);
    // One notch back (content moves up: zoom out).
    h.event(Event::MouseWheel {
        unit: egui::MouseWheelUnit::Line,
        delta: Vec2::new(0.0, -1.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
        modifiers: Modifiers::NONE,
    });
    h.step();
    // The whole step lands in the frame the notch came in (egui's smoothed delta would spread it
    // over the next frames, each redrawing the view).
    let line = h.ctx.options(|o| o.input_options.line_scroll_speed);
    let expected = before.zoom * (-line / 200.0).exp2();
    let after = view(&h);
    assert!(
        (after.zoom - expected).abs() < 1e-4 * expected,
        "{} → {}, expected {expected}",
        before.zoom,
        after.zoom
    );
    // About the pointer: the canvas point under it stays under it.
    assert!((after.to_screen(area, under) - over).length() < 0.5);
    settle(&mut h);
    assert_eq!(view(&h).zoom.to_bits(), after.zoom.to_bits(), "nothing more follows the notch");
}
