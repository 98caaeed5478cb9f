//! Pointer input on the canvas: zoom (the wheel, Ctrl+wheel, pinch), pan (middle or right drag,
//! Shift+wheel sideways, Alt+wheel up and down),
//! select (click, Shift/Ctrl-click, rubber band), move (drag, one command per drag), link (drag
//! from port to port, refused with a reason when the engine's rules say no), corner points
//! (double-click a link to add one, drag to move), open compounds (double-click), placement from
//! the palette (drag and drop, or click a palette entry then click the canvas), and templates
//! dropped from the palette (they open the template dialog). What the
//! input asks of the editor goes into the frame's [`CanvasEdits`].

use std::collections::BTreeMap;

use egui::{PointerButton, Pos2, Rect, Response, Ui, Vec2};
use hase_engine::SimTime;
use hase_engine::model::{ConcretePort, Instance, Link, PortRef, Pos};
use hase_engine::validate::link_problem;

use super::context::{PalettePayload, TemplatePayload};
use super::drag::Drag;
use super::edits::CanvasEdits;
use super::geometry::{Hit, body, hit_test, segment_distance};
use super::view::snap;
use super::view_state::Canvas;
use hase_editor::command::EditCommand;
use hase_editor::document::name_stem;
use hase_editor::state::{Editor, EditorCommand};

/// Default latency of a link drawn by hand.
const NEW_LINK_LATENCY: SimTime = SimTime::from_ns(100);
/// Default bandwidth of a link drawn by hand (1 GB/s).
const NEW_LINK_BANDWIDTH: u64 = 1_000_000_000;

/// What a wheel turn does on the canvas.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Wheel {
    /// Zoom by this factor about the pointer.
    Zoom(f32),
    /// Pan by this many points.
    Pan(Vec2),
}

/// Points of wheel travel that double (or halve) the zoom.
const WHEEL_POINTS_PER_DOUBLING: f32 = 200.0;

/// The wheel zooms (up: in); with Shift (which egui turns into a sideways scroll) or Alt it pans.
fn wheel_effect(modifiers: egui::Modifiers, scroll: Vec2) -> Wheel {
    if modifiers.shift || modifiers.alt || scroll.y.abs() < f32::EPSILON {
        Wheel::Pan(scroll)
    } else {
        Wheel::Zoom((scroll.y / WHEEL_POINTS_PER_DOUBLING).exp2())
    }
}

/// Handle this frame's pointer input.
pub fn handle(canvas: &mut Canvas, ui: &Ui, response: &Response, editor: &Editor, edits: &mut CanvasEdits) {
    if std::mem::take(&mut canvas.settling) && matches!(canvas.drag, Drag::Move { .. }) {
        canvas.drag = Drag::None;
    }
    let net = editor.current_net();
    let area = canvas.area;
    let mut view = canvas.view(&net);
    let pointer_screen = response.hover_pos().or_else(|| response.interact_pointer_pos());
    canvas.pointer = pointer_screen.map(|p| view.to_canvas(area, p));
    let modifiers = ui.input(|i| i.modifiers);
    let additive = modifiers.shift || modifiers.command || modifiers.ctrl;

    // The wheel zooms about the pointer, as in map and diagram tools (Ctrl+wheel and pinch too);
    // Shift+wheel pans sideways, Alt+wheel up and down.
    if response.contains_pointer()
        && let Some(p) = pointer_screen
    {
        let (zoom, scroll) = (ui.input(egui::InputState::zoom_delta), super::wheel::wheel_points(ui));
        if (zoom - 1.0).abs() > f32::EPSILON {
            view.zoom_about(area, p, zoom);
        } else if scroll != Vec2::ZERO {
            match wheel_effect(modifiers, scroll) {
                Wheel::Zoom(factor) => view.zoom_about(area, p, factor),
                Wheel::Pan(by) => view.pan_by(by),
            }
        }
    }
    let tolerance = 4.0 / view.zoom;
    let selected_link = single_selected_link(canvas, edits);
    let hit_at =
        |c: &Canvas, p: Pos2| hit_test(&c.scene, &c.positions, &c.ports, p, tolerance, selected_link);
    canvas.hover = canvas.pointer.and_then(|p| hit_at(canvas, p));

    // Drops from the palette: a template, or a type (taking a payload of the other kind would
    // drop it).
    if egui::DragAndDrop::has_payload_of_type::<TemplatePayload>(ui.ctx()) {
        if let Some(payload) = response.dnd_release_payload::<TemplatePayload>() {
            canvas.template_dropped = Some(payload.name);
        }
    } else if let Some(payload) = response.dnd_release_payload::<PalettePayload>()
        && let Some(p) = canvas.pointer
    {
        place(editor, edits, &payload.type_name, p);
    }

    // Drag start.
    if response.drag_started_by(PointerButton::Middle) || response.drag_started_by(PointerButton::Secondary) {
        canvas.drag = Drag::Pan;
    } else if response.drag_started_by(PointerButton::Primary) {
        let origin = ui.input(|i| i.pointer.press_origin()).map(|p| view.to_canvas(area, p));
        let hit = origin.and_then(|p| hit_at(canvas, p));
        canvas.drag = match (hit, origin) {
            (Some(Hit::Port(n, p)), Some(at)) => {
                Drag::Link { from: (n, p), to: at, compatible: compatibility(canvas, (n, p)) }
            }
            (Some(Hit::Corner(link, corner)), Some(at)) => Drag::Corner { link, corner, pos: at },
            (Some(Hit::Node(n)), _) => {
                let name = &canvas.scene.nodes[n].name;
                if !edits.selection.instances.contains(name) {
                    if !additive {
                        edits.selection.clear();
                    }
                    edits.selection.instances.insert(name.clone());
                }
                Drag::Move { delta: Vec2::ZERO, anchor: n }
            }
            (Some(Hit::Link(_)) | None, Some(at)) => Drag::Band { start: at, end: at },
            _ => Drag::None,
        };
    }

    // Drag progress.
    let delta_canvas = response.drag_delta() / view.zoom;
    match &mut canvas.drag {
        Drag::Pan => view.pan_by(response.drag_delta()),
        Drag::Move { delta, .. } => *delta += delta_canvas,
        Drag::Link { to, .. } | Drag::Band { end: to, .. } | Drag::Corner { pos: to, .. } => {
            if let Some(p) = canvas.pointer {
                *to = p;
            }
        }
        Drag::None => {}
    }
    canvas.set_view(&net, view);

    if response.drag_stopped() {
        let drag = std::mem::take(&mut canvas.drag);
        // A move is drawn where it ends until the editor has it (the next frame).
        if let Some(settled) = finish_drag(canvas, editor, edits, &drag, additive) {
            canvas.drag = settled;
            canvas.settling = true;
        }
    }

    if response.double_clicked() {
        match canvas.hover {
            Some(Hit::Node(n)) if canvas.scene.nodes[n].compound => {
                let name = canvas.scene.nodes[n].name.clone();
                edits.push(EditorCommand::OpenCompound(name));
            }
            Some(Hit::Link(l)) => {
                if let Some(p) = canvas.pointer {
                    add_corner(canvas, editor, edits, l, p);
                }
            }
            _ => {}
        }
    } else if response.clicked() {
        click(canvas, editor, edits, additive, modifiers.shift);
    }
}

