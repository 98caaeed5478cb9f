//! Expected beside measured: the makespan a project should have from a closed form, or why no
//! closed form applies ([`NoClosedForm`]). The closed forms are the hop model of one message
//! ([`HopTiming::message`]) summed over a collective's steps where the steps never contend
//! (`collective_forms`), or, on a network at its `datasheet` level, the sheet's time of each call
//! (`sheet_form`); the end-to-end oracles check every one of them against the simulator, and the
//! experiment plots, the timing diagram and `hase run` show the result beside the run.

mod answer;
mod collective_forms;
mod hop_timing;
mod no_closed_form;
mod sheet_form;
mod stats_json;
mod uniform;

#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::Arc;

use hase_engine::model::{ParamValue, Project, Workload};
use hase_engine::time::SimTime;
use hase_templates::Topology;

pub use answer::{ClosedForm, Expected, FormSource};
pub use collective_forms::{Call, CallForm, call_form};
pub use hop_timing::{HopTiming, Switching};
pub use no_closed_form::NoClosedForm;
pub use sheet_form::{SheetNetwork, may_run_on_a_sheet, sheet_network};
pub use stats_json::{expected_json, stats_json_with_expected};
pub use uniform::{UniformDesign, uniform_design};

/// The program whose calls the closed forms cover.
const COLLECTIVE_LOOP: &str = "collective_loop";

/// Parameter `name` of the collective loop: the project's value, else the program's default.
fn loop_param(params: &std::collections::BTreeMap<String, ParamValue>, name: &str) -> Option<ParamValue> {
    params.get(name).cloned().or_else(|| {
        hase_entities::workload::programs::catalogue()
            .into_iter()
            .find(|p| p.name == COLLECTIVE_LOOP)?
            .params
            .into_iter()
            .find(|d| d.name == name)?
            .default
    })
}

/// The expected timing of `project`'s run, or why it has no closed form; a data sheet the network
/// runs on is read relative to the working directory (see [`expected_run_in`]).
pub fn expected_run(project: &Project) -> Result<Expected, NoClosedForm> {
    expected_run_in(project, Path::new("."))
}

/// The expected timing of `project`'s run, with files it names (a data sheet) relative to
/// `base_dir`, or why it has no closed form.
pub fn expected_run_in(project: &Project, base_dir: &Path) -> Result<Expected, NoClosedForm> {
    let params = match &project.workload {
        Workload::Program { name, params } if name == COLLECTIVE_LOOP => params,
        Workload::Program { name, .. } => return Err(NoClosedForm::Workload(format!("program {name}"))),
        Workload::Idle => return Err(NoClosedForm::Workload("idle".into())),
        Workload::Streams { .. } => return Err(NoClosedForm::Workload("of instruction streams".into())),
        Workload::TimeIndependentTrace { .. } => return Err(NoClosedForm::Workload("of a trace".into())),
    };
    if !project.placement.is_all() {
        return Err(NoClosedForm::Placement);
    }
    let text = |name: &str| match loop_param(params, name) {
        Some(ParamValue::Text(t)) => t,
        _ => String::new(),
    };
    let count = |name: &str| loop_param(params, name).and_then(|v| v.as_int()).map_or(0, |v| v.max(0) as u64);
    let operation = text("operation");
    let bytes = if operation == "barrier" { 0 } else { count("message_bytes") };
    let calls = count("iterations");
    let compute = match loop_param(params, "compute_time") {
        Some(ParamValue::Time(t)) => t,
        _ => SimTime::ZERO,
    };
    if may_run_on_a_sheet(project) {
        let model =
            crate::runner::elaborate_project(project).map_err(|e| NoClosedForm::Invalid(Arc::new(e)))?;
        if let Some(sheet) = sheet_network(&model, base_dir)? {
            let call = sheet.call_time(&operation, bytes)?;
            return Ok(Expected {
                makespan: (call + compute).times(calls),
                call,
                calls,
                compute,
                form: ClosedForm {
                    operation,
                    algorithm: String::new(),
                    network: sheet.describe(),
                    formula: "t(p, d)",
                    source: FormSource::DataSheet,
                },
            });
        }
    }
    let recipe = project.generator.as_ref().ok_or(NoClosedForm::NotATemplate)?;
    let edited =
        || NoClosedForm::EditedNetwork { template: format!("{} {:?}", recipe.template, recipe.dims) };
    let topology = Topology::parse(&recipe.template, &recipe.dims).map_err(|_| edited())?;
    let mut algorithm = text("algorithm");
    if !matches!(topology, Topology::Ring { .. } | Topology::Linear { .. } | Topology::Hypercube { .. }) {
        // No closed form lives on other families: said before elaborating a large network.
        return Err(NoClosedForm::Collective { operation, algorithm, topology: topology.name().to_string() });
    }
    let model = crate::runner::elaborate_project(project).map_err(|e| NoClosedForm::Invalid(Arc::new(e)))?;
    let design = uniform_design(&model)?;
    let counts = topology.counts();
    if design.counts != (counts.endpoints, counts.switches, counts.switch_links + counts.endpoint_links) {
        return Err(edited());
    }
    if algorithm == "default" {
        let chosen = uniform::processor_text(&model, default_algorithm_param(&operation))?;
        algorithm = chosen.unwrap_or_default();
    }
    let call = Call {
        operation: &operation,
        algorithm: &algorithm,
        bytes,
        topology: &topology,
        timing: &design.timing,
        eager_limit_bytes: design.eager_limit_bytes,
    };
    let form = call_form(&call)?;
    if !form.symmetric && calls > 1 {
        return Err(NoClosedForm::Overlapping { operation, algorithm });
    }
    Ok(Expected {
        makespan: (form.time + compute).times(calls),
        call: form.time,
        calls,
        compute,
        form: ClosedForm {
            operation,
            algorithm,
            network: topology.describe(),
            formula: form.formula,
            source: FormSource::HopModel,
        },
    })
}

/// The processor parameter naming the default algorithm of `operation` (`allreduce_algorithm`).
fn default_algorithm_param(operation: &str) -> &'static str {
    match operation {
        "barrier" => "barrier_algorithm",
        "bcast" => "bcast_algorithm",
        "allreduce" => "allreduce_algorithm",
        "allgather" => "allgather_algorithm",
        "alltoall" => "alltoall_algorithm",
        "reduce_scatter" => "reduce_scatter_algorithm",
        "scan" => "scan_algorithm",
        _ => "algorithm",
    }
}

/// The expected timing of a run of `project` that ended with `outcome`, with files the project
/// names (a data sheet) relative to `base_dir`: asked only of a completed run (a cancelled or
/// deadlocked one has no makespan to set it beside).
pub fn expected_for_run_in(
    project: &Project,
    outcome: &hase_engine::kernel::RunOutcome,
    base_dir: &Path,
) -> Option<Result<Expected, NoClosedForm>> {
    (*outcome == hase_engine::kernel::RunOutcome::Completed).then(|| expected_run_in(project, base_dir))
}
