//! `--set` assignments applied to a project before a run (and by parameter sweeps):
//!
//! - `<instance path>.<param>=<value>` — one instance; a path inside a compound (`fabric/r3.radix`)
//!   edits the compound type's inner instance, so every instance of that type changes with it;
//! - `type:<Type>.<param>=<value>` — every instance of a type, at every level of the hierarchy;
//! - `workload.<param>=<value>` — a parameter of the built-in MPI program;
//! - `link:<instance path>.<port>.latency|bandwidth=<value>` — the link attached to that port;
//! - `<compound instance path>.level=detailed|behavioural` — the abstraction level of a compound
//!   instance (on an instance that is not a compound, `level` is an ordinary parameter).
//!
//! Values are read with the parameter's own kind (`10us`, `64K`, `cut_through`, `[1, 2]`).

use hase_engine::model::{
    AbstractionLevel, Network, ParamKind, ParamValue, PortRef, Project, TypeRegistry, Workload,
};
use hase_engine::time::parse_time;
use hase_entities::workload::programs;

use crate::catalogue::registry_for;

/// Why an assignment cannot be applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--set {assignment}: {reason}")]
pub struct SetError {
    /// The assignment as given.
    pub assignment: String,
    /// What is wrong.
    pub reason: String,
}

/// Apply one `target=value` assignment.
pub fn apply_set(project: &mut Project, assignment: &str) -> Result<(), SetError> {
    let fail = |reason: String| SetError { assignment: assignment.to_string(), reason };
    let (target, value) = assignment.split_once('=').ok_or_else(|| fail("expected `target=value`".into()))?;
    let (target, value) = (target.trim(), value.trim());
    let registry = registry_for(project);
    if let Some(param) = target.strip_prefix("workload.") {
        return set_workload(project, param, value).map_err(fail);
    }
    if let Some(rest) = target.strip_prefix("type:") {
        let (type_name, param) =
            rest.split_once('.').ok_or_else(|| fail("expected `type:<Type>.<param>`".into()))?;
        return set_type(project, &registry, type_name, param, value).map_err(fail);
    }
    if let Some(rest) = target.strip_prefix("link:") {
        return set_link(project, rest, value).map_err(fail);
    }
    let (path, param) =
        target.rsplit_once('.').ok_or_else(|| fail("expected `<instance path>.<param>`".into()))?;
    if param == LEVEL && is_compound_at(project, &registry, path) {
        return set_level(project, &registry, path, value).map_err(fail);
    }
    set_instance(project, &registry, path, param, value).map_err(fail)
}

/// The pseudo-parameter naming a compound instance's abstraction level.
const LEVEL: &str = "level";

fn level_kind() -> ParamKind {
    let words = [AbstractionLevel::Detailed, AbstractionLevel::Behavioural];
    ParamKind::Enum { choices: words.iter().map(|l| l.word().to_string()).collect() }
}

fn is_compound_at(project: &Project, registry: &TypeRegistry, path: &str) -> bool {
    instance_at(project, registry, path)
        .is_ok_and(|(type_name, _)| registry.get(&type_name).is_some_and(|t| t.compound.is_some()))
}

fn set_level(project: &mut Project, registry: &TypeRegistry, path: &str, value: &str) -> Result<(), String> {
    let level = match level_kind().parse(value).map_err(|e| format!("`level`: {e}"))?.as_text() {
        Some("behavioural") => AbstractionLevel::Behavioural,
        _ => AbstractionLevel::Detailed,
    };
    let (_, type_chain) = instance_at(project, registry, path)?;
    let last = path.rsplit('/').next().unwrap_or(path);
    let net = network_to_edit(project, registry, type_chain.last())?;
    net.instances.get_mut(last).ok_or("instance vanished")?.level = level;
    Ok(())
}

/// The network to edit for an instance inside the compound type `inner_of` (`None`: the top
/// level); a library compound type is copied into the project first.
fn network_to_edit<'p>(
    project: &'p mut Project,
    registry: &TypeRegistry,
    inner_of: Option<&String>,
) -> Result<&'p mut Network, String> {
    Ok(match inner_of {
        None => &mut project.network,
        Some(type_name) => {
            if !project.types.contains_key(type_name) {
                let t = registry.get(type_name).cloned().ok_or("unknown type")?;
                project.types.insert(type_name.clone(), t);
            }
            let t = project.types.get_mut(type_name).ok_or("unknown type")?;
            &mut t.compound.as_mut().ok_or("not a compound")?.network
        }
    })
}

