//! Revealing an entity named by an instance path (`fabric/level1/switch3.up0`): open the compounds
//! along the path from the top level, select the entity, and centre the canvas on it unless it is
//! in view already. Used when a problem in the log or a row of the timing diagram is clicked.

use hase_engine::model::Pos;

use crate::ui::canvas::Canvas;
use crate::ui::canvas::view::View;
use hase_editor::state::Editor;

/// Smallest zoom an entity out of view is revealed at.
const REVEAL_ZOOM: f32 = 0.6;
/// An entity whose centre is this far inside the canvas's edge counts as in view (points).
const REVEAL_MARGIN: f32 = 30.0;

/// The instance names along `path`, without any trailing `.port`.
pub fn components(path: &str) -> Vec<&str> {
    let mut parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if let Some(last) = parts.last_mut()
        && let Some((instance, _port)) = last.split_once('.')
    {
        *last = instance;
    }
    parts
}

/// Open the compounds on the way to `path`, select its entity and centre the canvas on it (unless
/// it is in view already). Stops at the deepest instance that exists (a behavioural compound shows
/// itself). Returns false if not even the first component exists.
pub fn reveal(editor: &mut Editor, canvas: &mut Canvas, path: &str) -> bool {
    let parts = components(path);
    if parts.is_empty() {
        return false;
    }
    editor.crumbs.clear();
    editor.selection.clear();
    let mut target = None;
    for (depth, name) in parts.iter().enumerate() {
        let net = editor.current_net();
        let Some(instance) = editor.doc.network(&net).and_then(|n| n.instances.get(*name)) else {
            break;
        };
        target = Some((*name).to_string());
        let is_last = depth + 1 == parts.len();
        let opens = editor.doc.project.types.get(&instance.type_name).is_some_and(|t| t.compound.is_some());
        if is_last || !opens {
            break;
        }
        editor.open_compound(name);
    }
    let Some(name) = target else {
        return false;
    };
    // Opening a compound steps into it; if the path ends inside one that cannot be opened further,
    // the selection is the deepest instance reached in the network now shown.
    let net = editor.current_net();
    if editor.doc.network(&net).is_some_and(|n| !n.instances.contains_key(&name)) {
        editor.go_up_to(editor.crumbs.len().saturating_sub(1));
    } else {
        editor.selection.only(&name);
    }
    editor.fit_requested = false;
    let net = editor.current_net();
    let Pos { x, y } = editor.doc.position(&net, &name);
    // An entity already in view stays where it is: the selection shows it, and the design the
    // user arranged does not move away.
    let shown = canvas.area.shrink(REVEAL_MARGIN);
    if shown.is_positive() && shown.contains(canvas.view(&net).to_screen(canvas.area, egui::pos2(x, y))) {
        return true;
    }
    let zoom = canvas.view(&net).zoom.max(REVEAL_ZOOM);
    canvas.set_view(&net, View { pan: -egui::vec2(x, y) * zoom, zoom });
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use hase_editor::document::NetworkId;
    use hase_editor::fixtures::{STAR_TYPE, demo_project, star_instance};

    #[test]
    fn components_drop_the_port() {
        assert_eq!(components("fabric/level1/switch3.up0"), vec!["fabric", "level1", "switch3"]);
        assert_eq!(components("p3"), vec!["p3"]);
        assert!(components("").is_empty());
    }

    #[test]
    fn reveals_an_entity_inside_a_compound() {
        let mut editor = Editor::new(demo_project());
        let mut canvas = Canvas::default();
        let compound = star_instance(&editor.doc.project).unwrap();
        // The compound's drawing last seen far off to one side: sw1 is out of view.
        let inside = NetworkId::Type(STAR_TYPE.into());
        canvas.set_view(&inside, View { pan: egui::vec2(10_000.0, 0.0), zoom: 1.0 });
        assert!(reveal(&mut editor, &mut canvas, &format!("{compound}/sw1.p3")));
        assert_eq!(editor.crumbs.len(), 1);
        assert_eq!(editor.current_net(), NetworkId::Type(STAR_TYPE.into()));
        assert!(editor.selection.instances.contains("sw1"));
        // Centred: the entity's position maps to the canvas centre.
        let net = editor.current_net();
        let at = editor.doc.position(&net, "sw1");
        let view = canvas.view(&net);
        let centre = view.to_screen(canvas.area, egui::pos2(at.x, at.y));
        assert!((centre - canvas.area.center()).length() < 1e-3);
        // Back at the top level for a top-level path; an unknown path changes nothing useful.
        assert!(reveal(&mut editor, &mut canvas, "p0"));
        assert!(editor.crumbs.is_empty());
        assert!(editor.selection.instances.contains("p0"));
        assert!(!reveal(&mut editor, &mut canvas, "nowhere/p9"));
    }

    #[test]
    fn an_entity_in_view_is_selected_without_moving_the_view() {
        let mut editor = Editor::new(demo_project());
        let mut canvas = Canvas::default();
        canvas.area = egui::Rect::from_min_size(egui::pos2(0.0, 0.0), egui::vec2(800.0, 600.0));
        let net = editor.current_net();
        let at = editor.doc.position(&net, "p0");
        // p0 a little left of the centre, at a zoom below the one an entity out of view gets.
        let before = View { pan: -egui::vec2(at.x, at.y) * 0.4 + egui::vec2(-100.0, 0.0), zoom: 0.4 };
        canvas.set_view(&net, before);
        assert!(reveal(&mut editor, &mut canvas, "p0"));
        assert!(editor.selection.instances.contains("p0"));
        assert_eq!(canvas.view(&net), before, "in view: the view stays");
        // Far off to the right, it is brought to the centre.
        canvas
            .set_view(&net, View { pan: -egui::vec2(at.x, at.y) * 0.4 + egui::vec2(2000.0, 0.0), zoom: 0.4 });
        assert!(reveal(&mut editor, &mut canvas, "p0"));
        let centre = canvas.view(&net).to_screen(canvas.area, egui::pos2(at.x, at.y));
        assert!((centre - canvas.area.center()).length() < 1e-3);
    }
}
