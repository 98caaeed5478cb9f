//! Workflow tests that drive the real widgets with egui_kittest (no GPU, no display), and the
//! per-panel harnesses compared with snapshot images ([`panels`]). The helpers here are shared by
//! every file: a harness driving the whole app as the window would, and [`wait_for`], which steps
//! frames until background work (runs, sweeps, store calls) has reported.

use std::time::{Duration, Instant};

use egui::Vec2;
use egui_kittest::Harness;

use crate::app::App;

mod analysis;
mod big_run;
mod design;
mod editing;
mod expected;
mod experiments;
mod files;
mod library;
mod newcomer;
mod panel_sizes;
mod panels;
mod recording;
mod replay_views;
mod replay_views_linked;
mod sheet;
mod slurm;
mod snags;
mod what_if;

/// A harness driving `app` as the window would: logic, then the UI, each frame.
pub(crate) fn harness_on(app: App) -> Harness<'static, App> {
    harness_sized(app, Vec2::new(1400.0, 1000.0))
}

/// A harness on `app` in a window of `size` points, settled after its first frames.
pub(crate) fn harness_sized(app: App, size: Vec2) -> Harness<'static, App> {
    let mut h =
        Harness::builder().with_size(size).with_max_steps(16).with_step_dt(1.0 / 60.0).build_ui_state(
            |ui, app: &mut App| {
                app.logic_step(ui.ctx());
                app.ui_root(ui);
            },
            app,
        );
    settle(&mut h);
    h
}

/// Click Simulate ▸ Compare ▸ `item`.
pub(crate) fn choose_compare_item(h: &mut Harness<'_, App>, item: &str) {
    use egui_kittest::kittest::Queryable;
    h.get_by_label("Simulate").click();
    h.run_steps(2);
    h.get_by_label("Compare").hover();
    h.run_steps(2);
    h.get_by_label(item).click();
}

/// A few frames, for what a click or a key starts to show.
pub(crate) fn settle(h: &mut Harness<'_, App>) {
    h.run_steps(3);
}

/// Step frames until `done` holds (runs, sweeps and store calls finish on their own threads),
/// then settle; fails naming `what` and the editor's log after a minute.
pub(crate) fn wait_for(h: &mut Harness<'_, App>, what: &str, done: impl Fn(&App) -> bool) {
    let start = Instant::now();
    while !done(h.state()) {
        let log = || h.state().editor.log.iter().map(|l| l.text.clone()).collect::<Vec<_>>();
        assert!(start.elapsed() < Duration::from_mins(1), "timed out waiting for {what}; log: {:?}", log());
        std::thread::sleep(Duration::from_millis(5));
        h.step();
    }
    settle(h);
}
