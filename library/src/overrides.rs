//! `--set` assignments applied to a project before a run (and by parameter sweeps):
//!
//! - `<instance path>.<param>=<value>` — one instance; a path inside a compound (`fabric/r3.radix`)
//!   edits the compound type's inner instance, so every instance of that type changes with it;
//! - `<instance path>.level=detailed|behavioural` — the abstraction level of a compound instance
//!   (unless its type has a parameter of its own named `level`); parameter sweeps and
//!   `hase check-levels` use the same assignment through [`set_level`];
//! - `type:<Type>.<param>=<value>` — every instance of a type, at every level of the hierarchy;
//! - `workload.<param>=<value>` — a parameter of the built-in MPI program;
//! - `link:<instance path>.<port>.latency|bandwidth=<value>` — the link attached to that port.
//!
//! Values are read with the parameter's own kind and the one units parser (`10us`, `64K` = 65,536
//! bytes, `10Gbps` = 1.25·10⁹ B/s, `1G` bandwidth = 10⁹ B/s, `cut_through`, `[1, 2]`); a value
//! already read (a parameter sweep's) is set as it is, checked against the kind ([`apply_value`]).

use hase_engine::model::{
    AbstractionLevel, EntityType, Instance, Network, ParamDef, ParamError, ParamKind, ParamValue, PortRef,
    Project, TypeRegistry, Workload,
};
use hase_engine::time::SimTime;
use hase_engine::units::{UnitError, parse_rate, parse_time};
use hase_entities::workload::programs;

use crate::catalogue::registry_for;
use crate::experiment::values::canonical;

/// Why an assignment cannot be applied.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("--set {assignment}: {reason}")]
pub struct SetError {
    /// The assignment as given.
    pub assignment: String,
    /// What is wrong.
    pub reason: SetReason,
}

/// What is wrong with an assignment.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SetReason {
    /// The target is not of a form assignments take.
    #[error("expected `{form}`")]
    Form {
        /// The form expected.
        form: &'static str,
    },
    /// No type of this name.
    #[error("unknown type `{type_name}`")]
    UnknownType {
        /// The name.
        type_name: String,
    },
    /// The type has no such parameter.
    #[error("type `{type_name}` has no parameter `{param}` (it has: {known})")]
    TypeParam {
        /// The type.
        type_name: String,
        /// The parameter asked for.
        param: String,
        /// Its parameters, comma-separated.
        known: String,
    },
    /// The workload's program has no such parameter.
    #[error("program `{program}` has no parameter `{param}` (it has: {known})")]
    ProgramParam {
        /// The program.
        program: String,
        /// The parameter asked for.
        param: String,
        /// Its parameters, comma-separated.
        known: String,
    },
    /// The value does not read, or does not fit, as the parameter's kind.
    #[error("`{param}`: {source}")]
    Value {
        /// The parameter.
        param: String,
        /// Why.
        source: ParamError,
    },
    /// A link latency or bandwidth that does not read.
    #[error(transparent)]
    Unit(#[from] UnitError),
    /// No link at this top-level port.
    #[error("no link at top-level port `{end}`")]
    NoLink {
        /// The port (`p0.net`).
        end: String,
    },
    /// A link field other than latency and bandwidth.
    #[error("links have `latency` and `bandwidth`, not `{field}`")]
    LinkField {
        /// The field given.
        field: String,
    },
    /// No instance at this path.
    #[error("no instance `{path}`")]
    NoInstance {
        /// The path.
        path: String,
    },
    /// A path that leaves the hierarchy on the way.
    #[error("no instance `{segment}` on the way to `{path}`")]
    NotOnTheWay {
        /// The missing step.
        segment: String,
        /// The whole path.
        path: String,
    },
    /// A path that steps into an instance that is not a compound.
    #[error("`{segment}` is not a compound")]
    NotCompound {
        /// The step.
        segment: String,
    },
    /// An empty instance path.
    #[error("empty path")]
    EmptyPath,
    /// The compound type of an inner network is gone or is not a compound.
    #[error("`{type_name}` is not a compound type")]
    NotCompoundType {
        /// The type.
        type_name: String,
    },
    /// A level word other than `detailed` and `behavioural`.
    #[error("a level is `detailed` or `behavioural`, not `{word}`")]
    LevelWord {
        /// The word given.
        word: String,
    },
    /// A level assigned to an instance that is not a compound.
    #[error("`{path}` is a `{type_name}`, not a compound: it has no abstraction level")]
    NoLevel {
        /// The instance path.
        path: String,
        /// Its type.
        type_name: String,
    },
    /// The behavioural level asked of a compound type without a behaviour.
    #[error("compound type `{type_name}` has no behavioural model")]
    NoBehaviour {
        /// The type.
        type_name: String,
    },
    /// A type assignment that reaches no instance.
    #[error("no instance of type `{type_name}` in the project")]
    NoInstanceOfType {
        /// The type.
        type_name: String,
    },
    /// A workload assignment to a workload that is not a built-in program.
    #[error("the workload is not a built-in program")]
    NotProgram,
    /// A workload program the catalogue does not know.
    #[error("unknown program `{program}`")]
    UnknownProgram {
        /// The program.
        program: String,
    },
}

