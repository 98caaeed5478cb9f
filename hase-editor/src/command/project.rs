//! Project-wide primitive commands: the workload, the rank placement, the run settings, a network's
//! routing rule and the project's name.
//! Each checks the new value first (a refusal changes nothing and says why) and returns its inverse.

use hase_engine::model::{ParamValue, Placement, Routing, RunSettings, StreamSource, Workload};
use hase_entities::workload::programs;
use hase_entities::workload::stream::parse_stream;

use super::edit_command::{Applied, EditCommand};
use super::error::CommandError;
use crate::document::{Document, NetworkId};

/// Trace levels a run accepts (HASE's 1 to 5).
pub const TRACE_LEVELS: std::ops::RangeInclusive<u8> = 1..=5;

/// Replace the workload, after checking what changed: a program must exist and take every given
/// parameter with a value of its kind; an inline stream that differs from the current one must
/// parse (files are read when the project runs).
pub(super) fn set_workload(doc: &mut Document, workload: Workload) -> Result<Applied, CommandError> {
    check_workload(&doc.project.workload, &workload)?;
    let inverse = restore_run(doc, workload, doc.project.settings.clone()).inverse;
    Ok(Applied { inverse, created: Vec::new() })
}

fn check_workload(old: &Workload, new: &Workload) -> Result<(), CommandError> {
    match new {
        Workload::Idle | Workload::TimeIndependentTrace { .. } => Ok(()),
        Workload::Program { name, params } => check_program(name, params.iter()),
        Workload::Streams { streams } => {
            let before = match old {
                Workload::Streams { streams } => Some(streams),
                _ => None,
            };
            for (rank, source) in streams {
                let unchanged = before.and_then(|b| b.get(rank)) == Some(source);
                if let (StreamSource::Inline(text), false) = (source, unchanged) {
                    parse_stream(text, &format!("rank {rank} stream"))?;
                }
            }
            Ok(())
        }
    }
}

/// Check a built-in program's name and parameter values against the catalogue.
pub fn check_program<'a>(
    name: &str,
    params: impl IntoIterator<Item = (&'a String, &'a ParamValue)>,
) -> Result<(), CommandError> {
    let catalogue = programs::catalogue();
    let Some(info) = catalogue.iter().find(|p| p.name == name) else {
        let known: Vec<&str> = catalogue.iter().map(|p| p.name).collect();
        return Err(CommandError::UnknownProgram { name: name.to_string(), known: known.join(", ") });
    };
    for (param, value) in params {
        let def = info.params.iter().find(|d| &d.name == param).ok_or_else(|| {
            CommandError::UnknownProgramParam { program: name.to_string(), param: param.clone() }
        })?;
        def.kind
            .check(value)
            .map_err(|source| CommandError::BadValue { at: format!("{name}.{param}"), source })?;
    }
    Ok(())
}

/// Replace the rank placement; a list must name at least one processor (whether they exist is
/// checked when the project runs, against its rank numbering).
pub(super) fn set_placement(doc: &mut Document, placement: Placement) -> Result<Applied, CommandError> {
    let empty = match &placement {
        Placement::All => false,
        Placement::First(n) => *n == 0,
        Placement::Ranks(r) => r.is_empty(),
        Placement::Hosts(h) => h.is_empty(),
    };
    if empty {
        return Err(CommandError::EmptyPlacement);
    }
    let old = std::mem::replace(&mut doc.project.placement, placement);
    Ok(Applied { inverse: EditCommand::SetPlacement { placement: old }, created: Vec::new() })
}

/// Replace the run settings; the trace level must be 1 to 5.
pub(super) fn set_run_settings(doc: &mut Document, settings: RunSettings) -> Result<Applied, CommandError> {
    if !TRACE_LEVELS.contains(&settings.trace_level) {
        return Err(CommandError::TraceLevel {
            level: settings.trace_level,
            min: *TRACE_LEVELS.start(),
            max: *TRACE_LEVELS.end(),
        });
    }
    let inverse = restore_run(doc, doc.project.workload.clone(), settings).inverse;
    Ok(Applied { inverse, created: Vec::new() })
}

/// Put `workload` and `settings` in place unchecked; the inverse puts the current ones back.
pub(super) fn restore_run(doc: &mut Document, workload: Workload, settings: RunSettings) -> Applied {
    let workload = std::mem::replace(&mut doc.project.workload, workload);
    let settings = std::mem::replace(&mut doc.project.settings, settings);
    Applied { inverse: EditCommand::RestoreRun { workload, settings }, created: Vec::new() }
}

/// Set the routing rule of network `net`.
pub(super) fn set_routing(
    doc: &mut Document,
    net: NetworkId,
    routing: Routing,
) -> Result<Applied, CommandError> {
    let network = doc.network_mut(&net).ok_or_else(|| CommandError::NoNetwork(net.clone()))?;
    let old = std::mem::replace(&mut network.routing, routing);
    Ok(Applied { inverse: EditCommand::SetRouting { net, routing: old }, created: Vec::new() })
}

/// Rename the project; the name must be usable as a library key (not empty, no surrounding
/// spaces or control characters).
pub(super) fn set_project_name(doc: &mut Document, name: String) -> Result<Applied, CommandError> {
    if let Some(reason) = hase_library::store::name_problem(&name) {
        return Err(CommandError::ProjectName { name: hase_engine::limits::quote(&name), reason });
    }
    let old = std::mem::replace(&mut doc.project.name, name);
    Ok(Applied { inverse: EditCommand::SetProjectName { name: old }, created: Vec::new() })
}
