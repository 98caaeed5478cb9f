//! Template requests as generator recipes and back: [`template_project`](crate::template_project)
//! records the recipe in the project it makes, and [`regenerate`] builds the network again from a
//! project's recipe with other dimensions or another topology (what a sweep over `template.dims`
//! or `template.topology` does per point).

use hase_engine::model::{GeneratorRecipe, Project, RecipeLink, TypeRegistry};

use crate::error::TemplateError;
use crate::position_overrides::apply_overrides;
use crate::project::{ProjectForm, template_project};
use crate::spec::{LinkParams, TemplateSpec};
use crate::topology::Topology;

fn to_recipe_link(link: LinkParams) -> RecipeLink {
    RecipeLink { latency: link.latency, bandwidth_bytes_per_s: link.bandwidth_bytes_per_s }
}

fn from_recipe_link(link: RecipeLink) -> LinkParams {
    LinkParams { latency: link.latency, bandwidth_bytes_per_s: link.bandwidth_bytes_per_s }
}

impl TemplateSpec {
    /// The recipe of this request in `form`.
    pub fn recipe(&self, form: &ProjectForm) -> GeneratorRecipe {
        GeneratorRecipe {
            template: self.topology.name().to_string(),
            dims: self.topology.dims(),
            switch_type: self.switch_type.clone(),
            endpoint_type: self.endpoint_type.clone(),
            link: to_recipe_link(self.link),
            endpoint_link: to_recipe_link(self.endpoint_link),
            switch_params: self.switch_params.clone(),
            endpoint_params: self.endpoint_params.clone(),
            up_choice: self.up_choice,
            down_choice: self.down_choice,
            compound: match form {
                ProjectForm::Flat => None,
                ProjectForm::Compound { type_name } => Some(type_name.clone()),
            },
            overrides: std::collections::BTreeMap::new(),
        }
    }

    /// The request and form a recipe describes (its topology and dimensions checked).
    pub fn from_recipe(recipe: &GeneratorRecipe) -> Result<(TemplateSpec, ProjectForm), TemplateError> {
        let topology = Topology::parse(&recipe.template, &recipe.dims)?;
        let spec = TemplateSpec {
            topology,
            switch_type: recipe.switch_type.clone(),
            endpoint_type: recipe.endpoint_type.clone(),
            link: from_recipe_link(recipe.link),
            endpoint_link: from_recipe_link(recipe.endpoint_link),
            switch_params: recipe.switch_params.clone(),
            endpoint_params: recipe.endpoint_params.clone(),
            up_choice: recipe.up_choice,
            down_choice: recipe.down_choice,
        };
        let form = match &recipe.compound {
            None => ProjectForm::Flat,
            Some(type_name) => ProjectForm::Compound { type_name: type_name.clone() },
        };
        Ok((spec, form))
    }
}

/// Generate `project`'s network again from `recipe` (usually its own recipe with other dimensions or
/// another topology). The new network, its layout and its generated compound type replace the old
/// ones; the name, description, workload, run settings and every other project type are kept. A
/// compound type that carried the old topology's default name (`FatTree_k2_n3`) takes the new
/// topology's; a name the user chose stays. The recipe's per-position overrides are applied where
/// the new network has the position (the others are dropped from the result's recipe). The result
/// records the recipe it was made from.
pub fn regenerate(
    project: &Project,
    recipe: &GeneratorRecipe,
    registry: &TypeRegistry,
) -> Result<Project, TemplateError> {
    let (spec, mut form) = TemplateSpec::from_recipe(recipe)?;
    let old_type = project.generator.as_ref().and_then(|r| r.compound.clone());
    if let ProjectForm::Compound { type_name } = &mut form {
        let old_default = project
            .generator
            .as_ref()
            .and_then(|r| Topology::parse(&r.template, &r.dims).ok())
            .map(|t| t.type_name());
        if old_default.as_deref() == Some(type_name.as_str()) {
            *type_name = spec.topology.type_name();
        }
    }
    let mut fresh = template_project(&spec, registry, &project.name, &form)?;
    for (name, ty) in &project.types {
        if Some(name) != old_type.as_ref() && !fresh.types.contains_key(name) {
            fresh.types.insert(name.clone(), ty.clone());
            if let Some(layout) = project.layout.types.get(name) {
                fresh.layout.types.insert(name.clone(), layout.clone());
            }
        }
    }
    fresh.description.clone_from(&project.description);
    fresh.workload = project.workload.clone();
    fresh.settings = project.settings.clone();
    fresh.schema_version = project.schema_version;
    if let Some(generator) = &mut fresh.generator {
        generator.overrides.clone_from(&recipe.overrides);
    }
    apply_overrides(&mut fresh, false)?;
    Ok(fresh)
}

#[cfg(test)]
mod tests {
    use hase_entities::catalogue::builtin_registry;

    use super::*;

    fn mesh(form: &ProjectForm) -> Project {
        let mut spec = TemplateSpec::new(Topology::Mesh2D { x: 2, y: 2 });
        spec.link.latency = hase_engine::time::SimTime::from_ns(70);
        template_project(&spec, &builtin_registry(), "m", form).unwrap()
    }

    #[test]
    fn generated_projects_record_their_recipe() {
        let project = mesh(&ProjectForm::Flat);
        let recipe = project.generator.clone().unwrap();
        assert_eq!((recipe.template.as_str(), recipe.dims_text().as_str()), ("mesh2d", "2x2"));
        assert_eq!(recipe.link.latency.as_ps(), 70_000);
        let (spec, form) = TemplateSpec::from_recipe(&recipe).unwrap();
        assert_eq!(spec.recipe(&form), recipe, "recipe → request → recipe is the identity");
    }

    #[test]
    fn regenerating_with_other_dims_keeps_workload_and_settings() {
        let mut project = mesh(&ProjectForm::Flat);
        project.settings.seed = 42;
        project.workload =
            hase_engine::model::Workload::Program { name: "ping_pong".into(), params: [].into() };
        let mut recipe = project.generator.clone().unwrap();
        recipe.dims = vec![3, 4];
        let bigger = regenerate(&project, &recipe, &builtin_registry()).unwrap();
        let processors = bigger.network.instances.values().filter(|i| i.type_name == "Processor").count();
        assert_eq!(processors, 12);
        assert_eq!((bigger.settings.seed, &bigger.workload), (42, &project.workload));
        assert_eq!(bigger.generator.as_ref().unwrap().dims, [3, 4]);
        assert_eq!(bigger.network.links[0].latency.as_ps(), 70_000, "link parameters come from the recipe");
    }

    #[test]
    fn a_compound_network_takes_the_new_topology_type_name() {
        let project = mesh(&ProjectForm::Compound { type_name: "Mesh2D_2x2".into() });
        let mut recipe = project.generator.clone().unwrap();
        recipe.template = "torus2d".into();
        recipe.dims = vec![4, 2];
        let torus = regenerate(&project, &recipe, &builtin_registry()).unwrap();
        assert!(torus.types.contains_key("Torus2D_4x2"), "{:?}", torus.types.keys());
        assert!(!torus.types.contains_key("Mesh2D_2x2"), "the old generated type goes");
        assert_eq!(torus.network.instances["fabric"].type_name, "Torus2D_4x2");
        let bad = GeneratorRecipe { dims: vec![3], ..recipe };
        assert!(matches!(
            regenerate(&project, &bad, &builtin_registry()),
            Err(TemplateError::Dimensions { .. })
        ));
    }
}