/// A value to assign: text as typed (read with the parameter's kind), or a value already read.
#[derive(Clone, Copy, Debug)]
enum Given<'a> {
    /// Text after `=`.
    Text(&'a str),
    /// A value read before (a sweep's), checked against the kind.
    Value(&'a ParamValue),
}

impl Given<'_> {
    /// The value for parameter `def`.
    fn read(self, def: &ParamDef) -> Result<ParamValue, SetReason> {
        let value = match self {
            Given::Text(text) => def.parse(text),
            Given::Value(value) => def.kind.check(value).map(|()| value.clone()),
        };
        value.map_err(|source| SetReason::Value { param: def.name.clone(), source })
    }

    /// The abstraction level named (`detailed`, `behavioural`).
    fn level(self) -> Result<AbstractionLevel, SetReason> {
        match self {
            Given::Text(text) => parse_level(text),
            Given::Value(ParamValue::Text(word)) => parse_level(word),
            Given::Value(other) => Err(SetReason::LevelWord { word: canonical(other) }),
        }
    }
}

/// Apply one `target=value` assignment.
pub fn apply_set(project: &mut Project, assignment: &str) -> Result<(), SetError> {
    let fail = |reason: SetReason| SetError { assignment: assignment.to_string(), reason };
    let (target, value) =
        assignment.split_once('=').ok_or_else(|| fail(SetReason::Form { form: "target=value" }))?;
    assign(project, target.trim(), Given::Text(value.trim())).map_err(fail)
}

/// Set `target` to `value`, a value read before with [`target_param`]'s definition (a parameter
/// sweep's point): nothing is read from text again.
pub fn apply_value(project: &mut Project, target: &str, value: &ParamValue) -> Result<(), SetError> {
    assign(project, target.trim(), Given::Value(value))
        .map_err(|reason| SetError { assignment: format!("{target}={}", canonical(value)), reason })
}

/// Set `target` to `value`.
fn assign(project: &mut Project, target: &str, value: Given<'_>) -> Result<(), SetReason> {
    let registry = registry_for(project);
    if let Some(param) = target.strip_prefix("workload.") {
        return set_workload(project, param, value);
    }
    if let Some(rest) = target.strip_prefix("type:") {
        let (type_name, param) =
            rest.split_once('.').ok_or(SetReason::Form { form: "type:<Type>.<param>" })?;
        return set_type(project, &registry, type_name, param, value);
    }
    if let Some(rest) = target.strip_prefix("link:") {
        return set_link(project, rest, value);
    }
    let (path, param) = target.rsplit_once('.').ok_or(SetReason::Form { form: "<instance path>.<param>" })?;
    set_instance(project, &registry, path, param, value)
}

fn def_for(registry: &TypeRegistry, type_name: &str, param: &str) -> Result<ParamDef, SetReason> {
    let ty = registry.get(type_name).ok_or_else(|| SetReason::UnknownType { type_name: type_name.into() })?;
    ty.param(param).cloned().ok_or_else(|| {
        let known: Vec<&str> = ty.params.iter().map(|p| p.name.as_str()).collect();
        SetReason::TypeParam { type_name: type_name.into(), param: param.into(), known: known.join(", ") }
    })
}

const LINK_FORM: SetReason = SetReason::Form { form: "link:<instance>.<port>.<field>" };

