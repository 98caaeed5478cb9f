//! Swept variables: what a target names, its values read with the target's kind, and how a point's
//! values change a copy of the project.
//!
//! - any `--set` target (see [`crate::overrides`]), including `PATH.level` of a compound instance;
//! - `algorithm`: the collective algorithm of the workload (`workload.algorithm`);
//! - `template.dims`: the network generated again from the project's generator recipe with these
//!   dimensions (`4x4,8x8`; a one-dimensional template also takes ranges, `4..16 +4`); the
//!   program's rank count follows the number of processors;
//! - `template.topology`: another template (`fat_tree:2x3,binary_tree:8`; a bare name keeps the
//!   recipe's dimensions), so one experiment compares networks.
//!
//! A point applies the template variables first (topology, then dimensions, whatever their order
//! in the spec), then the others in spec order.

use hase_engine::model::{GeneratorRecipe, ParamDef, ParamKind, ParamValue, Project};
use hase_templates::{TemplateError, Topology, regenerate};

use super::values::{ValuesError, canonical, is_range, parse_values, split_items};
use crate::catalogue::registry_for;
use crate::overrides::{SetError, SetReason, apply_value, target_param};

/// Target of the dimensions variable.
pub const TEMPLATE_DIMS: &str = "template.dims";
/// Target of the topology variable.
pub const TEMPLATE_TOPOLOGY: &str = "template.topology";
/// Short target of the workload's collective algorithm.
pub const ALGORITHM: &str = "algorithm";

/// What a variable changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariableTarget {
    /// A `--set` target (`algorithm` is stored as `workload.algorithm`).
    Set(String),
    /// The template's dimensions.
    Dims,
    /// The template (and, if given, its dimensions).
    Topology,
}

/// One value of a variable.
#[derive(Clone, Debug, PartialEq)]
pub struct VariableValue {
    /// Canonical text: what the CSV shows.
    pub text: String,
    /// The value as read with the target's kind (text for template values): what a `--set`
    /// target is set to, and what the constraint reads.
    pub value: ParamValue,
    /// What a template variable's value changes in the generator recipe (`None` for others).
    pub recipe: Option<RecipeChange>,
}

/// What a template variable's value changes in the project's generator recipe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecipeChange {
    /// Another template (`template.topology`); `None` keeps the recipe's.
    pub template: Option<&'static str>,
    /// Other dimensions; `None` keeps the recipe's.
    pub dims: Option<Vec<u32>>,
}