/// The kind of value a `--set` target takes (what its value is read with), without changing the
/// project: parameter sweeps read ranges (`1K..1M *2`) with it.
pub fn target_kind(project: &Project, target: &str) -> Result<ParamKind, SetError> {
    let fail = |reason: String| SetError { assignment: format!("{target}=…"), reason };
    let target = target.trim();
    let registry = registry_for(project);
    if let Some(param) = target.strip_prefix("workload.") {
        return workload_param_kind(project, param).map_err(fail);
    }
    if let Some(rest) = target.strip_prefix("type:") {
        let (type_name, param) =
            rest.split_once('.').ok_or_else(|| fail("expected `type:<Type>.<param>`".into()))?;
        return kind_for(&registry, type_name, param).map_err(fail);
    }
    if let Some(rest) = target.strip_prefix("link:") {
        let (port_path, field) =
            rest.rsplit_once('.').ok_or_else(|| fail("expected `link:<instance>.<port>.<field>`".into()))?;
        let (instance, port) = port_path
            .rsplit_once('.')
            .ok_or_else(|| fail("expected `link:<instance>.<port>.<field>`".into()))?;
        let end = PortRef::new(instance, port);
        if !project.network.links.iter().any(|l| l.touches(&end)) {
            return Err(fail(format!("no link at top-level port `{end}`")));
        }
        return match field {
            "latency" => Ok(ParamKind::Time { min: None, max: None }),
            "bandwidth" => Ok(bandwidth_kind()),
            other => Err(fail(format!("links have `latency` and `bandwidth`, not `{other}`"))),
        };
    }
    let (path, param) =
        target.rsplit_once('.').ok_or_else(|| fail("expected `<instance path>.<param>`".into()))?;
    if param == LEVEL && is_compound_at(project, &registry, path) {
        return Ok(level_kind());
    }
    let (type_name, _) = instance_at(project, &registry, path).map_err(fail)?;
    kind_for(&registry, &type_name, param).map_err(fail)
}

fn bandwidth_kind() -> ParamKind {
    ParamKind::Int { min: Some(0), max: None }
}

fn kind_for(registry: &TypeRegistry, type_name: &str, param: &str) -> Result<ParamKind, String> {
    let ty = registry.get(type_name).ok_or_else(|| format!("unknown type `{type_name}`"))?;
    let def = ty.param(param).ok_or_else(|| {
        let known: Vec<&str> = ty.params.iter().map(|p| p.name.as_str()).collect();
        format!("type `{type_name}` has no parameter `{param}` (it has: {})", known.join(", "))
    })?;
    Ok(def.kind.clone())
}

fn parse_for(
    registry: &TypeRegistry,
    type_name: &str,
    param: &str,
    value: &str,
) -> Result<ParamValue, String> {
    kind_for(registry, type_name, param)?.parse(value).map_err(|e| format!("`{param}`: {e}"))
}

/// The type of the instance at `path` (a `/` path through compounds) and the types of the
/// compounds on the way down, outermost first.
pub(crate) fn instance_at(
    project: &Project,
    registry: &TypeRegistry,
    path: &str,
) -> Result<(String, Vec<String>), String> {
    let segments: Vec<&str> = path.split('/').collect();
    let (last, parents) = segments.split_last().ok_or("empty path")?;
    let mut type_chain: Vec<String> = Vec::new();
    let mut net: &Network = &project.network;
    for seg in parents {
        let inst =
            net.instances.get(*seg).ok_or_else(|| format!("no instance `{seg}` on the way to `{path}`"))?;
        let ty = registry.get(&inst.type_name).ok_or_else(|| format!("unknown type `{}`", inst.type_name))?;
        let compound = ty.compound.as_ref().ok_or_else(|| format!("`{seg}` is not a compound"))?;
        type_chain.push(ty.name.clone());
        net = &compound.network;
    }
    let inst = net.instances.get(*last).ok_or_else(|| format!("no instance `{path}`"))?;
    Ok((inst.type_name.clone(), type_chain))
}

fn set_instance(
    project: &mut Project,
    registry: &TypeRegistry,
    path: &str,
    param: &str,
    value: &str,
) -> Result<(), String> {
    // Walk down through compound types to the network holding the instance.
    let (type_name, type_chain) = instance_at(project, registry, path)?;
    let last = path.rsplit('/').next().unwrap_or(path);
    let parsed = parse_for(registry, &type_name, param, value)?;
    let target = network_to_edit(project, registry, type_chain.last())?;
    target.instances.get_mut(last).ok_or("instance vanished")?.params.insert(param.to_string(), parsed);
    Ok(())
}

fn set_type(
    project: &mut Project,
    registry: &TypeRegistry,
    type_name: &str,
    param: &str,
    value: &str,
) -> Result<(), String> {
    let parsed = parse_for(registry, type_name, param, value)?;
    let mut count = set_in_network(&mut project.network, type_name, param, &parsed);
    for t in project.types.values_mut() {
        if let Some(c) = t.compound.as_mut() {
            count += set_in_network(&mut c.network, type_name, param, &parsed);
        }
    }
    if count == 0 {
        return Err(format!("no instance of type `{type_name}` in the project"));
    }
    Ok(())
}