/// The port and field of a `link:` target (`p0.net.latency`).
fn link_target(rest: &str) -> Result<(PortRef, &str), SetReason> {
    let (port_path, field) = rest.rsplit_once('.').ok_or(LINK_FORM)?;
    let (instance, port) = port_path.rsplit_once('.').ok_or(LINK_FORM)?;
    Ok((PortRef::new(instance, port), field))
}

/// What a link's `field` is read as.
fn link_def(field: &str) -> Result<ParamDef, SetReason> {
    match field {
        "latency" => Ok(ParamDef::new(
            "latency",
            ParamKind::Time { min: None, max: None },
            ParamValue::Time(SimTime::ZERO),
        )),
        "bandwidth" => {
            Ok(ParamDef::new("bandwidth", ParamKind::Int { min: Some(0), max: None }, ParamValue::Int(0))
                .unit("B/s"))
        }
        other => Err(SetReason::LinkField { field: other.into() }),
    }
}

/// The parameter a `--set` target assigns (its kind and unit: what its value is read with),
/// without changing the project: parameter sweeps read ranges (`1K..1M *2`) with it.
pub fn target_param(project: &Project, target: &str) -> Result<ParamDef, SetError> {
    let target = target.trim();
    definition(project, target).map_err(|reason| SetError { assignment: format!("{target}=…"), reason })
}

fn definition(project: &Project, target: &str) -> Result<ParamDef, SetReason> {
    let registry = registry_for(project);
    if let Some(param) = target.strip_prefix("workload.") {
        return workload_param(project, param);
    }
    if let Some(rest) = target.strip_prefix("type:") {
        let (type_name, param) =
            rest.split_once('.').ok_or(SetReason::Form { form: "type:<Type>.<param>" })?;
        return def_for(&registry, type_name, param);
    }
    if let Some(rest) = target.strip_prefix("link:") {
        let (end, field) = link_target(rest)?;
        if !project.network.links.iter().any(|l| l.touches(&end)) {
            return Err(SetReason::NoLink { end: end.to_string() });
        }
        return link_def(field);
    }
    let (path, param) = target.rsplit_once('.').ok_or(SetReason::Form { form: "<instance path>.<param>" })?;
    let (net, _, last) = locate(project, &registry, path)?;
    let type_name =
        net.instances.get(last).ok_or_else(|| SetReason::NoInstance { path: path.into() })?.type_name.clone();
    let ty =
        registry.get(&type_name).ok_or_else(|| SetReason::UnknownType { type_name: type_name.clone() })?;
    if param == LEVEL && ty.param(LEVEL).is_none() && ty.is_compound() {
        let words = [AbstractionLevel::Detailed, AbstractionLevel::Behavioural];
        let kind = ParamKind::Enum { choices: words.iter().map(|l| l.word().to_string()).collect() };
        return Ok(ParamDef::new(LEVEL, kind, ParamValue::Text(AbstractionLevel::Detailed.word().into())));
    }
    def_for(&registry, &type_name, param)
}

/// The pseudo-parameter naming a compound instance's abstraction level.
const LEVEL: &str = "level";

/// The network holding the instance at `path` (walking down through compound types), the name of
/// the compound type whose inner network it is (`None` at the top level), and the instance's name.
fn locate<'p>(
    project: &'p Project,
    registry: &'p TypeRegistry,
    path: &'p str,
) -> Result<(&'p Network, Option<String>, &'p str), SetReason> {
    let segments: Vec<&str> = path.split('/').collect();
    let (last, parents) = segments.split_last().ok_or(SetReason::EmptyPath)?;
    let mut owner: Option<String> = None;
    let mut net: &Network = &project.network;
    for seg in parents {
        let inst = net
            .instances
            .get(*seg)
            .ok_or_else(|| SetReason::NotOnTheWay { segment: (*seg).into(), path: path.into() })?;
        let ty = registry
            .get(&inst.type_name)
            .ok_or_else(|| SetReason::UnknownType { type_name: inst.type_name.clone() })?;
        let compound =
            ty.compound.as_ref().ok_or_else(|| SetReason::NotCompound { segment: (*seg).into() })?;
        owner = Some(ty.name.clone());
        // Once the project holds its own copy of the type, edits go there; read the same copy.
        net = project
            .types
            .get(&ty.name)
            .and_then(|t| t.compound.as_ref())
            .map_or(&compound.network, |c| &c.network);
    }
    Ok((net, owner, last))
}

