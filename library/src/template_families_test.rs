//! One test over every topology family of the template list (`hase_templates::families`): its name
//! and example dimensions read and print back, its recipe survives RON, the generated network has
//! the closed-form counts, a small instance runs an MPI allreduce to completion, and its docs line
//! says what it is.

use std::collections::BTreeMap;

use hase_engine::kernel::RunOutcome;
use hase_engine::model::{ParamValue, Project, Workload};
use hase_templates::{
    ProjectForm, TemplateSpec, Topology, families, family_named, generate, template_project,
};

use crate::catalogue::{registry_for, template_names};
use crate::runner::{RunOptions, run_project};

/// An allreduce every processor takes part in.
fn allreduce() -> Workload {
    let params: BTreeMap<String, ParamValue> = [
        ("operation", ParamValue::Text("allreduce".into())),
        ("message_bytes", ParamValue::Int(1024)),
        ("iterations", ParamValue::Int(1)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    Workload::Program { name: "collective_loop".into(), params }
}

#[test]
fn every_family_reads_generates_and_runs() {
    let registry = registry_for(&Project::new("families"));
    let mut names = Vec::new();
    for info in families() {
        let name = info.name;
        names.push(name);
        // Name and dimensions: parsed, printed, parsed again; aliases find the same family.
        let dims = Topology::parse_dims(info.example_dims).unwrap();
        let topology = Topology::parse(name, &dims).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(topology.name(), name);
        assert_eq!(topology.family_info().name, name);
        assert_eq!(topology.to_string(), format!("{name} {}", info.example_dims), "{name}");
        assert_eq!(Topology::parse(name, &topology.dims()).unwrap(), topology, "{name}");
        assert_eq!(Topology::parse(&name.to_uppercase().replace('_', "-"), &dims).unwrap(), topology);
        for alias in info.aliases {
            assert_eq!(family_named(alias).map(|f| f.name), Some(name), "alias {alias}");
        }
        assert_eq!(Topology::dims_help(name), Some(info.dims_help));
        // The topology and the generator recipe survive RON.
        let text = ron::to_string(&topology).unwrap();
        assert_eq!(ron::from_str::<Topology>(&text).unwrap(), topology, "{name}: {text}");
        let spec = TemplateSpec::new(topology.clone());
        let recipe = spec.recipe(&ProjectForm::Flat);
        let text = ron::to_string(&recipe).unwrap();
        assert_eq!(ron::from_str::<hase_engine::model::GeneratorRecipe>(&text).unwrap(), recipe);
        assert_eq!(TemplateSpec::from_recipe(&recipe).unwrap(), (spec.clone(), ProjectForm::Flat), "{name}");
        // The generated network has the closed-form counts.
        let generated = generate(&spec, &registry).unwrap_or_else(|e| panic!("{name}: {e}"));
        let counts = topology.counts();
        assert_eq!(generated.counts, counts, "{name}");
        assert_eq!(generated.network.instances.len() as u64, counts.switches + counts.endpoints, "{name}");
        assert_eq!(generated.network.links.len() as u64, counts.links(), "{name}");
        // It elaborates and an MPI allreduce over every processor completes.
        let mut project = template_project(&spec, &registry, name, &ProjectForm::Flat).unwrap();
        project.workload = allreduce();
        let result =
            run_project(&project, &RunOptions::default(), |_| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(result.outcome, RunOutcome::Completed, "{name}: {:?}", result.stats.deadlock);
        // The docs line and the labels say what it is.
        assert!(info.docs.starts_with(&format!("`{name}`: ")), "{name}: {}", info.docs);
        assert!(!info.title.is_empty() && !info.short_name.is_empty(), "{name}");
    }
    assert_eq!(template_names(), names);
}