fn set_in_network(net: &mut Network, type_name: &str, param: &str, value: &ParamValue) -> usize {
    let mut n = 0;
    for inst in net.instances.values_mut().filter(|i| i.type_name == type_name) {
        inst.params.insert(param.to_string(), value.clone());
        n += 1;
    }
    n
}

fn set_link(project: &mut Project, target: &str, value: &str) -> Result<(), String> {
    let (port_path, field) = target.rsplit_once('.').ok_or("expected `link:<instance>.<port>.<field>`")?;
    let (instance, port) = port_path.rsplit_once('.').ok_or("expected `link:<instance>.<port>.<field>`")?;
    let end = PortRef::new(instance, port);
    let link = project
        .network
        .links
        .iter_mut()
        .find(|l| l.touches(&end))
        .ok_or_else(|| format!("no link at top-level port `{end}`"))?;
    match field {
        "latency" => link.latency = parse_time(value).map_err(|e| e.to_string())?,
        "bandwidth" => {
            link.bandwidth_bytes_per_s =
                bandwidth_kind().parse(value).map_err(|e| e.to_string())?.as_int().unwrap_or(0) as u64;
        }
        other => return Err(format!("links have `latency` and `bandwidth`, not `{other}`")),
    }
    Ok(())
}

fn workload_param_kind(project: &Project, param: &str) -> Result<ParamKind, String> {
    let Workload::Program { name, .. } = &project.workload else {
        return Err("the workload is not a built-in program".into());
    };
    let info = programs::catalogue()
        .into_iter()
        .find(|p| p.name == name.as_str())
        .ok_or_else(|| format!("unknown program `{name}`"))?;
    let def = info.params.iter().find(|p| p.name == param).ok_or_else(|| {
        let known: Vec<&str> = info.params.iter().map(|p| p.name.as_str()).collect();
        format!("program `{name}` has no parameter `{param}` (it has: {})", known.join(", "))
    })?;
    Ok(def.kind.clone())
}

fn set_workload(project: &mut Project, param: &str, value: &str) -> Result<(), String> {
    let parsed = workload_param_kind(project, param)?.parse(value).map_err(|e| format!("`{param}`: {e}"))?;
    let Workload::Program { params, .. } = &mut project.workload else {
        return Err("the workload is not a built-in program".into());
    };
    params.insert(param.to_string(), parsed);
    Ok(())
}

#[cfg(test)]
mod tests {
    use hase_engine::model::AbstractionLevel;

    use super::*;
    use crate::examples;

    #[test]
    fn target_kinds_are_those_the_values_are_read_with() {
        let project = examples::abstraction_toggle().unwrap().project;
        let kind = |t: &str| target_kind(&project, t);
        assert!(matches!(kind("workload.message_bytes"), Ok(ParamKind::Int { .. })));
        assert!(matches!(kind("p0.send_overhead"), Ok(ParamKind::Time { .. })));
        assert!(matches!(kind("type:Processor.max_packet"), Ok(ParamKind::Int { min: Some(1), .. })));
        assert!(matches!(kind("link:p0.net.latency"), Ok(ParamKind::Time { .. })));
        assert!(matches!(kind("link:p0.net.bandwidth"), Ok(ParamKind::Int { min: Some(0), .. })));
        let Ok(ParamKind::Enum { choices }) = kind("fabric.level") else {
            panic!("{:?}", kind("fabric.level"))
        };
        assert_eq!(choices, ["detailed", "behavioural"]);
        let inner = project.types.values().find_map(|t| t.compound.as_ref()).unwrap();
        let router = inner.network.instances.keys().next().unwrap();
        assert!(
            matches!(kind(&format!("fabric/{router}.level")), Ok(ParamKind::Int { .. })),
            "a router's `level` is its tree level, an ordinary parameter"
        );
        let err = kind("workload.colour").unwrap_err().to_string();
        assert!(err.contains("has no parameter `colour`") && err.contains("message_bytes"), "{err}");
        assert!(kind("nobody.rank").unwrap_err().to_string().contains("no instance `nobody`"));
    }

    #[test]
    fn a_compound_level_is_set_like_a_parameter() {
        let mut project = examples::abstraction_toggle().unwrap().project;
        apply_set(&mut project, "fabric.level=behavioural").unwrap();
        assert_eq!(project.network.instances["fabric"].level, AbstractionLevel::Behavioural);
        apply_set(&mut project, "fabric.level=detailed").unwrap();
        assert_eq!(project.network.instances["fabric"].level, AbstractionLevel::Detailed);
        let err = apply_set(&mut project, "fabric.level=sketchy").unwrap_err().to_string();
        assert!(err.contains("sketchy") && err.contains("behavioural"), "{err}");
    }
}
