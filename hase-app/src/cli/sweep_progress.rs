//! What `hase sweep` shows while it runs: on a terminal, an overall bar (runs done of runs to do,
//! with the failures so far) and one line per run in flight (its simulated time and events);
//! elsewhere (a pipe, a log, CI) one line per finished run on stderr, so scripts can follow.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use hase_engine::kernel::Progress;
use hase_library::experiment::{ObserverError, RunKey, RunRecord, SweepObserver};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How progress is shown.
enum Display {
    /// Bars on a terminal.
    Bars { multi: MultiProgress, overall: ProgressBar, running: Mutex<BTreeMap<RunKey, ProgressBar>> },
    /// One line per finished run.
    Lines,
    /// Nothing.
    Quiet,
}

/// The sweep observer of the command line (see the module documentation).
pub struct CliProgress {
    display: Display,
    total: u64,
    done: AtomicU64,
    failed: AtomicU64,
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar())
}

impl CliProgress {
    /// Progress over `to_do` runs of `total` (a resume does fewer than all).
    pub fn new(to_do: u64, total: u64, quiet: bool) -> Self {
        let display = if quiet {
            Display::Quiet
        } else if std::io::stderr().is_terminal() {
            let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
            let overall = multi.add(ProgressBar::new(to_do));
            overall.set_style(style("{elapsed_precise} [{bar:30}] {pos}/{len} runs {msg} (eta {eta})"));
            overall.enable_steady_tick(Duration::from_millis(200));
            Display::Bars { multi, overall, running: Mutex::new(BTreeMap::new()) }
        } else {
            Display::Lines
        };
        CliProgress { display, total, done: AtomicU64::new(total - to_do), failed: AtomicU64::new(0) }
    }

    /// Remove the bars.
    pub fn finish(&self) {
        if let Display::Bars { overall, .. } = &self.display {
            overall.finish_and_clear();
        }
    }
}

impl SweepObserver for CliProgress {
    fn started(&self, key: RunKey) {
        if let Display::Bars { multi, running, .. } = &self.display {
            let bar = multi.add(ProgressBar::new_spinner());
            bar.set_style(style("  {spinner} {prefix} {msg}"));
            bar.set_prefix(key.to_string());
            running.lock().unwrap_or_else(PoisonError::into_inner).insert(key, bar);
        }
    }

    fn progress(&self, key: RunKey, progress: Progress) {
        if let Display::Bars { running, .. } = &self.display
            && let Some(bar) = running.lock().unwrap_or_else(PoisonError::into_inner).get(&key)
        {
            bar.set_message(format!("sim time {}  events {}", progress.now, progress.events));
            bar.tick();
        }
    }

    fn finished(&self, record: &RunRecord) -> Result<(), ObserverError> {
        let done = self.done.fetch_add(1, Ordering::SeqCst) + 1;
        if !record.status.is_success() {
            self.failed.fetch_add(1, Ordering::SeqCst);
        }
        match &self.display {
            Display::Bars { multi, overall, running } => {
                if let Some(bar) = running.lock().unwrap_or_else(PoisonError::into_inner).remove(&record.key)
                {
                    multi.remove(&bar);
                }
                overall.inc(1);
                let failed = self.failed.load(Ordering::SeqCst);
                if failed > 0 {
                    overall.set_message(format!("({failed} not completed)"));
                }
            }
            Display::Lines => {
                let line = format!(
                    "[{done}/{}] {} ({}) seed {}: {}\n",
                    self.total,
                    record.key,
                    record.values.join(", "),
                    record.seed,
                    record.status.word()
                );
                let _ = std::io::stderr().lock().write_all(line.as_bytes());
            }
            Display::Quiet => {}
        }
        Ok(())
    }
}
