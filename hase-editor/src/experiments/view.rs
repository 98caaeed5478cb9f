//! [`ExperimentsView`]: the experiments window's state — its tab, the sweep being built and its
//! preview, the sweep running, the stored experiments, the results and the plot's and table's
//! choices, the last notice — and the store calls behind its buttons; the small types its
//! requests and errors are made of.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hase_engine::model::Project;
use hase_library::experiment::{ExperimentPlan, RunKey, SweepSpec};
use hase_library::store::{ExperimentStore, ExperimentSummary};

use super::builder::{SweepBuilder, SweepPreview};
use super::expected_lines::{PointExpectations, expected_points};
use super::plot::{self, PlotError, PlotKind, PlotSettings, PointSet, RatioSource};
use super::results::Results;
use super::runner::{RunningSweep, SweepUpdate};
use super::slurm;
use super::table::TableSort;

/// The view's tabs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExperimentsTab {
    /// Build a sweep.
    #[default]
    Build,
    /// The running sweep.
    Run,
    /// Stored experiments.
    Stored,
    /// Table and plots.
    Results,
}

/// Why the experiments view could not read what it was asked for.
#[derive(Debug, thiserror::Error)]
pub enum ExperimentsError {
    /// There is no experiment store (the project library is off).
    #[error("no experiment store is open")]
    NoStore,
    /// No results are open.
    #[error("no results are open")]
    NoResults,
    /// The plan of a sweep kept in memory is gone.
    #[error("the sweep's plan is gone")]
    PlanGone,
    /// The store refused.
    #[error(transparent)]
    Store(#[from] hase_library::store::StoreError),
    /// The stored experiment's plan could not be rebuilt.
    #[error(transparent)]
    Plan(Box<hase_library::experiment::ExperimentError>),
    /// The point is not of the plan.
    #[error(transparent)]
    Point(hase_library::experiment::PointError),
}

impl From<hase_library::experiment::ExperimentError> for ExperimentsError {
    fn from(error: hase_library::experiment::ExperimentError) -> Self {
        ExperimentsError::Plan(Box::new(error))
    }
}

/// What a file dialog of the experiments view is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExperimentFileRequest {
    /// Write the built spec (RON).
    SaveSpec,
    /// Read a spec (RON) into the builder.
    LoadSpec,
    /// Write a stored experiment's results as CSV.
    ExportCsv(u64),
    /// Write a stored experiment as RON (importable).
    ExportRon(u64),
    /// Import an experiment exported as RON.
    Import,
    /// Save the plot as PNG.
    PlotPng,
    /// Save the plotted data as CSV (the text).
    PlotCsv(String),
    /// Save the results shown, every run one row, as CSV (the text).
    ResultsCsv(String),
    /// A Slurm job directory's `job.ron` (Collect results…).
    SlurmJob,
}

/// A message the view shows (and the app logs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// An error (else information).
    pub error: bool,
    /// The text.
    pub text: String,
}

/// A point to open in the animator and the timing diagram.
#[derive(Clone, Debug)]
pub struct PointRun {
    /// The point's project.
    pub project: Project,
    /// The trace its first repetition kept, if the file is there.
    pub trace: Option<PathBuf>,
    /// Seed of its first repetition.
    pub seed: u64,
    /// Trace level to run at.
    pub level: u8,
    /// Stop time, if the experiment has one.
    pub until: Option<hase_engine::time::SimTime>,
    /// Label (`experiment 3, point 5 (ring, 4096)`).
    pub label: String,
}