/// The network `owner` names (the top level for `None`), copying a catalogue compound type into
/// the project first so that the edit stays with the project.
fn network_mut<'p>(
    project: &'p mut Project,
    registry: &TypeRegistry,
    owner: Option<&str>,
) -> Result<&'p mut Network, SetReason> {
    let Some(type_name) = owner else {
        return Ok(&mut project.network);
    };
    let not_compound = || SetReason::NotCompoundType { type_name: type_name.into() };
    if !project.types.contains_key(type_name) {
        let t = registry.get(type_name).cloned().ok_or_else(not_compound)?;
        project.types.insert(type_name.to_string(), t);
    }
    let t = project.types.get_mut(type_name).ok_or_else(not_compound)?;
    Ok(&mut t.compound.as_mut().ok_or_else(not_compound)?.network)
}

/// The instance at `path` and its type, found as an assignment to `<path>.<param>` finds them
/// (through compound types, the project's copy of a type first).
pub fn instance_and_type(project: &Project, path: &str) -> Result<(Instance, EntityType), SetError> {
    let registry = registry_for(project);
    let fail = |reason: SetReason| SetError { assignment: format!("{path}.…"), reason };
    let (net, _, last) = locate(project, &registry, path).map_err(fail)?;
    let instance =
        net.instances.get(last).ok_or_else(|| fail(SetReason::NoInstance { path: path.into() }))?;
    let ty = registry
        .get(&instance.type_name)
        .cloned()
        .ok_or_else(|| fail(SetReason::UnknownType { type_name: instance.type_name.clone() }))?;
    Ok((instance.clone(), ty))
}

/// The instance at `path`: the compound type whose inner network holds it (`None` at the top
/// level), its name in that network, and its type.
fn instance_at<'r>(
    project: &Project,
    registry: &'r TypeRegistry,
    path: &str,
) -> Result<(Option<String>, String, &'r EntityType), SetReason> {
    let (net, owner, last) = locate(project, registry, path)?;
    let instance = net.instances.get(last).ok_or_else(|| SetReason::NoInstance { path: path.into() })?;
    let ty = registry
        .get(&instance.type_name)
        .ok_or_else(|| SetReason::UnknownType { type_name: instance.type_name.clone() })?;
    Ok((owner, last.to_string(), ty))
}

fn set_instance(
    project: &mut Project,
    registry: &TypeRegistry,
    path: &str,
    param: &str,
    value: Given<'_>,
) -> Result<(), SetReason> {
    let (owner, last, ty) = instance_at(project, registry, path)?;
    if param == LEVEL && ty.param(LEVEL).is_none() {
        return set_level_at(project, registry, path, value.level()?);
    }
    let parsed = value.read(&def_for(registry, &ty.name, param)?)?;
    let target = network_mut(project, registry, owner.as_deref())?;
    let vanished = || SetReason::NoInstance { path: path.into() };
    target.instances.get_mut(&last).ok_or_else(vanished)?.params.insert(param.to_string(), parsed);
    Ok(())
}

/// `detailed` or `behavioural` (also `behavioral`), as the level assignment spells them.
pub fn parse_level(value: &str) -> Result<AbstractionLevel, SetReason> {
    match value.trim().to_ascii_lowercase().as_str() {
        "detailed" => Ok(AbstractionLevel::Detailed),
        "behavioural" | "behavioral" => Ok(AbstractionLevel::Behavioural),
        other => Err(SetReason::LevelWord { word: other.into() }),
    }
}

/// Set the abstraction level of the compound instance at `path` (a path inside a compound edits
/// the compound type, as parameter assignments do). The instance's type must be a compound with a
/// behaviour of its own, or the level could not take effect.
pub fn set_level(project: &mut Project, path: &str, level: AbstractionLevel) -> Result<(), SetError> {
    let registry = registry_for(project);
    set_level_at(project, &registry, path, level)
        .map_err(|reason| SetError { assignment: format!("{path}.level={}", level.word()), reason })
}

