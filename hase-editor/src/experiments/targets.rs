//! The parameters of a design an experiment can sweep, as the experiments view lists them: the
//! inspector's parameters of every top-level instance, the types' parameters (`type:T.p`), the
//! top-level links' latency and bandwidth, the built-in program's parameters and its collective
//! algorithm, the abstraction level of compound instances, and the template's dimensions and
//! topology when the project has a generator recipe. Each comes with its current value, the text
//! a new variable starts from.

use hase_engine::model::{ParamDef, ParamValue, Project, Workload};
use hase_entities::workload::programs;
use hase_library::catalogue::registry_for;
use hase_library::experiment::values::canonical;
use hase_library::experiment::variables::ALGORITHM;

/// The parameter a variable target sets: `algorithm` and `workload.algorithm` are one.
pub fn same_parameter(a: &str, b: &str) -> bool {
    let full = |t: &str| if t == ALGORITHM { "workload.algorithm".to_string() } else { t.to_string() };
    full(a) == full(b)
}

/// Which kind of parameter a target is (the list's groups).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TargetGroup {
    /// The network's template (dimensions, topology).
    Template,
    /// The workload (program parameters, the collective algorithm).
    Workload,
    /// One instance's parameter.
    Instance,
    /// A compound instance's abstraction level.
    Level,
    /// Every instance of a type.
    Type,
    /// A top-level link's latency or bandwidth.
    Link,
}

impl TargetGroup {
    /// The group's heading in the list.
    pub fn label(self) -> &'static str {
        match self {
            TargetGroup::Template => "Template",
            TargetGroup::Workload => "Workload",
            TargetGroup::Instance => "Instances",
            TargetGroup::Level => "Compound levels",
            TargetGroup::Type => "Types",
            TargetGroup::Link => "Links",
        }
    }
}

/// A parameter that can be swept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetChoice {
    /// The variable target (`workload.message_bytes`, `p0.clock`, `link:p0.net.latency`).
    pub target: String,
    /// Its group.
    pub group: TargetGroup,
    /// The current value, as a value text (`1024`, `ring`, `fat_tree:2x3`).
    pub current: String,
}

fn value_text(def: &ParamDef, set: Option<&ParamValue>) -> String {
    set.or(def.default.as_ref()).map(canonical).unwrap_or_default()
}

/// Every target of `project`, grouped, each group in name order.
pub fn sweep_targets(project: &Project) -> Vec<TargetChoice> {
    let mut out = Vec::new();
    let mut push = |group, target: String, current: String| out.push(TargetChoice { target, group, current });
    if let Some(recipe) = &project.generator {
        let dims: Vec<String> = recipe.dims.iter().map(u32::to_string).collect();
        push(
            TargetGroup::Template,
            "template.topology".into(),
            format!("{}:{}", recipe.template, dims.join("x")),
        );
        push(TargetGroup::Template, "template.dims".into(), dims.join("x"));
    }
    if let Workload::Program { name, params } = &project.workload
        && let Some(info) = programs::catalogue().into_iter().find(|p| p.name == name.as_str())
    {
        for def in &info.params {
            let current = value_text(def, params.get(&def.name));
            // The collective algorithm under its short name alone (`workload.algorithm` is the
            // same parameter: one line, one variable name).
            let target =
                if def.name == ALGORITHM { ALGORITHM.to_string() } else { format!("workload.{}", def.name) };
            push(TargetGroup::Workload, target, current);
        }
    }
    let registry = registry_for(project);
    let mut types = std::collections::BTreeSet::new();
    for (name, instance) in &project.network.instances {
        let Some(ty) = registry.get(&instance.type_name) else { continue };
        types.insert(ty.name.clone());
        for def in &ty.params {
            push(
                TargetGroup::Instance,
                format!("{name}.{}", def.name),
                value_text(def, instance.params.get(&def.name)),
            );
        }
        if ty.is_compound() && ty.param("level").is_none() {
            let level = instance.level.word();
            push(TargetGroup::Level, format!("{name}.level"), level.to_string());
        }
    }
    types.extend(project.types.keys().cloned());
    for type_name in &types {
        let Some(ty) = registry.get(type_name) else { continue };
        for def in &ty.params {
            push(TargetGroup::Type, format!("type:{type_name}.{}", def.name), value_text(def, None));
        }
    }
    for link in &project.network.links {
        let end = &link.a;
        let latency = canonical(&ParamValue::Time(link.latency));
        push(TargetGroup::Link, format!("link:{}.{}.latency", end.instance, end.port), latency);
        let bandwidth = link.bandwidth_bytes_per_s.to_string();
        push(TargetGroup::Link, format!("link:{}.{}.bandwidth", end.instance, end.port), bandwidth);
    }
    out.sort_by(|a, b| (a.group, &a.target).cmp(&(b.group, &b.target)));
    out
}
