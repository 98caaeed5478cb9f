//! The error budget of a prediction: where the difference between the predicted and the measured
//! time of a program comes from, each part measured, in µs of "predicted − measured":
//!
//! - **launch** — the launcher's own start and teardown (its wall time outside the slowest
//!   rank's MPI_Init … MPI_Finalize), which a prediction of the program does not contain: −launch;
//! - **recorder overhead** — the shim's per-call cost (the thread-CPU clock reading around every
//!   call, calibrated at MPI_Init) that the computation bursts absorbed; it is taken out of the
//!   bursts, so the prediction is shorter than the measured run by it: −calls × cost;
//! - **shim work in calls** — the rest of the shim's own work inside the calls' wall windows (log
//!   lines, the predictor's clock stamps and bookkeeping), measured by the shim as the windows'
//!   wall time less that of the MPI library's functions, less the clock reading counted above:
//!   −calls × measured in-call cost;
//! - **foreign load** — the bursts' CPU time (less the calibrated cost) against their wall time:
//!   other processes (or sleeping, or I/O) stretch the wall time, and the prediction counts CPU
//!   time;
//! - **data-sheet misfit** — the predicted time of the MPI calls (the sheet) against the wall time
//!   the run spent inside them less the shim's work there (the two parts above): the sheet against
//!   the MPI library's own time;
//! - **remainder** — what the parts leave of the difference (the slowest predicted rank is not
//!   the slowest measured one, a CPU scale other than 1, rounding).
//!
//! The parts are taken on the rank whose measured span is longest and sum to the difference by
//! construction; the remainder says how well the others explain it.

use serde::Serialize;

/// A rank's measured split between computation and MPI calls, and the shim's own cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct CallCosts {
    /// MPI calls made.
    pub calls: u64,
    /// Wall time inside MPI calls, µs.
    pub mpi_wall_us: f64,
    /// Thread CPU time of the computation between calls, as measured, µs.
    pub burst_cpu_us: f64,
    /// Wall time of the computation between calls, µs.
    pub burst_wall_us: f64,
    /// The shim's per-call cost calibrated at MPI_Init (`hase_cpu_gap_ns`), µs.
    pub per_call_us: f64,
    /// How much of that cost was taken out of the bursts (at most `calls × per_call_us`), µs.
    pub subtracted_us: f64,
    /// The shim's own work inside the calls' wall windows: their wall time less that of the MPI
    /// library's functions, measured by the shim, µs (0 where a record lacks the field).
    pub in_call_us: f64,
}

impl CallCosts {
    /// The shim's in-call work that the recorder overhead does not already count (the calibrated
    /// clock reading, which happens inside the calls' windows), never below 0, µs.
    pub fn shim_work_us(&self) -> f64 {
        (self.in_call_us - self.subtracted_us).max(0.0)
    }
}

/// One part of the budget.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BudgetPart {
    /// Short name (`launch`, `recorder overhead`, …).
    pub name: &'static str,
    /// Its share of predicted − measured, µs.
    pub us: f64,
    /// How it was measured.
    pub how: String,
}

/// The error budget of one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ErrorBudget {
    /// The predicted program time, µs (none for a recording alone).
    pub predicted_us: Option<f64>,
    /// The launcher's wall time, µs.
    pub measured_us: f64,
    /// Predicted − measured, µs (none for a recording alone).
    pub difference_us: Option<f64>,
    /// The rank the parts were measured on.
    pub rank: u32,
    /// The parts; with a prediction they sum to `difference_us`.
    pub parts: Vec<BudgetPart>,
    /// Warnings (a busy machine).
    pub warnings: Vec<String>,
}

/// What the budget needs from one rank.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RankCosts {
    /// The rank.
    pub rank: u32,
    /// Measured MPI_Init … MPI_Finalize, µs.
    pub span_us: f64,
    /// The split between computation and MPI calls and the shim's cost.
    pub costs: CallCosts,
    /// Predicted span and the predicted computation in it, µs.
    pub predicted: Option<(f64, f64)>,
}

/// Computation that took this much more wall than CPU time (fraction), and at least
/// [`BUSY_MIN_US`], means the machine was busy.
pub const BUSY_RATIO: f64 = 0.10;
/// See [`BUSY_RATIO`].
pub const BUSY_MIN_US: f64 = 1000.0;