/// The experiments view.
#[derive(Debug)]
pub struct ExperimentsView {
    /// The window is open.
    pub open: bool,
    /// The tab shown.
    pub tab: ExperimentsTab,
    /// The sweep being built.
    pub builder: SweepBuilder,
    /// The sweeps being built for the other projects opened since hase started, by
    /// project name (see [`Self::switch_project`]).
    pub(super) stashed: BTreeMap<String, SweepBuilder>,
    /// The project the sweep being built belongs to when that is not the design (a point of an
    /// experiment opened to look at keeps the sweep it came from; see [`Self::keep_sweep_of`]).
    pub(super) owner: Option<String>,
    /// The builder's check against the design, and what it was computed for.
    pub preview: SweepPreview,
    /// The builder and design generation the preview was last computed for.
    pub(super) preview_of: Option<(SweepBuilder, u64)>,
    /// Filter text of the parameter list.
    pub target_filter: String,
    /// Worker threads for sweeps.
    pub jobs: usize,
    /// The sweep running, if any.
    pub running: Option<RunningSweep>,
    /// The experiment store (the project library's database), when there is one.
    pub store: Option<ExperimentStore>,
    /// Stored experiments, as last listed.
    pub stored: Vec<ExperimentSummary>,
    /// The stored experiment selected in the list.
    pub selected: Option<u64>,
    /// The rename field.
    pub rename_text: String,
    /// The results shown.
    pub results: Option<Results>,
    /// The plan of the last sweep kept in memory (to re-run its points).
    pub memory_plan: Option<std::sync::Arc<ExperimentPlan>>,
    /// The second experiment of a ratio, loaded.
    pub other: Option<Results>,
    /// Plot choices.
    pub plot: PlotSettings,
    /// Table order.
    pub sort: TableSort,
    /// The last message.
    pub notice: Option<Notice>,
    /// A point the view asked to open (taken by the app).
    pub open_point: Option<u64>,
    /// A file dialog the view asked for (taken by the app).
    pub file_request: Option<ExperimentFileRequest>,
    /// The point selected in the table.
    pub selected_point: Option<u64>,
    /// The metric name being typed.
    pub metric_text: String,
    /// Screen rectangle of the last plot drawn (min x, min y, max x, max y in points), when one is
    /// shown (Export plot PNG… draws it again as a figure).
    pub plot_rect: Option<[f32; 4]>,
    /// Export plot PNG… draws the figure on a light background (else in the window's theme).
    pub figure_light: bool,
    /// The Results tab's "Fit a formula" panel.
    pub fit: crate::analysis_views::FitPanel,
    /// The Slurm dialogs (Run on Slurm…, Collect results…).
    pub slurm: slurm::SlurmPanel,
    /// The expected makespan of each point of the results shown, and which results (id, name,
    /// records) it was worked out for.
    pub expected: (Option<(Option<u64>, String, usize)>, PointExpectations),
}

impl Default for ExperimentsView {
    fn default() -> Self {
        ExperimentsView {
            open: false,
            tab: ExperimentsTab::Build,
            builder: SweepBuilder::default(),
            stashed: BTreeMap::new(),
            owner: None,
            preview: SweepPreview::default(),
            preview_of: None,
            target_filter: String::new(),
            jobs: std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            running: None,
            store: None,
            stored: Vec::new(),
            selected: None,
            rename_text: String::new(),
            results: None,
            memory_plan: None,
            other: None,
            plot: PlotSettings::default(),
            sort: TableSort::default(),
            notice: None,
            open_point: None,
            file_request: None,
            selected_point: None,
            metric_text: String::new(),
            plot_rect: None,
            figure_light: true,
            fit: crate::analysis_views::FitPanel::default(),
            slurm: slurm::SlurmPanel::default(),
            expected: (None, PointExpectations::new()),
        }
    }
}

impl ExperimentsView {
    pub(super) fn say(&mut self, error: bool, text: impl Into<String>) {
        self.notice = Some(Notice { error, text: text.into() });
    }

    /// Check the builder against the design again if either changed (`generation` counts design
    /// changes).
    pub fn refresh_preview(&mut self, project: &Project, base_dir: &Path, generation: u64) {
        if self.preview_of.as_ref().is_some_and(|(b, g)| *b == self.builder && *g == generation) {
            return;
        }
        self.preview = self.builder.preview(project, base_dir);
        self.preview_of = Some((self.builder.clone(), generation));
    }

    /// Another project replaced the design: keep the sweep being built for project `from`, and
    /// build the one last built for project `to` (a new one the first time). Projects are told
    /// apart by name; another version of the same project keeps the sweep.
    pub fn switch_project(&mut self, from: &str, to: &str) {
        let owner = self.owner.take().unwrap_or_else(|| from.to_string());
        if owner == to {
            return;
        }
        let next = self.stashed.remove(to).unwrap_or_default();
        let previous = std::mem::replace(&mut self.builder, next);
        if previous != SweepBuilder::default() {
            self.stashed.insert(owner, previous);
        }
        self.preview_of = None;
    }

    /// Another project replaced the design, and the sweep being built stays on show: it still
    /// belongs to project `owner` (the one the design was before), where the next
    /// [`Self::switch_project`] keeps it.
    pub fn keep_sweep_of(&mut self, owner: &str) {
        if self.owner.is_none() {
            self.owner = Some(owner.to_string());
        }
    }