fn single_selected_link(canvas: &Canvas, edits: &CanvasEdits) -> Option<usize> {
    if edits.selection.links.len() != 1 {
        return None;
    }
    let key = edits.selection.links.iter().next()?;
    canvas.scene.links.iter().position(|l| &l.key == key)
}

fn click(canvas: &Canvas, editor: &Editor, edits: &mut CanvasEdits, additive: bool, keep_tool: bool) {
    if let Some(type_name) = edits.placing.clone() {
        if let Some(p) = canvas.pointer {
            place(editor, edits, &type_name, p);
        }
        if !keep_tool {
            edits.placing = None;
        }
        return;
    }
    let selection = &mut edits.selection;
    match canvas.hover {
        Some(Hit::Node(n) | Hit::Port(n, _)) => {
            let name = canvas.scene.nodes[n].name.clone();
            if additive {
                if !selection.instances.remove(&name) {
                    selection.instances.insert(name);
                }
            } else {
                selection.only(&name);
            }
        }
        Some(Hit::Link(l) | Hit::Corner(l, _)) => {
            let key = canvas.scene.links[l].key.clone();
            if !additive {
                selection.clear();
            }
            if !selection.links.remove(&key) || !additive {
                selection.links.insert(key);
            }
        }
        None => {
            if !additive {
                selection.clear();
            }
        }
    }
}

/// Place a new instance of `type_name` at canvas point `p` (snapped if snapping is on).
pub fn place(editor: &Editor, edits: &mut CanvasEdits, type_name: &str, p: Pos2) {
    let net = editor.current_net();
    let Some(ty) = editor.doc.entity_type(type_name) else {
        return;
    };
    let stem = name_stem(ty);
    let Some(network) = editor.doc.network(&net) else {
        return;
    };
    let name = network.fresh_name(&stem);
    let at = if editor.settings.snap { snap(p, editor.settings.grid_step) } else { p };
    edits.edit(EditCommand::AddInstance {
        net,
        name,
        instance: Instance::of(type_name),
        pos: Pos::new(at.x, at.y),
        displayed: BTreeMap::new(),
    });
}

/// For a link dragged from `from`, which ports it may end at (the engine's rules, plus free and
/// not the same port).
fn compatibility(canvas: &Canvas, from: (usize, usize)) -> Vec<bool> {
    let scene = &canvas.scene;
    let concrete = |n: usize, p: usize| {
        let port = &scene.nodes[n].ports[p];
        ConcretePort {
            name: port.name.clone(),
            direction: port.direction,
            link_type: port.link_type.clone(),
            optional: true,
        }
    };
    let start = concrete(from.0, from.1);
    let mut out = vec![false; scene.port_count];
    for (n, node) in scene.nodes.iter().enumerate() {
        for (p, port) in node.ports.iter().enumerate() {
            let free = port.link.is_none() && !port.exported;
            out[node.first_port + p] =
                free && (n, p) != from && link_problem(&start, &concrete(n, p), "").is_none();
        }
    }
    out
}