/// The budget of a run whose launcher took `elapsed_us`.
pub fn error_budget(elapsed_us: f64, ranks: &[RankCosts]) -> ErrorBudget {
    let slowest = ranks.iter().max_by(|a, b| a.span_us.total_cmp(&b.span_us));
    let Some(r) = slowest else {
        return ErrorBudget {
            predicted_us: None,
            measured_us: elapsed_us,
            difference_us: None,
            rank: 0,
            parts: Vec::new(),
            warnings: Vec::new(),
        };
    };
    let c = r.costs;
    let mut parts = vec![
        BudgetPart {
            name: "launch",
            us: -(elapsed_us - r.span_us),
            how: format!(
                "launcher wall {:.0} µs − rank {}'s MPI_Init…MPI_Finalize {:.0} µs",
                elapsed_us, r.rank, r.span_us
            ),
        },
        BudgetPart {
            name: "recorder overhead",
            us: -c.subtracted_us,
            how: format!(
                "{} calls × {:.3} µs calibrated at MPI_Init, taken out of the computation",
                c.calls, c.per_call_us
            ),
        },
        BudgetPart {
            name: "shim work in calls",
            us: -c.shim_work_us(),
            how: format!(
                "{} calls × {:.3} µs measured around the MPI library's functions, less the clock reading above",
                c.calls,
                c.shim_work_us() / c.calls.max(1) as f64
            ),
        },
        BudgetPart {
            name: "foreign load",
            us: (c.burst_cpu_us - c.subtracted_us) - c.burst_wall_us,
            how: format!(
                "computation between calls: {:.0} µs CPU (net) in {:.0} µs wall",
                c.burst_cpu_us - c.subtracted_us,
                c.burst_wall_us
            ),
        },
    ];
    let predicted_us = ranks.iter().filter_map(|r| r.predicted.map(|p| p.0)).reduce(f64::max);
    let difference_us = predicted_us.map(|p| p - elapsed_us);
    if let (Some(d), Some((span, compute))) = (difference_us, r.predicted) {
        let library_us = c.mpi_wall_us - c.subtracted_us - c.shim_work_us();
        parts.push(BudgetPart {
            name: "data-sheet misfit",
            us: (span - compute) - library_us,
            how: format!(
                "MPI calls: {:.0} µs by the sheet, {:.0} µs measured (the library's own)",
                span - compute,
                library_us
            ),
        });
        let explained: f64 = parts.iter().map(|p| p.us).sum();
        parts.push(BudgetPart {
            name: "remainder",
            us: d - explained,
            how: "the difference less the parts above".into(),
        });
    }
    let warnings = ranks
        .iter()
        .filter(|r| {
            let cpu = r.costs.burst_cpu_us - r.costs.subtracted_us;
            let extra = r.costs.burst_wall_us - cpu;
            extra > BUSY_MIN_US && extra > BUSY_RATIO * cpu
        })
        .map(|r| {
            format!(
                "rank {}: computation took {:.0} µs of wall time for {:.0} µs of CPU time ({:+.0} %): the machine was busy (or the program slept or waited for I/O); the prediction counts CPU time",
                r.rank,
                r.costs.burst_wall_us,
                r.costs.burst_cpu_us - r.costs.subtracted_us,
                100.0 * (r.costs.burst_wall_us / (r.costs.burst_cpu_us - r.costs.subtracted_us).max(1e-9) - 1.0)
            )
        })
        .collect();
    ErrorBudget { predicted_us, measured_us: elapsed_us, difference_us, rank: r.rank, parts, warnings }
}