    /// Load a spec into the builder.
    pub fn load_spec(&mut self, spec: &SweepSpec) {
        self.builder = SweepBuilder::from_spec(spec);
        self.preview_of = None;
        self.tab = ExperimentsTab::Build;
    }

    /// Start the built sweep on `project` (stored when there is a store).
    pub fn start(&mut self, project: &Project, base_dir: &Path, source: &str) {
        if self.running.is_some() {
            self.say(true, "a sweep is running; cancel it first");
            return;
        }
        let plan = match self.builder.plan(project, base_dir) {
            Ok(plan) => plan,
            Err(e) => return self.say(true, e.to_string()),
        };
        let name = plan.name().to_string();
        let (variables, metrics, runs) = (plan.variable_names(), plan.metric_names(), plan.run_count());
        match RunningSweep::start(plan, self.store.as_ref(), source, self.jobs) {
            Ok(sweep) => {
                self.results = Some(Results {
                    id: sweep.id,
                    name,
                    variables,
                    metrics,
                    runs_planned: runs,
                    records: Vec::new(),
                });
                if sweep.id.is_none() {
                    self.memory_plan = Some(std::sync::Arc::clone(&sweep.plan));
                }
                self.say(
                    false,
                    format!(
                        "running {runs} runs{}",
                        sweep.id.map_or(String::new(), |id| format!(" as experiment {id}"))
                    ),
                );
                self.running = Some(sweep);
                self.tab = ExperimentsTab::Run;
                self.reset_plot();
                self.refresh_list();
            }
            Err(e) => self.say(true, format!("cannot start the sweep: {e}")),
        }
    }

    /// Run the missing runs of stored experiment `id`.
    pub fn resume(&mut self, id: u64) {
        let Some(store) = self.store.clone() else { return self.say(true, "no experiment store is open") };
        if self.running.is_some() {
            return self.say(true, "a sweep is running; cancel it first");
        }
        self.open_stored(id);
        match RunningSweep::resume(&store, id, self.jobs) {
            Ok(sweep) => {
                let missing = sweep.total_runs - sweep.done_before;
                self.say(false, format!("experiment {id}: running the {missing} missing runs"));
                self.running = Some(sweep);
                self.tab = ExperimentsTab::Run;
            }
            Err(e) => self.say(true, format!("cannot resume experiment {id}: {e}")),
        }
    }

    /// Stop the running sweep.
    pub fn cancel(&mut self) {
        if let Some(sweep) = &mut self.running {
            sweep.cancel();
        }
    }

    /// Take in the running sweep's news; true while it runs.
    pub fn poll(&mut self) -> bool {
        let Some(sweep) = &mut self.running else { return false };
        let updates = sweep.poll();
        let id = sweep.id;
        let mut ended = None;
        for update in updates {
            match update {
                SweepUpdate::Finished(record) => {
                    if let Some(results) = &mut self.results
                        && results.id == id
                    {
                        results.add(*record);
                    }
                }
                SweepUpdate::Done(report) => ended = Some(report),
            }
        }
        let Some(report) = ended else { return true };
        let sweep = self.running.take();
        let (done, total) = sweep.as_ref().map_or((0, 0), |s| (s.done_runs(), s.total_runs));
        match report {
            Ok(report) if report.stopped => {
                let why = report
                    .observer_error
                    .map_or_else(|| "cancelled".to_string(), |e| format!("stopped: {e}"));
                self.say(false, format!("{why} after {done} of {total} runs; Resume runs the missing ones"));
            }
            Ok(_) => {
                if let (Some(store), Some(id)) = (&self.store, id)
                    && let Ok(info) = store.info(id)
                    && info.finished_at.is_none()
                    && store.stored_keys(id).is_ok_and(|k| k.len() as u64 == total)
                {
                    let _ = store.mark_finished(id);
                }
                self.say(false, format!("finished: {done} of {total} runs"));
                self.tab = ExperimentsTab::Results;
            }
            Err(e) => self.say(true, format!("the sweep failed: {e}")),
        }
        // The plot's choices depend on the values the runs brought (numbers or words).
        self.reset_plot();
        self.refresh_list();
        false
    }

    /// List the stored experiments again.
    pub fn refresh_list(&mut self) {
        let Some(store) = &self.store else { return };
        match store.list() {
            Ok(list) => self.stored = list,
            Err(e) => self.say(true, format!("cannot list experiments: {e}")),
        }
    }