/// Finish `drag`: the edit or selection it asks for. Returns the drag to draw one more frame, as
/// it ended, while the editor takes the edit in (a move).
fn finish_drag(
    canvas: &Canvas,
    editor: &Editor,
    edits: &mut CanvasEdits,
    drag: &Drag,
    additive: bool,
) -> Option<Drag> {
    let net = editor.current_net();
    match drag {
        Drag::Move { delta, anchor } => {
            let mut delta = *delta;
            if editor.settings.snap {
                let grabbed = canvas.scene.nodes[*anchor].pos;
                delta = snap(grabbed + delta, editor.settings.grid_step) - grabbed;
            }
            if delta.length() < 0.01 {
                return None;
            }
            let moves = canvas
                .scene
                .nodes
                .iter()
                .filter(|n| edits.selection.instances.contains(&n.name))
                .map(|n| (n.name.clone(), Pos::new(n.pos.x + delta.x, n.pos.y + delta.y)))
                .collect();
            edits.edit(EditCommand::MoveInstances { net, moves });
            return Some(Drag::Move { delta, anchor: *anchor });
        }
        Drag::Link { from, to, .. } => {
            let target = hit_test(&canvas.scene, &canvas.positions, &canvas.ports, *to, 4.0, None);
            let Some(Hit::Port(n, p)) = target else {
                return None;
            };
            let end = |(n, p): (usize, usize)| {
                PortRef::new(&canvas.scene.nodes[n].name, &canvas.scene.nodes[n].ports[p].name)
            };
            edits.edit(EditCommand::Link {
                net,
                link: Link::new(end(*from), end((n, p)), NEW_LINK_LATENCY, NEW_LINK_BANDWIDTH),
                index: None,
                corners: Vec::new(),
            });
        }
        Drag::Band { start, end } => {
            let band = Rect::from_two_pos(*start, *end);
            if !additive {
                edits.selection.clear();
            }
            for (i, node) in canvas.scene.nodes.iter().enumerate() {
                if band.contains_rect(body(canvas.positions[i])) {
                    edits.selection.instances.insert(node.name.clone());
                }
            }
        }
        Drag::Corner { link, corner, pos } => {
            let info = &canvas.scene.links[*link];
            let mut corners: Vec<Pos> = info.corners.iter().map(|c| Pos::new(c.x, c.y)).collect();
            let at = if editor.settings.snap { snap(*pos, editor.settings.grid_step / 2.0) } else { *pos };
            corners[*corner] = Pos::new(at.x, at.y);
            edits.edit(EditCommand::SetCorners { net, key: info.key.clone(), corners });
        }
        Drag::Pan | Drag::None => {}
    }
    None
}

/// Insert a corner point into link `l` at `p`, in the segment nearest to it.
fn add_corner(canvas: &Canvas, editor: &Editor, edits: &mut CanvasEdits, l: usize, p: Pos2) {
    let link = &canvas.scene.links[l];
    let mut points = Vec::new();
    canvas.ports.link_points(&canvas.scene, link, &mut points);
    let segment = points
        .windows(2)
        .enumerate()
        .min_by(|a, b| segment_distance(p, a.1[0], a.1[1]).total_cmp(&segment_distance(p, b.1[0], b.1[1])))
        .map_or(0, |(i, _)| i);
    let mut corners: Vec<Pos> = link.corners.iter().map(|c| Pos::new(c.x, c.y)).collect();
    corners.insert(segment.min(corners.len()), Pos::new(p.x, p.y));
    edits.selection.clear();
    edits.selection.links.insert(link.key.clone());
    edits.edit(EditCommand::SetCorners { net: editor.current_net(), key: link.key.clone(), corners });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wheel_zooms_and_shift_or_alt_pans() {
        let none = egui::Modifiers::NONE;
        assert_eq!(wheel_effect(none, Vec2::new(0.0, WHEEL_POINTS_PER_DOUBLING)), Wheel::Zoom(2.0));
        assert_eq!(wheel_effect(none, Vec2::new(0.0, -WHEEL_POINTS_PER_DOUBLING)), Wheel::Zoom(0.5));
        let sideways = Vec2::new(-30.0, 0.0);
        assert_eq!(wheel_effect(egui::Modifiers::SHIFT, sideways), Wheel::Pan(sideways));
        assert_eq!(wheel_effect(none, sideways), Wheel::Pan(sideways), "a sideways scroll pans");
        let down = Vec2::new(0.0, 40.0);
        assert_eq!(wheel_effect(egui::Modifiers::ALT, down), Wheel::Pan(down));
    }
}
