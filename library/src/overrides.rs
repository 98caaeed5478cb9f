//! `--set` assignments applied to a project before a run (and by parameter sweeps):
//!
//! - `<instance path>.<param>=<value>` — one instance; a path inside a compound (`fabric/r3.radix`)
//!   edits the compound type's inner instance, so every instance of that type changes with it;
//! - `type:<Type>.<param>=<value>` — every instance of a type, at every level of the hierarchy;
//! - `workload.<param>=<value>` — a parameter of the built-in MPI program;
//! - `link:<instance path>.<port>.latency|bandwidth=<value>` — the link attached to that port.
//!
//! Values are read with the parameter's own kind and the one units parser (`10us`, `64K` = 65,536
//! bytes, `10Gbps` = 1.25·10⁹ B/s, `1G` bandwidth = 10⁹ B/s, `cut_through`, `[1, 2]`).

use hase_engine::model::{Network, ParamValue, PortRef, Project, TypeRegistry, Workload};
use hase_engine::units::{parse_rate, parse_time};
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
    set_instance(project, &registry, path, param, value).map_err(fail)
}

fn parse_for(
    registry: &TypeRegistry,
    type_name: &str,
    param: &str,
    value: &str,
) -> Result<ParamValue, String> {
    let ty = registry.get(type_name).ok_or_else(|| format!("unknown type `{type_name}`"))?;
    let def = ty.param(param).ok_or_else(|| {
        let known: Vec<&str> = ty.params.iter().map(|p| p.name.as_str()).collect();
        format!("type `{type_name}` has no parameter `{param}` (it has: {})", known.join(", "))
    })?;
    def.parse(value).map_err(|e| format!("`{param}`: {e}"))
}

fn set_instance(
    project: &mut Project,
    registry: &TypeRegistry,
    path: &str,
    param: &str,
    value: &str,
) -> Result<(), String> {
    let segments: Vec<&str> = path.split('/').collect();
    let (last, parents) = segments.split_last().ok_or("empty path")?;
    // Walk down through compound types to the network holding the instance.
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
    let parsed = parse_for(registry, &inst.type_name, param, value)?;
    let target = match type_chain.last() {
        None => &mut project.network,
        Some(type_name) => {
            if !project.types.contains_key(type_name) {
                let t = registry.get(type_name).cloned().ok_or("unknown type")?;
                project.types.insert(type_name.clone(), t);
            }
            let t = project.types.get_mut(type_name).ok_or("unknown type")?;
            &mut t.compound.as_mut().ok_or("not a compound")?.network
        }
    };
    target.instances.get_mut(*last).ok_or("instance vanished")?.params.insert(param.to_string(), parsed);
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
        "bandwidth" => link.bandwidth_bytes_per_s = parse_rate(value).map_err(|e| e.to_string())?,
        other => return Err(format!("links have `latency` and `bandwidth`, not `{other}`")),
    }
    Ok(())
}

fn set_workload(project: &mut Project, param: &str, value: &str) -> Result<(), String> {
    let Workload::Program { name, params } = &mut project.workload else {
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
    let parsed = def.parse(value).map_err(|e| format!("`{param}`: {e}"))?;
    params.insert(param.to_string(), parsed);
    Ok(())
}

#[cfg(test)]
mod tests {
    use hase_engine::time::SimTime;

    use super::*;
    use crate::examples;

    #[test]
    fn link_and_parameter_values_use_the_one_units_parser() {
        let mut project = examples::fat_tree_allreduce().unwrap().project;
        let end = project.network.links[0].a.clone();
        let at = |field: &str, value: &str| format!("link:{}.{}.{field}={value}", end.instance, end.port);
        let link = |p: &Project| p.network.links.iter().find(|l| l.touches(&end)).cloned().unwrap();
        apply_set(&mut project, &at("bandwidth", "1G")).unwrap();
        assert_eq!(link(&project).bandwidth_bytes_per_s, 1_000_000_000, "rates are decimal");
        apply_set(&mut project, &at("bandwidth", "10Gbps")).unwrap();
        assert_eq!(link(&project).bandwidth_bytes_per_s, 1_250_000_000);
        apply_set(&mut project, &at("bandwidth", "1GiB/s")).unwrap();
        assert_eq!(link(&project).bandwidth_bytes_per_s, 1 << 30);
        apply_set(&mut project, &at("latency", "1.5us")).unwrap();
        assert_eq!(link(&project).latency, SimTime::from_ns(1500));
        let refused = apply_set(&mut project, &at("bandwidth", "fast")).unwrap_err();
        assert!(refused.reason.contains("unknown unit `fast`"), "{refused}");
        // Sizes stay binary: 64K bytes is 65,536.
        apply_set(&mut project, "workload.message_bytes=64K").unwrap();
        let Workload::Program { params, .. } = &project.workload else { panic!("a program") };
        assert_eq!(params["message_bytes"], ParamValue::Int(65_536));
        apply_set(&mut project, "type:Processor.flops_per_s=2Gf").unwrap();
        let p0 = project.network.instances.values().find(|i| i.type_name == "Processor").unwrap();
        assert_eq!(p0.params["flops_per_s"], ParamValue::Float(2e9));
    }
}
