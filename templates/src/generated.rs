//! A generated network kept as its recipe. [`expand`] makes the network of a project that stores
//! only its generator recipe (`Project::network_from_recipe`), applying the recipe's per-position
//! parameter overrides; [`compact`] turns a project whose network is its recipe's expansion —
//! parameter edits aside, which become overrides — back into the recipe form.
//!
//! Nothing is lost by compacting: [`compact`] answers `None` unless expanding its result gives the
//! project back exactly, so a project with an instance or link added or removed, an icon moved or
//! the generated compound type edited keeps its network stored in full.

use std::collections::BTreeMap;

use hase_engine::model::{Network, NetworkLayout, ParamMap, ParamValue, Project, TypeRegistry};

use crate::error::TemplateError;
use crate::position_overrides::apply_overrides;
use crate::project::FABRIC;
use crate::recipe::regenerate;

/// The prefix of an override key naming a switch inside the generated compound type.
fn inner_key(name: &str) -> String {
    format!("{FABRIC}/{name}")
}

/// `project` with its network made from its recipe when it stores only the recipe
/// (`network_from_recipe`); any other project is returned as it is. The display choices the
/// recipe form kept (`layout.top.displayed`, and those of the generated compound type) are put back.
pub fn expand(project: Project, registry: &TypeRegistry) -> Result<Project, TemplateError> {
    if !project.network_from_recipe {
        return Ok(project);
    }
    let recipe = project.generator.clone().ok_or(TemplateError::NoRecipe)?;
    let mut fresh = regenerate(&project, &recipe, registry)?;
    fresh.generator = Some(recipe.clone());
    apply_overrides(&mut fresh, true)?;
    fresh.placement = project.placement;
    fresh.layout.top.displayed = project.layout.top.displayed;
    if let Some(type_name) = &recipe.compound
        && let Some(kept) = project.layout.types.get(type_name)
    {
        fresh.layout.types.entry(type_name.clone()).or_default().displayed.clone_from(&kept.displayed);
    }
    fresh.network_from_recipe = false;
    Ok(fresh)
}

/// Parameters of `edited` that differ from `generated` (as overrides), or `None` when `edited`
/// lacks one `generated` sets (an override cannot remove a value).
fn param_changes(generated: &ParamMap, edited: &ParamMap) -> Option<BTreeMap<String, ParamValue>> {
    if generated.keys().any(|k| !edited.contains_key(k)) {
        return None;
    }
    Some(
        edited
            .iter()
            .filter(|(k, v)| generated.get(*k) != Some(*v))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    )
}

/// Overrides turning `generated`'s instances into `edited`'s (same names only; the round trip in
/// [`compact`] checks everything else).
fn overrides_between(
    generated: &Network,
    edited: &Network,
    key: impl Fn(&str) -> String,
    into: &mut BTreeMap<String, BTreeMap<String, ParamValue>>,
) -> Option<()> {
    for (name, instance) in &edited.instances {
        let Some(base) = generated.instances.get(name) else { continue };
        let changes = param_changes(&base.params, &instance.params)?;
        if !changes.is_empty() {
            into.insert(key(name), changes);
        }
    }
    Some(())
}

/// True when `a` and `b` are equal but for their recipes' overrides (an expanded project records
/// the overrides its parameter edits became; one edited by hand has none).
pub(crate) fn same_but_overrides(a: &Project, b: &Project) -> bool {
    let overrides = |p: &Project| p.generator.as_ref().map(|g| g.overrides.clone()).unwrap_or_default();
    if overrides(a) == overrides(b) {
        return a == b;
    }
    let mut a = a.clone();
    if let Some(g) = &mut a.generator {
        g.overrides = overrides(b);
    }
    a == *b
}

/// The inner network of the project's compound type `type_name`.
fn inner_network<'p>(project: &'p Project, type_name: &str) -> Option<&'p Network> {
    project.types.get(type_name).and_then(|t| t.compound.as_ref()).map(|c| &c.network)
}

/// The recipe form of `project` — its network, layout positions and generated compound type left
/// out, hand-edited parameters as per-position overrides — or `None` when the project has no
/// recipe, is in recipe form already, or differs from its recipe's expansion in anything an
/// override cannot say (then it must be stored in full).
pub fn compact(project: &Project, registry: &TypeRegistry) -> Option<Project> {
    if project.network_from_recipe {
        return None;
    }
    let mut recipe = project.generator.clone()?;
    recipe.overrides.clear();
    let base = regenerate(project, &recipe, registry).ok()?;
    let mut overrides = BTreeMap::new();
    overrides_between(&base.network, &project.network, str::to_string, &mut overrides)?;
    let mut compact = project.clone();
    if let Some(type_name) = &recipe.compound {
        overrides_between(
            inner_network(&base, type_name)?,
            inner_network(project, type_name)?,
            inner_key,
            &mut overrides,
        )?;
        compact.types.remove(type_name);
        match compact.layout.types.remove(type_name) {
            Some(layout) if !layout.displayed.is_empty() => {
                compact.layout.types.insert(
                    type_name.clone(),
                    NetworkLayout { displayed: layout.displayed, ..NetworkLayout::default() },
                );
            }
            _ => {}
        }
    }
    recipe.overrides = overrides;
    compact.generator = Some(recipe);
    compact.network = Network::default();
    compact.layout.top =
        NetworkLayout { displayed: project.layout.top.displayed.clone(), ..NetworkLayout::default() };
    compact.network_from_recipe = true;
    let back = expand(compact.clone(), registry).ok()?;
    (same_but_overrides(&back, project)).then_some(compact)
}