    /// Load stored experiment `id`'s results (and show them); the Build tab takes its spec, so
    /// that it shows the experiment opened rather than the one built before.
    pub fn open_stored(&mut self, id: u64) {
        match self.load_results(id) {
            Ok(results) => {
                if let Some(info) = self.store.as_ref().and_then(|store| store.info(id).ok()) {
                    self.builder = SweepBuilder::from_spec(&info.spec);
                    self.preview_of = None;
                }
                self.results = Some(results);
                self.selected = Some(id);
                self.reset_plot();
                self.tab = ExperimentsTab::Results;
            }
            Err(e) => self.say(true, e.to_string()),
        }
    }

    /// Read stored experiment `id`'s results.
    pub fn load_results(&self, id: u64) -> Result<Results, ExperimentsError> {
        let store = self.store.as_ref().ok_or(ExperimentsError::NoStore)?;
        let info = store.info(id)?;
        let records = store.runs(id)?;
        Ok(Results {
            id: Some(id),
            runs_planned: info.runs_planned(),
            name: info.name,
            variables: info.variables,
            metrics: info.metrics,
            records,
        })
    }

    /// Rename stored experiment `id`.
    pub fn rename(&mut self, id: u64, name: &str) {
        let Some(store) = &self.store else { return };
        match store.rename(id, name.trim()) {
            Ok(()) => {
                if let Some(r) = self.results.as_mut().filter(|r| r.id == Some(id)) {
                    r.name = name.trim().to_string();
                }
                self.say(false, format!("experiment {id} renamed to “{}”", name.trim()));
            }
            Err(e) => self.say(true, format!("cannot rename experiment {id}: {e}")),
        }
        self.refresh_list();
    }

    /// Delete stored experiment `id` with its runs and traces.
    pub fn delete(&mut self, id: u64) {
        if self.running.as_ref().is_some_and(|s| s.id == Some(id)) {
            return self.say(true, format!("experiment {id} is running; cancel it first"));
        }
        let Some(store) = &self.store else { return };
        match store.delete(id) {
            Ok(()) => {
                if self.results.as_ref().is_some_and(|r| r.id == Some(id)) {
                    self.results = None;
                }
                self.selected = None;
                self.say(false, format!("experiment {id} deleted"));
            }
            Err(e) => self.say(true, format!("cannot delete experiment {id}: {e}")),
        }
        self.refresh_list();
    }

    /// A file chosen for `purpose` (store exports and imports; the app handles the others).
    pub fn store_file_chosen(&mut self, purpose: &ExperimentFileRequest, path: &Path) {
        let Some(store) = self.store.clone() else { return self.say(true, "no experiment store is open") };
        let outcome = match purpose {
            ExperimentFileRequest::ExportCsv(id) => {
                store.export_csv(*id, path).map(|()| format!("wrote {}", path.display()))
            }
            ExperimentFileRequest::ExportRon(id) => {
                store.export_ron(*id, path).map(|()| format!("wrote {}", path.display()))
            }
            ExperimentFileRequest::Import => {
                store.import_ron(path).map(|id| format!("imported {} as experiment {id}", path.display()))
            }
            _ => return,
        };
        match outcome {
            Ok(text) => self.say(false, text),
            Err(e) => self.say(true, e.to_string()),
        }
        self.refresh_list();
    }

    /// Plot choices fitting the results shown: the first metric against the last numeric
    /// variable, one line per value of the variable with the most values among the others.
    pub fn reset_plot(&mut self) {
        let Some(results) = &self.results else { return };
        let counts: Vec<usize> = (0..results.variables.len()).map(|i| results.values_of(i).len()).collect();
        let numeric = |i: usize| results.values_of(i).iter().all(|v| v.parse::<f64>().is_ok());
        let x = (0..results.variables.len())
            .rev()
            .find(|&i| numeric(i))
            .or(results.variables.len().checked_sub(1));
        let series = (0..results.variables.len())
            .filter(|&i| Some(i) != x)
            .max_by_key(|&i| (counts[i], usize::MAX - i));
        let kind = if self.plot.kind == PlotKind::Ratio { PlotKind::Lines } else { self.plot.kind };
        self.plot = PlotSettings {
            kind,
            metric: results.metrics.first().cloned().unwrap_or_default(),
            x: x.map(|i| results.variables[i].clone()).unwrap_or_default(),
            series: series.map(|i| results.variables[i].clone()),
            log_x: x.is_some_and(|i| {
                let values: Vec<f64> = results.values_of(i).iter().filter_map(|v| v.parse().ok()).collect();
                values.len() > 2 && values.iter().all(|v| *v > 0.0) && {
                    let (lo, hi) =
                        values.iter().fold((f64::MAX, 0.0_f64), |(a, b), v| (a.min(*v), b.max(*v)));
                    hi / lo >= 100.0
                }
            }),
            ..PlotSettings::default()
        };
    }