fn set_level_at(
    project: &mut Project,
    registry: &TypeRegistry,
    path: &str,
    level: AbstractionLevel,
) -> Result<(), SetReason> {
    let (owner, last, ty) = instance_at(project, registry, path)?;
    if !ty.is_compound() {
        return Err(SetReason::NoLevel { path: path.into(), type_name: ty.name.clone() });
    }
    if level == AbstractionLevel::Behavioural && ty.behaviour.is_none() {
        return Err(SetReason::NoBehaviour { type_name: ty.name.clone() });
    }
    let target = network_mut(project, registry, owner.as_deref())?;
    target.instances.get_mut(&last).ok_or_else(|| SetReason::NoInstance { path: path.into() })?.level = level;
    Ok(())
}

/// Every compound instance of the project that has a behavioural level, by path (the top level
/// and, recursively, inside compound types), in path order.
pub fn switchable_compounds(project: &Project) -> Vec<String> {
    let registry = registry_for(project);
    let mut out = Vec::new();
    collect_switchable(&project.network, &registry, "", &mut out, 0);
    out.sort();
    out
}

fn collect_switchable(
    net: &Network,
    registry: &TypeRegistry,
    prefix: &str,
    out: &mut Vec<String>,
    depth: usize,
) {
    // Compound types cannot contain themselves (validation refuses cycles); the bound only keeps a
    // broken project from recursing forever.
    if depth > 32 {
        return;
    }
    for (name, inst) in &net.instances {
        let Some(ty) = registry.get(&inst.type_name) else { continue };
        let Some(compound) = &ty.compound else { continue };
        let path = format!("{prefix}{name}");
        if ty.behaviour.is_some() {
            out.push(path.clone());
        }
        collect_switchable(&compound.network, registry, &format!("{path}/"), out, depth + 1);
    }
}

