//! The experiments view's Slurm buttons: open a dialog, prepare and submit the sweep being built,
//! collect a job directory, and take in what the background thread brings back (see [`super::slurm`]
//! for the dialogs' state and the work done off the window's thread).

use std::path::{Path, PathBuf};
use std::sync::mpsc::TryRecvError;

use hase_engine::model::Project;

use super::slurm::{
    Finished, Gathered, SlurmDialog, SlurmOutcome, SlurmPanelError, gather, optional, prepare_and_submit,
};
use super::view::{ExperimentsTab, ExperimentsView};

impl ExperimentsView {
    /// Open a Slurm dialog (forgetting the last outcome).
    pub fn open_slurm(&mut self, dialog: SlurmDialog) {
        self.slurm.dialog = Some(dialog);
        self.slurm.raise_frames = 2;
        self.slurm.outcome = None;
        self.slurm.error = None;
    }

    /// Run on Slurm: plan the built sweep on `project`, then write the job directory and submit it
    /// (or find the command to show) in the background.
    pub fn prepare_slurm(&mut self, project: &Project, base_dir: &Path) {
        let slurm = &mut self.slurm;
        if slurm.busy() {
            return;
        }
        slurm.outcome = None;
        slurm.error = None;
        let plan = self.builder.plan(project, base_dir).map_err(SlurmPanelError::from);
        let data_dir = self.store.as_ref().map(|s| s.database().data_dir().to_path_buf());
        let slurm = &mut self.slurm;
        let ready = plan.and_then(|plan| {
            let dir = slurm.form.job_dir()?;
            let settings = slurm.form.settings(slurm.hase_binary()?, data_dir)?;
            Ok((plan, dir, settings))
        });
        let (plan, dir, settings) = match ready {
            Ok(ready) => ready,
            Err(e) => {
                slurm.error = Some(e);
                return;
            }
        };
        let search_path = slurm.search_path();
        let (send, receive) = std::sync::mpsc::channel();
        slurm.work = Some(receive);
        let thread = std::thread::Builder::new().name("hase-slurm-submit".into()).spawn(move || {
            let outcome = prepare_and_submit(&plan, &settings, &dir, &search_path);
            let _ = send.send(Finished::Prepared(outcome));
        });
        if let Err(e) = thread {
            slurm.work = None;
            slurm.error = Some(SlurmPanelError::Thread(e));
        }
    }

    /// Collect results: gather the job directory typed into the store (or memory) in the background.
    pub fn collect_slurm(&mut self) {
        if self.slurm.busy() {
            return;
        }
        self.slurm.outcome = None;
        self.slurm.error = None;
        let Some(dir) = optional(&self.slurm.collect_dir).map(PathBuf::from) else {
            self.slurm.error = Some(SlurmPanelError::NoCollectDir);
            return;
        };
        let store = self.store.clone();
        let (send, receive) = std::sync::mpsc::channel();
        self.slurm.work = Some(receive);
        let thread = std::thread::Builder::new().name("hase-slurm-collect".into()).spawn(move || {
            let _ = send.send(Finished::Collected(gather(&dir, store.as_ref())));
        });
        if let Err(e) = thread {
            self.slurm.work = None;
            self.slurm.error = Some(SlurmPanelError::Thread(e));
        }
    }

    /// Take in a finished Slurm action; true while one runs.
    pub fn poll_slurm(&mut self) -> bool {
        let Some(work) = &self.slurm.work else { return false };
        let finished = match work.try_recv() {
            Ok(finished) => finished,
            Err(TryRecvError::Empty) => return true,
            Err(TryRecvError::Disconnected) => {
                self.slurm.work = None;
                self.slurm.error = Some(SlurmPanelError::NoAnswer);
                return false;
            }
        };
        self.slurm.work = None;
        match finished {
            Finished::Prepared(Ok(outcome)) => {
                let text = match &outcome {
                    SlurmOutcome::Submitted { job_id, dir, .. } => {
                        format!("submitted Slurm job {job_id} ({})", dir.display())
                    }
                    SlurmOutcome::ShowCommand { dir, .. } => {
                        format!("wrote the Slurm job directory {}; submit it on the cluster", dir.display())
                    }
                    SlurmOutcome::Collected(_) => String::new(),
                };
                self.say(false, text);
                self.slurm.outcome = Some(outcome);
            }
            Finished::Collected(Ok(gathered)) => self.take_collected(*gathered),
            Finished::Prepared(Err(e)) | Finished::Collected(Err(e)) => {
                self.say(true, e.to_string());
                self.slurm.error = Some(e);
            }
        }
        false
    }

    fn take_collected(&mut self, gathered: Gathered) {
        let Gathered { report, results, plan } = gathered;
        let where_to = report
            .stored
            .map_or_else(|| " (kept in memory)".to_string(), |id| format!(" into experiment {id}"));
        self.say(
            report.missing > 0,
            format!(
                "collected {} of {} runs from {}{where_to}{}",
                report.collected,
                report.planned,
                report.dir.display(),
                if report.missing > 0 { format!("; {} missing", report.missing) } else { String::new() }
            ),
        );
        if report.collected > 0 {
            if results.id.is_none() {
                self.memory_plan = Some(plan);
            }
            self.selected = results.id;
            self.results = Some(results);
            self.reset_plot();
            self.tab = ExperimentsTab::Results;
        }
        self.refresh_list();
        self.slurm.outcome = Some(SlurmOutcome::Collected(report));
    }
}
