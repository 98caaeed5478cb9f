//! [`apply`]: carrying out an [`EditCommand`], the one place the document changes. Compound
//! edits (group, ungroup, paste, align, template insertion) expand into batches of primitive
//! commands, applied all or none.

use super::edit::{align_moves, paste};
use super::edit_command::{Applied, EditCommand};
use super::error::CommandError;
use super::{compound, primitives, project, template};
use crate::document::Document;

/// Apply `command` to `doc`. On success returns the inverse command; on failure the document is
/// unchanged and the error says why (naming the instance and port at fault).
pub fn apply(doc: &mut Document, command: EditCommand) -> Result<Applied, CommandError> {
    let result = match command {
        EditCommand::Group { net, instances, type_name, instance_name } => {
            let batch = compound::group(doc, &net, &instances, &type_name, &instance_name)?;
            apply(doc, batch)
        }
        EditCommand::Ungroup { net, instance } => {
            let batch = compound::ungroup(doc, &net, &instance)?;
            apply(doc, batch)
        }
        EditCommand::Paste { net, fragment, offset } => {
            let batch = paste(doc, &net, &fragment, offset)?;
            apply(doc, batch)
        }
        EditCommand::Align { net, instances, how } => {
            let moves = align_moves(doc, &net, &instances, how);
            apply(doc, EditCommand::MoveInstances { net, moves })
        }
        EditCommand::InsertTemplate { net, insert } => {
            let batch = template::expand(doc, &net, &insert)?;
            apply(doc, batch)
        }
        EditCommand::SetWorkload { workload } => project::set_workload(doc, workload),
        EditCommand::SetRunSettings { settings } => project::set_run_settings(doc, settings),
        EditCommand::RestoreRun { workload, settings } => Ok(project::restore_run(doc, workload, settings)),
        EditCommand::SetRouting { net, routing } => project::set_routing(doc, net, routing),
        EditCommand::SetProjectName { name } => project::set_project_name(doc, name),
        EditCommand::SetPlacement { placement } => project::set_placement(doc, placement),
        EditCommand::Batch { label, commands } => apply_batch(doc, &label, commands),
        primitive => primitives::apply_primitive(doc, primitive),
    };
    if result.is_ok() {
        crate::document::tidy_layout(&mut doc.project);
    }
    result
}

fn apply_batch(doc: &mut Document, label: &str, commands: Vec<EditCommand>) -> Result<Applied, CommandError> {
    let mut inverses = Vec::with_capacity(commands.len());
    let mut created = Vec::new();
    for command in commands {
        match apply(doc, command) {
            Ok(applied) => {
                inverses.push(applied.inverse);
                created.extend(applied.created);
            }
            Err(e) => {
                // Roll back what was done so the document is unchanged.
                for inverse in inverses.into_iter().rev() {
                    let _ = apply(doc, inverse);
                }
                return Err(e);
            }
        }
    }
    created.retain(|n| !n.is_empty());
    inverses.reverse();
    Ok(Applied {
        inverse: EditCommand::Batch { label: format!("undo {label}"), commands: inverses },
        created,
    })
}