impl ErrorBudget {
    /// The budget as text, one part a line.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::from("error budget (predicted − measured");
        match (self.predicted_us, self.difference_us) {
            (Some(p), Some(d)) => {
                let _ = writeln!(
                    out,
                    "): predicted {p:.0} µs, measured {:.0} µs, difference {d:+.0} µs ({:+.1} %)",
                    self.measured_us,
                    100.0 * d / self.measured_us.max(1e-9)
                );
            }
            _ => {
                let _ = writeln!(
                    out,
                    " of a prediction from this recording): measured {:.0} µs",
                    self.measured_us
                );
            }
        }
        for p in &self.parts {
            let _ = writeln!(out, "  {:<18} {:>+12.0} µs  {}", p.name, p.us, p.how);
        }
        for w in &self.warnings {
            let _ = writeln!(out, "warning: {w}");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1000 calls; 0.5 µs calibrated, 450 µs of it taken out of the bursts; 1950 µs of the shim's
    /// own wall time inside the calls, so 1500 µs (1.5 µs a call) beyond the clock reading.
    fn costs(mpi_wall_us: f64, burst_cpu_us: f64, burst_wall_us: f64) -> CallCosts {
        CallCosts {
            calls: 1000,
            mpi_wall_us,
            burst_cpu_us,
            burst_wall_us,
            per_call_us: 0.5,
            subtracted_us: 450.0,
            in_call_us: 1950.0,
        }
    }

    fn two_ranks(rank_1: CallCosts) -> [RankCosts; 2] {
        [
            RankCosts {
                rank: 0,
                span_us: 9000.0,
                costs: costs(5000.0, 4000.0, 4000.0),
                predicted: Some((9000.0, 3000.0)),
            },
            RankCosts { rank: 1, span_us: 10000.0, costs: rank_1, predicted: Some((8000.0, 3050.0)) },
        ]
    }

    fn parts(b: &ErrorBudget) -> Vec<(&'static str, f64)> {
        b.parts.iter().map(|p| (p.name, p.us)).collect()
    }

    #[test]
    fn the_parts_sum_to_the_difference_and_each_is_what_was_measured() {
        // Rank 1 is the slowest measured (10 000 µs span: 6000 in calls + 4000 computing, of which
        // 3500 CPU, 450 of it the shim's clock reading); rank 0 is predicted later (9000 µs) than
        // rank 1 (8000 µs, 3050 computing, so 4950 in calls by the sheet). Of the 6000 µs in
        // calls, 450 are the clock reading and 1500 the shim's other work: 4050 are the library's.
        let b = error_budget(10400.0, &two_ranks(costs(6000.0, 3500.0, 4000.0)));
        assert_eq!((b.rank, b.predicted_us, b.difference_us), (1, Some(9000.0), Some(-1400.0)));
        assert_eq!(
            parts(&b),
            [
                ("launch", -400.0),
                ("recorder overhead", -450.0),
                ("shim work in calls", -1500.0),
                ("foreign load", 3050.0 - 4000.0),
                ("data-sheet misfit", 4950.0 - 4050.0),
                ("remainder", -1400.0 - (-400.0 - 450.0 - 1500.0 - 950.0 + 900.0)),
            ]
        );
        let sum: f64 = b.parts.iter().map(|p| p.us).sum();
        assert!((sum - -1400.0).abs() < 1e-9);
        // 950 µs more wall than CPU is under the 1 ms floor: no warning.
        assert!(b.warnings.is_empty());
        let text = b.to_text();
        assert!(text.contains("difference -1400 µs (-13.5 %)"), "{text}");
        assert!(text.contains("shim work in calls        -1500 µs  1000 calls × 1.500 µs"), "{text}");
        assert!(text.contains("4950 µs by the sheet, 4050 µs measured"), "{text}");
    }

    #[test]
    fn the_misfit_excludes_the_shim_work_and_a_record_without_it_keeps_the_sum() {
        let measured = costs(6000.0, 3500.0, 4000.0);
        let with = error_budget(10400.0, &two_ranks(measured));
        // The same run from a record without the in-call field: no shim work, and the misfit
        // holds what the shim did inside the calls.
        let without = error_budget(10400.0, &two_ranks(CallCosts { in_call_us: 0.0, ..measured }));
        let part = |b: &ErrorBudget, name: &str| b.parts.iter().find(|p| p.name == name).unwrap().us;
        let misfit = |b: &ErrorBudget| part(b, "data-sheet misfit");
        let found = [
            part(&without, "shim work in calls"),
            misfit(&without),
            misfit(&with) - misfit(&without),
            part(&with, "remainder") - part(&without, "remainder"),
        ];
        let expected = [0.0, 4950.0 - 5550.0, 1500.0, 0.0];
        assert!(found.iter().zip(expected).all(|(f, e)| (f - e).abs() < 1e-9), "{found:?}");
        for b in [&with, &without] {
            let sum: f64 = b.parts.iter().map(|p| p.us).sum();
            assert!((sum - b.difference_us.unwrap()).abs() < 1e-9, "{b:?}");
        }
        // In-call time below the clock reading it contains leaves no shim work (never positive).
        let short = CallCosts { in_call_us: 300.0, ..measured };
        let (none, some) = (short.shim_work_us(), measured.shim_work_us());
        assert!(none.abs() < 1e-9 && (some - 1500.0).abs() < 1e-9, "{none} {some}");
    }

    #[test]
    fn a_busy_machine_is_named_and_a_recording_has_no_difference() {
        let busy = RankCosts {
            rank: 3,
            span_us: 50_000.0,
            costs: costs(1000.0, 20_450.0, 40_000.0),
            predicted: None,
        };
        let b = error_budget(60_000.0, &[busy]);
        assert_eq!(b.difference_us, None);
        assert_eq!(
            b.parts.iter().map(|p| p.name).collect::<Vec<_>>(),
            ["launch", "recorder overhead", "shim work in calls", "foreign load"]
        );
        assert_eq!(b.warnings.len(), 1);
        assert!(
            b.warnings[0].starts_with(
                "rank 3: computation took 40000 µs of wall time for 20000 µs of CPU time (+100 %)"
            )
        );
    }
}
