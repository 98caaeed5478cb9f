//! The line an exported figure carries under it, saying where its numbers come from: the
//! experiment (id and name), its spec (each variable and its values, repetitions), its seed, the
//! hase version that ran it and the project it ran against (name, and the library version or the
//! file it came from).

use hase_library::experiment::ProjectSource;
use hase_library::store::ExperimentInfo;

/// `experiment 3 “bytes × algorithm”: workload.message_bytes = 1K..16K *4; algorithm = ring,
/// recursive_doubling; 1 repetition; seed 1 · project “Allreduce on a fat tree” (library version
/// 2) · hase 0.1.0`.
pub fn provenance(info: &ExperimentInfo) -> String {
    let spec = &info.spec;
    let variables: Vec<String> = spec
        .variables
        .iter()
        .map(|v| format!("{} = {}", v.name.as_deref().unwrap_or(&v.target), v.values))
        .collect();
    let mut repetitions = if spec.repetitions == 1 {
        "1 repetition".to_string()
    } else {
        format!("{} repetitions", spec.repetitions)
    };
    if spec.shuffle_ties {
        repetitions.push_str(", simultaneous events shuffled");
    }
    let project = match &spec.project {
        ProjectSource::Stored { version: Some(version), .. } => {
            format!("project “{}” (library version {version})", info.project.name)
        }
        ProjectSource::Stored { version: None, .. } => {
            format!("project “{}” (library, newest)", info.project.name)
        }
        ProjectSource::File(file) => format!("project “{}” ({file})", info.project.name),
    };
    format!(
        "experiment {} “{}”: {}; {repetitions}; seed {} · {project} · hase {}",
        info.id,
        info.name,
        variables.join("; "),
        spec.seed,
        info.hase_version
    )
}

/// The line for results that are not stored (kept in memory): what is known of them.
pub fn provenance_in_memory(name: &str, runs: usize) -> String {
    format!("“{name}” (not stored): {runs} runs · hase {}", env!("CARGO_PKG_VERSION"))
}