    /// The point set the plot shows (the ratio's, for a ratio plot).
    pub fn plotted_set(&self) -> Result<PointSet, PlotError> {
        let results = self.results.as_ref().ok_or(PlotError::NoResults)?;
        let set = PointSet::of(results);
        if self.plot.kind != PlotKind::Ratio {
            return Ok(set);
        }
        let source = self.plot.ratio.as_ref().ok_or(PlotError::NoDenominator)?;
        if let RatioSource::Split { variable, .. } = source {
            let role = if *variable == self.plot.x {
                Some("x")
            } else if self.plot.series.as_deref() == Some(variable.as_str()) {
                Some("Lines per")
            } else {
                None
            };
            if let Some(role) = role {
                return Err(PlotError::RatioVariableShown { variable: variable.clone(), role });
            }
        }
        let other = match source {
            RatioSource::Experiment(id) => Some(
                self.other
                    .as_ref()
                    .filter(|o| o.id == Some(*id))
                    .map(PointSet::of)
                    .ok_or(PlotError::NotLoaded(*id))?,
            ),
            RatioSource::Split { .. } => None,
        };
        plot::ratio(&set, source, other.as_ref())
    }

    /// Load experiment `id` as the ratio's denominator.
    pub fn load_other(&mut self, id: u64) {
        match self.load_results(id) {
            Ok(results) => {
                self.other = Some(results);
                self.plot.ratio = Some(RatioSource::Experiment(id));
            }
            Err(e) => self.say(true, e.to_string()),
        }
    }

    /// The plan of the results shown (stored, or the sweep kept in memory).
    fn results_plan(&self, results: &Results) -> Result<std::sync::Arc<ExperimentPlan>, ExperimentsError> {
        match results.id {
            Some(id) => {
                let store = self.store.as_ref().ok_or(ExperimentsError::NoStore)?;
                Ok(std::sync::Arc::new(hase_library::experiment::plan_stored(store, id)?))
            }
            None => self.memory_plan.clone().ok_or(ExperimentsError::PlanGone),
        }
    }

    /// The expected makespan of each point of the results shown, worked out again when they
    /// change (empty when their plan cannot be read).
    pub fn expected_points(&mut self) -> &PointExpectations {
        let key = self.results.as_ref().map(|r| (r.id, r.name.clone(), r.records.len()));
        if self.expected.0 != key {
            let points = match &self.results {
                Some(results) => match self.results_plan(results) {
                    Ok(plan) => expected_points(&plan, results.points().iter().map(|p| p.point)),
                    Err(_) => PointExpectations::new(),
                },
                None => PointExpectations::new(),
            };
            self.expected = (key, points);
        }
        &self.expected.1
    }

    /// What opening `point` of the results shown needs: its project, seed and kept trace.
    pub fn point_run(&self, point: u64) -> Result<PointRun, ExperimentsError> {
        let results = self.results.as_ref().ok_or(ExperimentsError::NoResults)?;
        let plan = self.results_plan(results)?;
        let project = plan.project_for(point).map_err(ExperimentsError::Point)?;
        let key = RunKey { point, repetition: 0 };
        let trace = results
            .records
            .iter()
            .find(|r| r.key == key)
            .and_then(|r| r.trace.as_ref())
            .map(PathBuf::from)
            .filter(|p| p.exists());
        let level = plan.spec().traces.unwrap_or(project.settings.trace_level).clamp(1, 5);
        let values = plan.point_values(point).join(", ");
        let owner = results.id.map_or_else(|| "sweep".to_string(), |id| format!("experiment {id}"));
        Ok(PointRun {
            seed: plan.seed_of(key),
            until: plan.spec().until,
            label: format!("{owner}, point {point} ({values})"),
            project,
            trace,
            level,
        })
    }
}
