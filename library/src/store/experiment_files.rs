//! Experiments in and out of the store as files: a whole experiment (description, spec, frozen
//! project and every run) as one RON file that imports into any hase database, and the results
//! as CSV. Files are written atomically (a crash leaves the old file or the new one).

use std::path::Path;

use hase_engine::FilePlace;
use hase_engine::limits::quote;
use hase_engine::model::{Project, SCHEMA_VERSION, write_atomic};

use crate::generated::project_to_ron;

use super::error::{ExportReason, StoreError};
use super::experiment_header::{ExperimentHeader, NoRuns};
use super::experiment_records::HeaderRecord;
use super::experiments::ExperimentStore;
use crate::experiment::csv::csv_text;
use crate::experiment::error::SpecOrigin;
use crate::experiment::plan::ExperimentPlan;
use crate::experiment::record::RunRecord;
use crate::experiment::spec::SweepSpec;
use crate::experiment::spec_file::spec_to_ron;

/// Version of the experiment file format this build writes and the newest it reads.
pub const EXPERIMENT_EXPORT_VERSION: u32 = 1;

/// A whole experiment as an export file.
pub type ExperimentExport = ExperimentHeader<SweepSpec, Project, Vec<RunRecord>>;

impl ExperimentStore {
    /// The whole experiment as a file's contents.
    pub fn export_file(&self, id: u64) -> Result<ExperimentExport, StoreError> {
        let info = self.info(id)?;
        Ok(ExperimentHeader {
            experiment_file_version: EXPERIMENT_EXPORT_VERSION,
            name: info.name,
            hase_version: info.hase_version,
            started_at_ms: info.started_at.unix_ms(),
            finished_at_ms: info.finished_at.map(super::timestamp::Timestamp::unix_ms),
            source: info.source,
            base_dir: info.base_dir.display().to_string(),
            points: info.points,
            repetitions: info.repetitions,
            variables: info.variables,
            metrics: info.metrics,
            spec: info.spec,
            project: info.project,
            runs: self.runs(id)?,
        })
    }

    /// Write the whole experiment to `path` as RON.
    pub fn export_ron(&self, id: u64, path: &Path) -> Result<(), StoreError> {
        let file = self.export_file(id)?;
        let config =
            ron::ser::PrettyConfig::new().depth_limit(14).indentor("  ".to_string()).struct_names(false);
        let text = ron::ser::to_string_pretty(&file, config)
            .map_err(|e| self.corrupt(&format!("experiment {id} cannot be written as RON: {e}")))?;
        write_atomic(path, text.as_bytes()).map_err(|e| StoreError::io(path, e))
    }

    /// Write the experiment's results to `path` as CSV (see `experiment::csv`).
    pub fn export_csv(&self, id: u64, path: &Path) -> Result<(), StoreError> {
        let info = self.info(id)?;
        let text = csv_text(&info.variables, &info.metrics, &self.runs(id)?);
        write_atomic(path, text.as_bytes()).map_err(|e| StoreError::io(path, e))
    }

    /// Import an experiment file written by [`ExperimentStore::export_ron`] as a new experiment
    /// (a new id; nothing existing changes). Errors name the file, line and column.
    pub fn import_ron(&self, path: &Path) -> Result<u64, StoreError> {
        let shown = path.display().to_string();
        let text = hase_engine::limits::read_text_input(path).map_err(|e| StoreError::io(path, e))?;
        let file = read_export(&text, &shown)?;
        let header = HeaderRecord {
            experiment_file_version: 0,
            name: file.name.clone(),
            hase_version: file.hase_version.clone(),
            started_at_ms: file.started_at_ms,
            finished_at_ms: file.finished_at_ms,
            source: file.source.clone(),
            base_dir: file.base_dir.clone(),
            points: file.points,
            repetitions: file.repetitions,
            variables: file.variables.clone(),
            metrics: file.metrics.clone(),
            spec: spec_to_ron(&file.spec),
            project: project_to_ron(&file.project)?,
            runs: NoRuns,
        };
        self.insert_new(&header, &file.runs)
    }
}

/// Plan the file's spec on its project and refuse a header that says otherwise: points,
/// repetitions, variable and metric names.
fn check_header_against_spec(file: &ExperimentExport) -> Result<(), ExportReason> {
    let base_dir = std::path::PathBuf::from(&file.base_dir);
    let plan = ExperimentPlan::new(file.spec.clone(), file.project.clone(), base_dir, &SpecOrigin::Code)
        .map_err(|e| ExportReason::SpecDoesNotPlan {
            reason: hase_engine::limits::printable_error(&e.to_string()),
        })?;
    let contradiction = |field, header: String, planned: String| {
        Err(ExportReason::HeaderContradictsSpec { field, header: quote(&header), planned: quote(&planned) })
    };
    if plan.point_count() != file.points {
        return contradiction("points", file.points.to_string(), plan.point_count().to_string());
    }
    if plan.spec().repetitions != file.repetitions {
        return contradiction(
            "repetitions",
            file.repetitions.to_string(),
            plan.spec().repetitions.to_string(),
        );
    }
    if plan.variable_names() != file.variables {
        return contradiction("variables", file.variables.join(", "), plan.variable_names().join(", "));
    }
    if plan.metric_names() != file.metrics {
        return contradiction("metrics", file.metrics.join(", "), plan.metric_names().join(", "));
    }
    Ok(())
}

/// Read an experiment export's text (`shown` names it in errors) and check it: format and schema
/// versions, the header against what its spec plans, every run inside the plan, the name. Nothing
/// is stored.
pub fn read_export(text: &str, shown: &str) -> Result<ExperimentExport, StoreError> {
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let file: ExperimentExport =
        options.from_str(text).map_err(|e: ron::error::SpannedError| StoreError::ExportSyntax {
            place: FilePlace::at(shown, e.span.start.line, e.span.start.col),
            source: e.code,
        })?;
    let invalid = |reason: ExportReason| StoreError::ExportInvalid { path: shown.to_string(), reason };
    if file.experiment_file_version == 0 || file.experiment_file_version > EXPERIMENT_EXPORT_VERSION {
        return Err(invalid(ExportReason::Version {
            version: file.experiment_file_version,
            latest: EXPERIMENT_EXPORT_VERSION,
        }));
    }
    if file.project.schema_version > SCHEMA_VERSION {
        return Err(invalid(ExportReason::NewerProject {
            version: file.project.schema_version,
            latest: SCHEMA_VERSION,
        }));
    }
    check_header_against_spec(&file).map_err(invalid)?;
    for run in &file.runs {
        if run.key.point >= file.points
            || run.key.repetition >= file.repetitions
            || run.metrics.len() != file.metrics.len()
            || run.values.len() != file.variables.len()
        {
            return Err(invalid(ExportReason::RunOutsidePlan { key: run.key }));
        }
    }
    super::projects::validate_name(&file.name)?;
    Ok(file)
}