fn set_type(
    project: &mut Project,
    registry: &TypeRegistry,
    type_name: &str,
    param: &str,
    value: Given<'_>,
) -> Result<(), SetReason> {
    let parsed = value.read(&def_for(registry, type_name, param)?)?;
    let mut count = set_in_network(&mut project.network, type_name, param, &parsed);
    for t in project.types.values_mut() {
        if let Some(c) = t.compound.as_mut() {
            count += set_in_network(&mut c.network, type_name, param, &parsed);
        }
    }
    if count == 0 {
        return Err(SetReason::NoInstanceOfType { type_name: type_name.into() });
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

fn set_link(project: &mut Project, target: &str, value: Given<'_>) -> Result<(), SetReason> {
    let (end, field) = link_target(target)?;
    let link = project
        .network
        .links
        .iter_mut()
        .find(|l| l.touches(&end))
        .ok_or_else(|| SetReason::NoLink { end: end.to_string() })?;
    match (field, value) {
        ("latency", Given::Text(text)) => link.latency = parse_time(text)?,
        ("bandwidth", Given::Text(text)) => link.bandwidth_bytes_per_s = parse_rate(text)?,
        (_, Given::Value(_)) => match value.read(&link_def(field)?)? {
            ParamValue::Time(latency) => link.latency = latency,
            ParamValue::Int(bandwidth) => link.bandwidth_bytes_per_s = bandwidth.unsigned_abs(),
            _ => return Err(SetReason::LinkField { field: field.into() }),
        },
        (other, Given::Text(_)) => return Err(SetReason::LinkField { field: other.into() }),
    }
    Ok(())
}

fn workload_param(project: &Project, param: &str) -> Result<ParamDef, SetReason> {
    let Workload::Program { name, .. } = &project.workload else {
        return Err(SetReason::NotProgram);
    };
    let info = programs::catalogue()
        .into_iter()
        .find(|p| p.name == name.as_str())
        .ok_or_else(|| SetReason::UnknownProgram { program: name.clone() })?;
    info.params.iter().find(|p| p.name == param).cloned().ok_or_else(|| {
        let known: Vec<&str> = info.params.iter().map(|p| p.name.as_str()).collect();
        SetReason::ProgramParam { program: name.clone(), param: param.into(), known: known.join(", ") }
    })
}

fn set_workload(project: &mut Project, param: &str, value: Given<'_>) -> Result<(), SetReason> {
    let parsed = value.read(&workload_param(project, param)?)?;
    let Workload::Program { params, .. } = &mut project.workload else {
        return Err(SetReason::NotProgram);
    };
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
        assert!(refused.reason.to_string().contains("unknown unit `fast`"), "{refused}");
        // Sizes stay binary: 64K bytes is 65,536.
        apply_set(&mut project, "workload.message_bytes=64K").unwrap();
        let Workload::Program { params, .. } = &project.workload else { panic!("a program") };
        assert_eq!(params["message_bytes"], ParamValue::Int(65_536));
        apply_set(&mut project, "type:Processor.flops_per_s=2Gf").unwrap();
        let p0 = project.network.instances.values().find(|i| i.type_name == "Processor").unwrap();
        assert_eq!(p0.params["flops_per_s"], ParamValue::Float(2e9));
    }

    fn toggle() -> Project {
        examples::abstraction_toggle().unwrap().project
    }

    #[test]
    fn level_assignment_switches_a_compound_both_ways() {
        let mut project = toggle();
        assert_eq!(project.network.instances["fabric"].level, AbstractionLevel::Detailed);
        apply_set(&mut project, "fabric.level=behavioural").unwrap();
        assert_eq!(project.network.instances["fabric"].level, AbstractionLevel::Behavioural);
        apply_set(&mut project, "fabric.level = Detailed").unwrap();
        assert_eq!(project.network.instances["fabric"].level, AbstractionLevel::Detailed);
        set_level(&mut project, "fabric", AbstractionLevel::Behavioural).unwrap();
        assert_eq!(project.network.instances["fabric"].level, AbstractionLevel::Behavioural);
        assert_eq!(switchable_compounds(&project), ["fabric"]);
    }

    #[test]
    fn level_assignment_refuses_leaves_unknown_paths_and_words() {
        let mut project = toggle();
        let err = apply_set(&mut project, "p0.level=behavioural").unwrap_err();
        assert!(err.reason.to_string().contains("not a compound"), "{err}");
        let err = apply_set(&mut project, "nowhere.level=behavioural").unwrap_err();
        assert!(err.reason.to_string().contains("no instance `nowhere`"), "{err}");
        let err = apply_set(&mut project, "fabric.level=coarse").unwrap_err();
        assert!(err.reason.to_string().contains("`detailed` or `behavioural`"), "{err}");
        let err = set_level(&mut project, "p0", AbstractionLevel::Detailed).unwrap_err();
        assert_eq!(err.assignment, "p0.level=detailed");
        // Nothing changed on the way.
        assert_eq!(project, toggle());
    }

    #[test]
    fn flat_projects_have_no_switchable_compounds() {
        let project = examples::fat_tree_allreduce().unwrap().project;
        assert!(switchable_compounds(&project).is_empty());
    }

    #[test]
    fn parameter_paths_inside_a_compound_edit_its_type() {
        let mut project = toggle();
        let registry = registry_for(&project);
        let (net, owner, last) = locate(&project, &registry, "fabric/s_l0_0").unwrap();
        assert!(net.instances.contains_key(last));
        let owner = owner.unwrap();
        apply_set(&mut project, "fabric/s_l0_0.buffer_packets=3").unwrap();
        let inner = &project.types[&owner].compound.as_ref().unwrap().network.instances["s_l0_0"];
        assert_eq!(inner.params["buffer_packets"], ParamValue::Int(3));
    }

    #[test]
    fn target_kinds_are_those_the_values_are_read_with() {
        let project = examples::abstraction_toggle().unwrap().project;
        let kind = |t: &str| target_param(&project, t).map(|d| d.kind);
        assert!(matches!(kind("workload.message_bytes"), Ok(ParamKind::Int { .. })));
        assert!(matches!(kind("p0.send_overhead"), Ok(ParamKind::Time { .. })));
        assert!(matches!(kind("type:Processor.max_packet"), Ok(ParamKind::Int { min: Some(1), .. })));
        assert!(matches!(kind("link:p0.net.latency"), Ok(ParamKind::Time { .. })));
        assert!(matches!(kind("link:p0.net.bandwidth"), Ok(ParamKind::Int { min: Some(0), .. })));
        let bandwidth = target_param(&project, "link:p0.net.bandwidth").unwrap();
        assert_eq!(bandwidth.parse("1G").unwrap(), ParamValue::Int(1_000_000_000), "rates are decimal");
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