/// Why a variable cannot be read, or a point not applied.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum VariableError {
    /// A template variable on a project without a generator recipe.
    #[error(
        "the project has no generator recipe (it was not made by a template, or predates recipes); \
         generate it with `hase new --template …` to sweep the network"
    )]
    NoRecipe,
    /// A range of dimensions for a template of several dimensions.
    #[error("`{item}`: template {template} has {count} dimensions; list them (`4x4,8x8`) instead of a range")]
    DimsRange {
        /// The range as written.
        item: String,
        /// The recipe's template.
        template: String,
        /// Its number of dimensions.
        count: usize,
    },
    /// Values that do not read.
    #[error(transparent)]
    Values(#[from] ValuesError),
    /// Dimensions that do not make the template.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// A topology value that does not make a template.
    #[error("`{item}`: {source}")]
    Topology {
        /// The value as written.
        item: String,
        /// The template's reason.
        source: Box<TemplateError>,
    },
    /// A `--set` target that does not name a parameter.
    #[error(transparent)]
    Target(#[from] SetReason),
    /// A point's value that cannot be set.
    #[error(transparent)]
    Set(#[from] SetError),
    /// The network cannot be generated again for a point.
    #[error("template {template} {dims}: {source}")]
    Regenerate {
        /// The template.
        template: String,
        /// Its dimensions as text.
        dims: String,
        /// The template's reason.
        source: Box<TemplateError>,
    },
}

/// A variable with its values, ready to apply.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// Column name.
    pub name: String,
    /// The target as written.
    pub target: String,
    /// What it changes.
    pub kind: VariableTarget,
    /// Its values, in order.
    pub values: Vec<VariableValue>,
}

/// The identifier a name has in a constraint: characters an expression reads as operators or
/// spaces become `_` (`fabric/r0.radix` → `fabric_r0.radix`).
pub fn expression_name(name: &str) -> String {
    name.chars()
        .map(|c| if "+-*/%^(),;=!<>&|\"".contains(c) || c.is_whitespace() { '_' } else { c })
        .collect()
}

/// Read a variable against the base project: its target and every value.
pub fn resolve(
    target: &str,
    values: &str,
    name: Option<&str>,
    project: &Project,
) -> Result<Variable, VariableError> {
    let target = target.trim();
    let name = name.map_or_else(|| target.to_string(), str::to_string);
    let (kind, values) = match target {
        TEMPLATE_DIMS => (VariableTarget::Dims, dims_values(values, recipe_of(project)?)?),
        TEMPLATE_TOPOLOGY => (VariableTarget::Topology, topology_values(values, recipe_of(project)?)?),
        _ => {
            let set_target = if target == ALGORITHM { "workload.algorithm" } else { target };
            let def = target_param(project, set_target).map_err(|e| e.reason)?;
            let values = parse_values(values, &def)?
                .into_iter()
                .map(|value| VariableValue { text: canonical(&value), value, recipe: None })
                .collect();
            (VariableTarget::Set(set_target.to_string()), values)
        }
    };
    Ok(Variable { name, target: target.to_string(), kind, values })
}

fn recipe_of(project: &Project) -> Result<&GeneratorRecipe, VariableError> {
    project.generator.as_ref().ok_or(VariableError::NoRecipe)
}

fn dims_text(dims: &[u32]) -> String {
    dims.iter().map(u32::to_string).collect::<Vec<_>>().join("x")
}

fn dims_values(text: &str, recipe: &GeneratorRecipe) -> Result<Vec<VariableValue>, VariableError> {
    let mut values = Vec::new();
    for item in split_items(text) {
        let all: Vec<Vec<u32>> = if is_range(item) {
            if recipe.dims.len() != 1 {
                return Err(VariableError::DimsRange {
                    item: item.into(),
                    template: recipe.template.clone(),
                    count: recipe.dims.len(),
                });
            }
            parse_values(
                item,
                &ParamDef::new(
                    "dims",
                    ParamKind::Int { min: Some(1), max: Some(i64::from(u32::MAX)) },
                    ParamValue::Int(1),
                ),
            )?
            .iter()
            .map(|v| vec![v.as_int().unwrap_or(0) as u32])
            .collect()
        } else {
            vec![Topology::parse_dims(item)?]
        };
        for dims in all {
            Topology::parse(&recipe.template, &dims)?;
            // One dimension reads as a number in the constraint (`bytes % p == 0`).
            let value = match dims[..] {
                [n] => ParamValue::Int(i64::from(n)),
                _ => ParamValue::Text(dims_text(&dims)),
            };
            let recipe = Some(RecipeChange { template: None, dims: Some(dims.clone()) });
            values.push(VariableValue { text: dims_text(&dims), value, recipe });
        }
    }
    Ok(values)
}

fn topology_values(text: &str, recipe: &GeneratorRecipe) -> Result<Vec<VariableValue>, VariableError> {
    let mut values = Vec::new();
    for item in split_items(text) {
        let (name, dims) = match item.split_once(':') {
            Some((name, dims)) => (name.trim(), Topology::parse_dims(dims)?),
            None => (item, recipe.dims.clone()),
        };
        let topology = Topology::parse(name, &dims)
            .map_err(|source| VariableError::Topology { item: item.into(), source: Box::new(source) })?;
        let (text, dims) = if item.contains(':') {
            (format!("{}:{}", topology.name(), dims_text(&topology.dims())), Some(topology.dims()))
        } else {
            (topology.name().to_string(), None)
        };
        let recipe = Some(RecipeChange { template: Some(topology.name()), dims });
        values.push(VariableValue { value: ParamValue::Text(text.clone()), text, recipe });
    }
    Ok(values)
}

/// The project of one point: `choice[i]` picks variable `i`'s value.
pub fn apply_point(
    base: &Project,
    variables: &[Variable],
    choice: &[usize],
) -> Result<Project, VariableError> {
    let picked = |kind: VariableTarget| {
        variables
            .iter()
            .zip(choice)
            .filter(|(v, _)| v.kind == kind)
            .filter_map(|(v, i)| v.values[*i].recipe.as_ref())
            .next_back()
    };
    let mut project = base.clone();
    let topology = picked(VariableTarget::Topology);
    let dims = picked(VariableTarget::Dims);
    if topology.is_some() || dims.is_some() {
        let mut recipe = recipe_of(base)?.clone();
        for change in [topology, dims].into_iter().flatten() {
            if let Some(template) = change.template {
                recipe.template = template.to_string();
            }
            if let Some(dims) = &change.dims {
                recipe.dims.clone_from(dims);
            }
        }
        project =
            regenerate(base, &recipe, &registry_for(base)).map_err(|source| VariableError::Regenerate {
                template: recipe.template.clone(),
                dims: recipe.dims_text(),
                source: Box::new(source),
            })?;
    }
    for (variable, index) in variables.iter().zip(choice) {
        if let VariableTarget::Set(target) = &variable.kind {
            apply_value(&mut project, target, &variable.values[*index].value)?;
        }
    }
    Ok(project)
}

#[cfg(test)]
mod tests {
    use hase_engine::model::{AbstractionLevel, Workload};

    use super::*;
    use crate::examples;

    fn processors(project: &Project) -> usize {
        project.network.instances.values().filter(|i| i.type_name == "Processor").count()
    }

    #[test]
    fn set_targets_read_values_with_their_kind() {
        let project = examples::fat_tree_allreduce().unwrap().project;
        let v = resolve("workload.message_bytes", "1K..4K *2", None, &project).unwrap();
        assert_eq!(v.values.iter().map(|v| v.text.as_str()).collect::<Vec<_>>(), ["1024", "2048", "4096"]);
        let a = resolve("algorithm", "ring, recursive_doubling", Some("alg"), &project).unwrap();
        assert_eq!((a.name.as_str(), &a.kind), ("alg", &VariableTarget::Set("workload.algorithm".into())));
        let err = resolve("algorithm", "ring, quantum", None, &project).unwrap_err().to_string();
        assert!(err.contains("quantum"), "{err}");
        let err = resolve("p0.colour", "1", None, &project).unwrap_err().to_string();
        assert!(err.contains("no parameter `colour`"), "{err}");
    }

    #[test]
    fn a_point_regenerates_the_network_then_applies_the_rest() {
        let project = examples::abstraction_toggle().unwrap().project;
        let variables = vec![
            resolve("fabric.level", "detailed,behavioural", None, &project).unwrap(),
            resolve(TEMPLATE_DIMS, "2x2, 4x2", None, &project).unwrap(),
            resolve("workload.message_bytes", "64", None, &project).unwrap(),
        ];
        let point = apply_point(&project, &variables, &[1, 1, 0]).unwrap();
        assert_eq!(processors(&point), 16, "a 4-ary 2-tree has 16 processors");
        assert_eq!(point.network.instances["fabric"].level, AbstractionLevel::Behavioural);
        let Workload::Program { params, .. } = &point.workload else { panic!() };
        assert_eq!(params["message_bytes"], ParamValue::Int(64));
        assert_eq!(processors(&apply_point(&project, &variables, &[0, 0, 0]).unwrap()), 4);
    }

    #[test]
    fn topologies_compare_networks() {
        let project = examples::fat_tree_allreduce().unwrap().project;
        let v = resolve(TEMPLATE_TOPOLOGY, "fat_tree, binary_tree:8, ring:6", None, &project).unwrap();
        let texts: Vec<&str> = v.values.iter().map(|v| v.text.as_str()).collect();
        assert_eq!(texts, ["fat_tree", "binary_tree:8", "ring:6"]);
        let ring = apply_point(&project, std::slice::from_ref(&v), &[2]).unwrap();
        assert_eq!(processors(&ring), 6);
        assert_eq!(ring.generator.as_ref().unwrap().template, "ring");
        assert_eq!(ring.workload, project.workload);
        let err = resolve(TEMPLATE_TOPOLOGY, "binary_tree:7", None, &project).unwrap_err().to_string();
        assert!(err.contains("power of two"), "{err}");
        let err = resolve(TEMPLATE_DIMS, "4..8", None, &project).unwrap_err().to_string();
        assert!(err.contains("has 2 dimensions"), "{err}");
        let mut hand_drawn = project.clone();
        hand_drawn.generator = None;
        let err = resolve(TEMPLATE_DIMS, "2x2", None, &hand_drawn).unwrap_err().to_string();
        assert!(err.contains("no generator recipe"), "{err}");
    }

    #[test]
    fn expression_names_keep_dots_and_lose_operators() {
        assert_eq!(expression_name("fabric/r0.radix"), "fabric_r0.radix");
        assert_eq!(expression_name("link:p0.net.latency"), "link:p0.net.latency");
        assert_eq!(expression_name("a b-c"), "a_b_c");
    }
}
