//! One frame of the canvas: lay the scene out, fit it when asked, take the pointer's input and the
//! right-click menu (what they ask of the editor comes back as commands), lay out again for the
//! drag, then draw the network with the run shown over it.

use egui::{Sense, Ui};

use super::context::{CanvasContext, CanvasOutput, ReplayLayer, STALE_NOTICE};
use super::edits::CanvasEdits;
use super::view_state::Canvas;
use super::{context_menu, draw, frame, interact};
use crate::ui::animator::replay_frame::ReplayFrame;
use hase_editor::state::{Editor, EditorCommand};

/// What an empty canvas says.
pub const EMPTY_HINT: &str = "Drag an entity type or a template from the palette onto the canvas, or open an example (File › Open example).";

/// Height the replay's legend takes at the bottom of the canvas (points).
const LEGEND_ROOM: f32 = 64.0;

impl Canvas {
    /// Show the canvas of `editor` in the remaining space of `ui`; returns the actions chosen in its
    /// right-click menu and the editor commands its input asks for.
    pub fn show(&mut self, ui: &mut Ui, editor: &Editor, cx: CanvasContext<'_>) -> CanvasOutput {
        let CanvasContext { icons, palette, replay, fit } = cx;
        let area = ui.available_rect_before_wrap();
        let response = ui.allocate_rect(area, Sense::click_and_drag());
        self.area = area;
        let net = editor.current_net();
        let mut edits = CanvasEdits::new(editor);
        self.refresh(editor, &edits.selection);
        // The replay's legend (clock, load scale) takes the lower left corner: a fit keeps clear.
        self.reserved_bottom = if replay.is_some() { LEGEND_ROOM } else { 0.0 };
        if (editor.fit_requested || fit) && area.width() > 1.0 {
            if editor.fit_requested {
                edits.push(EditorCommand::FitDone);
            }
            self.fit(&net);
        }
        interact::handle(self, ui, &response, editor, &mut edits);
        let actions = context_menu::context_menu(self, &response, editor, &mut edits);
        context_menu::hover_tooltip(self, &response, editor);
        // Input may have changed the selection or the drag: lay out again before drawing.
        self.refresh(editor, &edits.selection);
        let painter = ui.painter_at(area);
        let view = self.view(&net);
        let ctx = ui.ctx().clone();
        let mut notice = None;
        let (replay_frame, mut images) = match replay {
            Some(layer) if layer.stale => {
                notice = Some(STALE_NOTICE);
                (None, None)
            }
            Some(ReplayLayer { run, snap, player, clock_end, map, images, colours, critical, .. }) => {
                let map = map.get(self.scene(), editor, run);
                let frame = ReplayFrame {
                    replay: &run.replay,
                    snap,
                    map,
                    time: player.time,
                    resolution_ps: player.resolution_ps(clock_end),
                    window: player.load_window(run.replay.end),
                    min_level: player.min_level,
                    displayed: &editor.doc.layout(&net).displayed,
                    colours,
                    critical,
                };
                (Some(frame), Some(images))
            }
            None => (None, None),
        };
        let mut image = |icon: &str, state: &str| {
            images.as_mut().and_then(|i| i.get(&ctx, icon, state)).map(egui::TextureHandle::id)
        };
        let drawn = draw::draw(
            &painter,
            &frame::CanvasFrame {
                area,
                view,
                scene: &self.scene,
                positions: &self.positions,
                ports: &self.ports,
                editor,
                selection: &edits.selection,
                placing: edits.placing.as_deref(),
                icons,
                palette,
                drag: &self.drag,
                hover: self.hover,
                pointer: self.pointer,
                replay: replay_frame,
                notice,
            },
            &mut self.scratch,
            &mut image,
        );
        if self.scene.nodes.is_empty() {
            // An empty design says how to start one, in lines as wide as the canvas allows.
            let mut job = egui::text::LayoutJob::simple(
                EMPTY_HINT.into(),
                egui::FontId::proportional(15.0),
                palette.text_dim,
                (area.width() - 48.0).max(120.0),
            );
            job.halign = egui::Align::Center;
            let galley = painter.layout_job(job);
            let top = area.center().y - galley.size().y / 2.0;
            painter.galley(egui::pos2(area.center().x, top), galley, palette.text_dim);
        }
        self.drawn_nodes = drawn.nodes;
        self.drawn_far = drawn.far;
        self.far_images_drawn += u64::from(drawn.far_image_drawn);
        self.drawn_replay = drawn.replay;
        CanvasOutput { actions, commands: edits.finish() }
    }
}
