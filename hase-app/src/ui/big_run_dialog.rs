//! The question before a big run of the design (F5 when the estimate says more than ten seconds,
//! more than a GiB, or more memory than is free): the estimate and why it is big, then Run anyway,
//! First iteration only (the document keeps its iteration count), Trace level 4 (states only) or
//! Cancel (also Escape).

use egui::RichText;
use hase_editor::run::size_check::{BigRunAnswer, BigRunQuestion, STATES_ONLY_LEVEL};

/// Show the question; the answer when one is given.
pub fn show(ctx: &egui::Context, question: &BigRunQuestion) -> Option<BigRunAnswer> {
    let mut answer = None;
    egui::Window::new("Big run")
        .pivot(egui::Align2::CENTER_CENTER)
        .default_pos(ctx.content_rect().center())
        .collapsible(false)
        .resizable(false)
        .default_width(460.0)
        .show(ctx, |ui| {
            let work = &question.estimate.work;
            ui.label(RichText::new(format!("{} is a big run:", question.request.project.name)).strong());
            ui.label(question.big.reasons.join(", "));
            ui.add_space(4.0);
            ui.label(question.estimate.summary());
            ui.weak(format!(
                "{} entities, {} links, {} ranks; {} messages in {} packets{}",
                work.entities,
                work.links,
                work.ranks,
                work.messages,
                work.packets,
                question.iterations().map(|n| format!(" over {n} iterations")).unwrap_or_default()
            ));
            ui.add_space(8.0);
            ui.horizontal_wrapped(|ui| {
                if ui.button("Run anyway").clicked() {
                    answer = Some(BigRunAnswer::RunAnyway);
                }
                if let Some(once) = &question.first_iteration
                    && ui
                        .button("First iteration only")
                        .on_hover_text(format!(
                            "Run one iteration of the workload ({}); the design keeps its iteration count",
                            once.summary()
                        ))
                        .clicked()
                {
                    answer = Some(BigRunAnswer::FirstIterationOnly);
                }
                if question.request.settings.level < STATES_ONLY_LEVEL
                    && ui
                        .button(format!("Trace level {STATES_ONLY_LEVEL}"))
                        .on_hover_text("Keep state intervals only (no messages in the replay): less memory")
                        .clicked()
                {
                    answer = Some(BigRunAnswer::StatesOnly);
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(BigRunAnswer::Cancel);
                }
            });
        });
    if ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        answer = answer.or(Some(BigRunAnswer::Cancel));
    }
    answer
}
