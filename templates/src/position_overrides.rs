//! A generator recipe's per-position parameter overrides (`overrides`, keyed `p3` or
//! `fabric/r_1_2`) set on the instances of the network made from it.

use std::collections::BTreeMap;

use hase_engine::model::{Network, Project};

use crate::error::TemplateError;
use crate::project::FABRIC;

/// The network `key` lives in (the top level, or the generated compound type's inner network) and
/// the instance name within it.
fn position<'p>(
    project: &'p mut Project,
    compound: Option<&str>,
    key: &str,
) -> Option<(&'p mut Network, String)> {
    match (key.strip_prefix(&format!("{FABRIC}/")), compound) {
        (Some(inner), Some(type_name)) => {
            let ty = project.types.get_mut(type_name)?;
            Some((&mut ty.compound.as_mut()?.network, inner.to_string()))
        }
        _ => Some((&mut project.network, key.to_string())),
    }
}

/// Set each override on its generated instance. `strict`: a position the network does not have
/// is an error (expanding a saved project); otherwise it is dropped from the recipe (the network
/// was regenerated with other dimensions and no longer has it).
pub(crate) fn apply_overrides(project: &mut Project, strict: bool) -> Result<(), TemplateError> {
    let Some(recipe) = project.generator.clone() else { return Ok(()) };
    let mut kept = BTreeMap::new();
    for (key, params) in &recipe.overrides {
        let Some(instance) = position(project, recipe.compound.as_deref(), key)
            .and_then(|(net, name)| net.instances.get_mut(&name))
        else {
            if strict {
                return Err(TemplateError::UnknownPosition {
                    position: key.clone(),
                    template: recipe.template,
                });
            }
            continue;
        };
        for (name, value) in params {
            instance.params.insert(name.clone(), value.clone());
        }
        kept.insert(key.clone(), params.clone());
    }
    if let Some(generator) = &mut project.generator {
        generator.overrides = kept;
    }
    Ok(())
}
