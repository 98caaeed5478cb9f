//! Workflow test of Simulate ▸ Compare ▸ Open recording…: a recording directory's real, predicted
//! and replayed timelines open side by side on one clock, each named by what it is, with the
//! makespans against the real run's in the strip on top.

use egui_kittest::kittest::Queryable;
use hase_engine::time::SimTime;
use hase_library::mpi::predict::{RankPrediction, write_timeline};
use hase_library::mpi::record::TIMELINES;

use super::replay_views::harness_with;
use super::wait_for;
use crate::file_dialog::Backend;

/// Two ranks: rank 0 computes for `compute_us`, sends 64 B to rank 1 that arrive `flight_us`
/// later; rank 1 receives until then. Both end at the arrival.
fn ping(compute_us: u64, flight_us: u64) -> Vec<RankPrediction> {
    let us = SimTime::from_us;
    let arrive = us(compute_us + flight_us);
    let rank = |rank: u32, intervals: Vec<(&str, SimTime, SimTime)>, messages| RankPrediction {
        rank,
        predicted: arrive,
        wall_us: (compute_us + flight_us) as f64,
        cpu_us: compute_us as f64,
        intervals: intervals.into_iter().map(|(s, a, b)| (s.to_string(), a, b)).collect(),
        messages,
        missing: Vec::new(),
        used: Vec::new(),
        calls: None,
    };
    vec![
        rank(0, vec![("COMPUTE", SimTime::ZERO, us(compute_us)), ("SEND", us(compute_us), arrive)], vec![]),
        rank(1, vec![("RECV", SimTime::ZERO, arrive)], vec![(0, us(compute_us), arrive, 64)]),
    ]
}

#[test]
fn a_recordings_three_timelines_open_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    // Real 10 µs, predicted 15 µs, replayed 20 µs.
    for ((_, file), (compute, flight)) in TIMELINES.iter().zip([(6, 4), (9, 6), (12, 8)]) {
        write_timeline(&dir.path().join(file), file, &ping(compute, flight)).unwrap();
    }
    std::fs::write(dir.path().join("index.ti"), "rank0.ti\nrank1.ti\n").unwrap();
    let mut h = harness_with(hase_library::examples::fat_tree_allreduce().unwrap().project);
    h.state_mut().editor.file = Some(dir.path().join("design.ron"));
    h.state_mut().files.backend = Backend::InApp;
    super::choose_compare_item(&mut h, "Open recording…");
    let title = "Open a recording: any file in its directory (real.htb)";
    wait_for(&mut h, title, |app| app.files.is_open());
    h.get_by_label("index.ti").click();
    h.run_steps(2);
    h.get_by_label("Open").click();
    h.run_steps(3);
    wait_for(&mut h, "the three timelines", |app| {
        app.session
            .compare
            .as_ref()
            .is_some_and(|c| c.sides.len() == 3 && c.sides.iter().all(|s| s.run.is_some()))
    });
    let compare = h.state().session.compare.as_ref().unwrap();
    assert_eq!(compare.title, "Compare traces: real vs predicted vs replayed");
    let spans: Vec<u64> = compare.sides.iter().map(|s| s.run.as_ref().unwrap().stats.makespan_ps).collect();
    assert_eq!(spans, [10_000_000, 15_000_000, 20_000_000]);
    // One clock: the comparison ends with its latest run.
    assert_eq!(compare.end(), SimTime::from_us(20));
    h.get_by_label_contains("predicted / real = 1.50×");
    h.get_by_label_contains("replayed / real = 2.00×");
    h.get_by_label_contains("replayed — makespan");
}