#[cfg(test)]
mod tests {
    use hase_engine::model::{Instance, Link, ParamDisplay, PortRef, Pos};
    use hase_entities::catalogue::builtin_registry;

    use super::*;
    use crate::project::{ProjectForm, template_project};
    use crate::spec::TemplateSpec;
    use crate::topology::Topology;

    fn torus(form: &ProjectForm) -> Project {
        let spec = TemplateSpec::new(Topology::Torus2D { x: 4, y: 3 });
        template_project(&spec, &builtin_registry(), "t", form).unwrap()
    }

    fn round_trip(project: &Project) -> Project {
        let compact = compact(project, &builtin_registry()).expect("compactable");
        assert!(compact.network.instances.is_empty() && compact.network.links.is_empty());
        assert!(compact.layout.top.positions.is_empty());
        let text = hase_engine::model::project_to_ron(&compact).unwrap();
        let read = hase_engine::model::project_from_ron(&text, "t.ron").unwrap();
        assert!(read.network_from_recipe);
        let back = expand(read, &builtin_registry()).unwrap();
        assert!(same_but_overrides(&back, project), "expanding the recipe form gives the project back");
        assert_eq!(back.generator.as_ref().unwrap().overrides, compact.generator.as_ref().unwrap().overrides);
        compact
    }

    #[test]
    fn a_generated_project_is_its_recipe_in_both_forms() {
        for form in [ProjectForm::Flat, ProjectForm::Compound { type_name: "Torus2D_4x3".into() }] {
            let project = torus(&form);
            let compact = round_trip(&project);
            assert!(compact.types.is_empty(), "the generated compound type is not stored");
            assert!(compact.generator.unwrap().overrides.is_empty());
        }
    }

    #[test]
    fn parameter_edits_become_overrides_and_come_back() {
        let mut project = torus(&ProjectForm::Compound { type_name: "Torus2D_4x3".into() });
        let ns = ParamValue::Time(hase_engine::time::SimTime::from_ns(7));
        let p2 = project.network.instances.get_mut("p2").unwrap();
        p2.params.insert("max_packet".into(), ParamValue::Int(512));
        let inner = &mut project.types.get_mut("Torus2D_4x3").unwrap().compound.as_mut().unwrap().network;
        let router = inner.instances.values_mut().next().unwrap();
        router.params.insert("routing_delay".into(), ns.clone());
        project.layout.top.displayed.insert("p2".into(), [("sent".to_string(), ParamDisplay::Value)].into());
        let compact = round_trip(&project);
        let overrides = &compact.generator.as_ref().unwrap().overrides;
        assert_eq!(overrides["p2"]["max_packet"], ParamValue::Int(512));
        let inner_key = overrides.keys().find(|k| k.starts_with("fabric/")).unwrap();
        assert_eq!(overrides[inner_key]["routing_delay"], ns);
        assert_eq!(overrides.len(), 2);
    }

    #[test]
    fn structural_edits_keep_the_network_stored_in_full() {
        let base = torus(&ProjectForm::Flat);
        let mut added = base.clone();
        added.network.instances.insert("extra".into(), Instance::of("Processor"));
        let mut unlinked = base.clone();
        unlinked.network.links.pop();
        let mut moved = base.clone();
        *moved.layout.top.positions.values_mut().next().unwrap() = Pos::new(1.0, 2.0);
        let mut reset = base.clone();
        reset.network.instances.get_mut("p0").unwrap().params.remove("rank");
        let mut relinked = base.clone();
        let first = relinked.network.links[0].clone();
        relinked.network.links[0] = Link { b: PortRef::new("elsewhere", "x"), ..first };
        for (what, edited) in [
            ("added", added),
            ("unlinked", unlinked),
            ("moved", moved),
            ("reset", reset),
            ("relinked", relinked),
        ] {
            assert!(compact(&edited, &builtin_registry()).is_none(), "{what}: must stay expanded");
        }
    }

    #[test]
    fn expanding_refuses_overrides_of_missing_positions_and_projects_without_recipe() {
        let mut compact = compact(&torus(&ProjectForm::Flat), &builtin_registry()).unwrap();
        compact.generator.as_mut().unwrap().overrides.insert("p99".into(), BTreeMap::new());
        let err = expand(compact.clone(), &builtin_registry()).unwrap_err();
        assert!(
            matches!(&err, TemplateError::UnknownPosition { position, .. } if position == "p99"),
            "{err}"
        );
        compact.generator = None;
        assert!(matches!(expand(compact, &builtin_registry()), Err(TemplateError::NoRecipe)));
        let plain = Project::new("hand-drawn");
        assert_eq!(expand(plain.clone(), &builtin_registry()).unwrap(), plain, "other projects pass through");
        assert!(super::compact(&plain, &builtin_registry()).is_none());
    }
}
