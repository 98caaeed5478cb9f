//! `NativeProject`: a project in memory, loaded from a file or generated from a topology template,
//! changed with the CLI's `--set` assignments, and run (off the Python thread, Ctrl-C cancels).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use hase_engine::kernel::TieOrder;
use hase_engine::model::{Project, Workload};
use hase_engine::units::{parse_rate, parse_time};
use hase_library::catalogue::registry_for;
use hase_library::expected::expected_for_run_in;
use hase_library::generated::{load_project, project_to_ron, save_project};
use hase_library::overrides::apply_set;
use hase_library::runner::{RunOptions, TraceTarget, base_dir_of, run_project};
use hase_templates::{LinkParams, ProjectForm, TemplateSpec, Topology, template_project};
use pyo3::prelude::*;

use crate::background::run_in_background;
use crate::errors::{HaseError, hase_error, hase_error_in};
use crate::run::NativeRun;

/// A hase project held in memory, with the directory its relative file names are read from.
#[pyclass(module = "hase._hase", from_py_object)]
#[derive(Clone)]
pub struct NativeProject {
    /// The project.
    pub project: Project,
    /// Where relative paths in the project (workload traces, data sheets) are resolved.
    pub base_dir: PathBuf,
    /// The file it was loaded from, if any.
    pub path: Option<PathBuf>,
}

#[pymethods]
impl NativeProject {
    /// Load a project file (`.ron`).
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Self> {
        let project = load_project(&path).map_err(|e| hase_error(&e))?;
        Ok(NativeProject { project, base_dir: base_dir_of(&path), path: Some(path) })
    }

    /// Generate a project from a topology template, as `hase new` does.
    #[staticmethod]
    #[pyo3(signature = (template, dims, *, name=None, compound=false, latency=None, bandwidth=None,
                        host_latency=None, host_bandwidth=None, program=None, params=BTreeMap::new()))]
    #[expect(clippy::too_many_arguments, reason = "Python keyword arguments, one per `hase new` option")]
    fn from_template(
        template: &str,
        dims: &str,
        name: Option<String>,
        compound: bool,
        latency: Option<&str>,
        bandwidth: Option<&str>,
        host_latency: Option<&str>,
        host_bandwidth: Option<&str>,
        program: Option<String>,
        params: BTreeMap<String, String>,
    ) -> PyResult<Self> {
        let topology = Topology::parse_dims(dims)
            .and_then(|d| Topology::parse(template, &d))
            .map_err(|e| hase_error(&e))?;
        let mut spec = TemplateSpec::new(topology.clone());
        let mut link = LinkParams::default();
        if let Some(text) = latency {
            link.latency = parse_time(text).map_err(|e| hase_error_in("latency", &e))?;
        }
        if let Some(text) = bandwidth {
            link.bandwidth_bytes_per_s = parse_rate(text).map_err(|e| hase_error_in("bandwidth", &e))?;
        }
        spec.link = link;
        spec.endpoint_link = link;
        if let Some(text) = host_latency {
            spec.endpoint_link.latency = parse_time(text).map_err(|e| hase_error_in("host_latency", &e))?;
        }
        if let Some(text) = host_bandwidth {
            spec.endpoint_link.bandwidth_bytes_per_s =
                parse_rate(text).map_err(|e| hase_error_in("host_bandwidth", &e))?;
        }
        let name = name.unwrap_or_else(|| topology.describe());
        let form = if compound {
            ProjectForm::Compound { type_name: topology.type_name() }
        } else {
            ProjectForm::Flat
        };
        let mut project = template_project(&spec, &registry_for(&Project::new(&name)), &name, &form)
            .map_err(|e| hase_error(&e))?;
        match program {
            Some(program) => {
                project.workload = Workload::Program { name: program, params: BTreeMap::new() };
                for (param, value) in &params {
                    apply_set(&mut project, &format!("workload.{param}={value}"))
                        .map_err(|e| hase_error(&e))?;
                }
            }
            None if !params.is_empty() => return Err(HaseError::new_err("params need a program")),
            None => {}
        }
        Ok(NativeProject { project, base_dir: PathBuf::from("."), path: None })
    }

    /// Apply one `TARGET=VALUE` assignment (the CLI's `--set`).
    fn set(&mut self, assignment: &str) -> PyResult<()> {
        apply_set(&mut self.project, assignment).map_err(|e| hase_error(&e))
    }

    /// The project's name.
    #[getter]
    fn name(&self) -> String {
        self.project.name.clone()
    }

    /// The file the project was loaded from, if any.
    #[getter]
    fn path(&self) -> Option<PathBuf> {
        self.path.clone()
    }

    /// The project as RON text (what `save` writes).
    fn to_ron(&self) -> PyResult<String> {
        project_to_ron(&self.project).map_err(|e| hase_error(&e))
    }

    /// Write the project to `path` (`.ron`).
    fn save(&self, path: PathBuf) -> PyResult<()> {
        save_project(&self.project, &path).map_err(|e| hase_error(&e))
    }

    /// Run the project. `until` is a time with units (`10us`); `trace` is a file to stream the
    /// trace to, or `None` with `keep_trace` to keep it in memory.
    #[pyo3(signature = (*, seed=None, level=None, until=None, trace=None, keep_trace=false, live_values=None,
                        fingerprint=false, tie_seed=None))]
    #[expect(clippy::too_many_arguments, reason = "Python keyword arguments, one per `hase run` option")]
    fn run(
        &self,
        py: Python<'_>,
        seed: Option<u64>,
        level: Option<u8>,
        until: Option<&str>,
        trace: Option<PathBuf>,
        keep_trace: bool,
        live_values: Option<bool>,
        fingerprint: bool,
        tie_seed: Option<u64>,
    ) -> PyResult<NativeRun> {
        if let Some(level) = level
            && !(1..=5).contains(&level)
        {
            return Err(HaseError::new_err(format!("trace level {level} is not between 1 and 5")));
        }
        let until = until.map(parse_time).transpose().map_err(|e| hase_error_in("until", &e))?;
        let cancel = Arc::new(AtomicBool::new(false));
        let target = match (&trace, keep_trace) {
            (Some(path), _) => TraceTarget::File(path.clone()),
            (None, true) => TraceTarget::Memory,
            (None, false) => TraceTarget::None,
        };
        let options = RunOptions {
            seed,
            level,
            until,
            trace: target,
            fingerprint,
            base_dir: self.base_dir.clone(),
            cancel: Some(cancel.clone()),
            progress_every: 200_000,
            live_values,
            threads: None,
            tie_order: tie_seed.map_or(TieOrder::Scheduled, |seed| TieOrder::Shuffled { seed }),
        };
        let project = self.project.clone();
        let result = run_in_background(py, "hase-python-run", &cancel, move || {
            run_project(&project, &options, |_| {})
        })?
        .map_err(|e| hase_error_in(&format!("cannot run {}", self.describe()), &e))?;
        let expected = expected_for_run_in(&self.project, &result.outcome, &self.base_dir);
        Ok(NativeRun::new(result, trace, expected))
    }

    fn __repr__(&self) -> String {
        format!("Project({})", self.describe())
    }
}

impl NativeProject {
    /// The project's name, and its file if it has one.
    fn describe(&self) -> String {
        match &self.path {
            Some(path) => format!("{} from {}", self.project.name, path.display()),
            None => self.project.name.clone(),
        }
    }

    /// The directory relative paths resolve against.
    pub fn base_dir(&self) -> &Path {
        &self.base_dir
    }
}
