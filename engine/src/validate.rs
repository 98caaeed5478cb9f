//! Validation of a project against its type registry. Every problem is collected (not just the
//! first) and each names the instance path and port at fault, e.g. `fabric/level1/switch3.up0`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::limits::{MAX_ENTITIES, MAX_NESTING_DEPTH, MAX_PATH_BYTES};
use crate::model::{
    AbstractionLevel, ConcretePort, EntityType, InstanceIndex, Network, ParamMap, PortCountError, PortLists,
    PortRef, Project, SharedPorts, TypeRegistry,
};

mod size;
pub use size::flat_entity_count;

/// What is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The instance's type is not in the library or the project.
    UnknownType(String),
    /// A parameter override names a parameter the type does not have.
    UnknownParam(String),
    /// A parameter value does not fit its kind.
    BadParam {
        /// Parameter.
        param: String,
        /// Why.
        reason: String,
    },
    /// A parameter without a default was not set.
    MissingParam(String),
    /// A link end names an instance or port that does not exist.
    DanglingLink(String),
    /// A port has more than one link.
    DoublyConnected(usize),
    /// A required port has no link.
    Unconnected,
    /// The two ends carry different link types.
    LinkTypeMismatch {
        /// This end's link type.
        here: String,
        /// Other end and its link type.
        there: String,
        /// Other end's link type.
        there_type: String,
    },
    /// Neither end can send to the other (in–in, out–out).
    DirectionMismatch {
        /// This end's direction.
        here: String,
        /// Other end.
        there: String,
        /// Other end's direction.
        there_dir: String,
    },
    /// A link from a port to itself.
    SelfLink,
    /// Behavioural level chosen but the type has no behaviour.
    NoBehaviourForLevel(String),
    /// Detailed level of a type that has no inner network is fine; a type with neither is not.
    NothingToSimulate(String),
    /// A compound type contains itself.
    CyclicType(String),
    /// A compound's outer port maps to nothing, or to an inner port that does not exist.
    BadExport(String),
    /// A port array cannot be expanded (its size is out of range or beyond the limit).
    Ports(PortCountError),
    /// The hierarchy would elaborate into more entities than [`MAX_ENTITIES`].
    TooManyEntities(u64),
    /// Compound types nest deeper than [`MAX_NESTING_DEPTH`].
    TooDeep,
    /// An instance name longer than [`MAX_PATH_BYTES`].
    NameTooLong(usize),
    /// The network is still a generator recipe (`Project::network_from_recipe`): it must be
    /// expanded (`hase_templates::expand`) before it can be checked or elaborated.
    NotExpanded,
    /// A project type is stored under one name and calls itself another (a hand-edited file):
    /// instances would find it by the one and elaboration share it by the other.
    TypeNamedOtherwise(String),
}

/// One problem at one place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// Instance path, with `.port` when a port is at fault (`fabric/level1/switch3.up0`).
    pub path: String,
    /// What is wrong.
    pub problem: Problem,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.path;
        match &self.problem {
            Problem::UnknownType(t) => write!(f, "{p}: unknown entity type `{t}`"),
            Problem::UnknownParam(n) => write!(f, "{p}: the type has no parameter `{n}`"),
            Problem::BadParam { param, reason } => write!(f, "{p}: parameter `{param}`: {reason}"),
            Problem::MissingParam(n) => write!(f, "{p}: parameter `{n}` has no default and must be set"),
            Problem::DanglingLink(what) => write!(f, "{p}: link end does not exist ({what})"),
            Problem::DoublyConnected(n) => {
                write!(f, "{p}: port is connected by {n} links (at most one allowed)")
            }
            Problem::Unconnected => write!(f, "{p}: port is not connected"),
            Problem::LinkTypeMismatch { here, there, there_type } => {
                write!(f, "{p}: link type mismatch: `{here}` here, `{there_type}` at {there}")
            }
            Problem::DirectionMismatch { here, there, there_dir } => {
                write!(
                    f,
                    "{p}: direction mismatch: `{here}` here and `{there_dir}` at {there}; nothing can flow"
                )
            }
            Problem::SelfLink => write!(f, "{p}: link connects a port to itself"),
            Problem::NoBehaviourForLevel(t) => {
                write!(f, "{p}: behavioural level requested but type `{t}` has no behavioural model")
            }
            Problem::NothingToSimulate(t) => {
                write!(f, "{p}: type `{t}` has neither a behaviour nor an inner network")
            }
            Problem::CyclicType(t) => write!(f, "{p}: compound type `{t}` contains itself"),
            Problem::BadExport(why) => write!(f, "{p}: {why}"),
            Problem::Ports(why) => write!(f, "{p}: {why}"),
            Problem::TooManyEntities(n) => {
                write!(f, "{p}: the design would have {n} simulated entities; the limit is {MAX_ENTITIES}")
            }
            Problem::TooDeep => {
                write!(f, "{p}: compound types nest deeper than the limit of {MAX_NESTING_DEPTH} levels")
            }
            Problem::TypeNamedOtherwise(name) => {
                write!(f, "{p}: the type stored under this name is named `{name}`; the two must agree")
            }
            Problem::NotExpanded => {
                write!(f, "{p}: the network is a generator recipe that has not been expanded")
            }
            Problem::NameTooLong(n) => {
                write!(
                    f,
                    "{}…: instance name of {n} bytes; the limit is {MAX_PATH_BYTES}",
                    crate::limits::quote(p)
                )
            }
        }
    }
}

/// All problems of a project.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationErrors(pub Vec<ValidationError>);

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        writeln!(f, "{n} problem{} found:", if n == 1 { "" } else { "s" })?;
        for e in &self.0 {
            writeln!(f, "  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationErrors {}

/// Join a parent path and a child name.
pub fn join_path(prefix: &str, name: &str) -> String {
    if prefix.is_empty() { name.to_string() } else { format!("{prefix}/{name}") }
}

/// Why two ports cannot be linked, if they cannot: different link types, or directions that let
/// nothing flow (in–in, out–out). `there` names port `b` in the message (an instance path with
/// `.port`). This is the rule validation applies to every link; editors call it before linking.
pub fn link_problem(a: &ConcretePort, b: &ConcretePort, there: &str) -> Option<Problem> {
    if a.link_type != b.link_type {
        return Some(Problem::LinkTypeMismatch {
            here: a.link_type.clone(),
            there: there.to_string(),
            there_type: b.link_type.clone(),
        });
    }
    let flows =
        (a.direction.sends() && b.direction.receives()) || (b.direction.sends() && a.direction.receives());
    if flows {
        None
    } else {
        Some(Problem::DirectionMismatch {
            here: a.direction.word().to_string(),
            there: there.to_string(),
            there_dir: b.direction.word().to_string(),
        })
    }
}

/// Validate a whole project. Compound types are checked once, at the first instance that uses them.
pub fn validate_project(project: &Project, registry: &TypeRegistry) -> Result<(), ValidationErrors> {
    let mut v = Validator {
        registry,
        errors: Vec::new(),
        checked_types: BTreeSet::new(),
        stack: Vec::new(),
        port_lists: PortLists::default(),
    };
    if project.network_from_recipe {
        v.push(project.name.clone(), Problem::NotExpanded);
        return Err(ValidationErrors(v.errors));
    }
    for (key, ty) in &project.types {
        if *key != ty.name {
            v.push(format!("types/{key}"), Problem::TypeNamedOtherwise(ty.name.clone()));
        }
    }
    v.network(&project.network, "");
    if v.errors.is_empty() {
        let entities = size::flat_entity_count(&project.network, registry);
        if entities > MAX_ENTITIES {
            v.push(project.name.clone(), Problem::TooManyEntities(entities));
        }
    }
    if v.errors.is_empty() { Ok(()) } else { Err(ValidationErrors(v.errors)) }
}

struct Validator<'r> {
    registry: &'r TypeRegistry,
    errors: Vec<ValidationError>,
    checked_types: BTreeSet<String>,
    stack: Vec<String>,
    /// Concrete ports, computed once per type and array sizes.
    port_lists: PortLists<'r, SharedPorts>,
}

impl<'r> Validator<'r> {
    fn push(&mut self, path: String, problem: Problem) {
        self.errors.push(ValidationError { path, problem });
    }

    fn network(&mut self, net: &'r Network, prefix: &str) {
        // Per instance in name order: its ports, unless they cannot be known (unknown type, bad
        // array sizes), in which case links to it are not checked.
        let mut ports: Vec<Option<SharedPorts>> = Vec::with_capacity(net.instances.len());
        for (name, inst) in &net.instances {
            ports.push(None);
            if name.len() > MAX_PATH_BYTES {
                self.push(name.chars().take(40).collect(), Problem::NameTooLong(name.len()));
                continue;
            }
            let path = join_path(prefix, name);
            let registry = self.registry;
            let Some(ty) = registry.get(&inst.type_name) else {
                self.push(path, Problem::UnknownType(inst.type_name.clone()));
                continue;
            };
            self.instance_params(ty, &inst.params, &path);
            match inst.level {
                AbstractionLevel::Behavioural if ty.behaviour.is_none() => {
                    self.push(path.clone(), Problem::NoBehaviourForLevel(ty.name.clone()));
                }
                _ => {}
            }
            if ty.behaviour.is_none() && ty.compound.is_none() {
                self.push(path.clone(), Problem::NothingToSimulate(ty.name.clone()));
            }
            if ty.compound.is_some() {
                self.compound_type(ty, &path);
            }
            match self.port_lists.get(ty, &inst.params, Into::into) {
                Ok(list) => {
                    if let Some(last) = ports.last_mut() {
                        *last = Some(list);
                    }
                }
                Err(e) => {
                    // A sizing parameter overridden out of range is already reported as a bad
                    // parameter. Links to this instance are not checked: its ports are unknown.
                    let reported = matches!(&e, PortCountError::SizeOutOfRange { param, .. } if inst.params.contains_key(param));
                    if !reported {
                        self.push(path, Problem::Ports(e));
                    }
                }
            }
        }
        self.links(net, prefix, &ports);
    }

    fn instance_params(&mut self, ty: &EntityType, overrides: &crate::model::ParamMap, path: &str) {
        for (name, value) in overrides {
            match ty.param(name) {
                None => self.push(path.to_string(), Problem::UnknownParam(name.clone())),
                Some(def) => {
                    if let Err(e) = def.kind.check(value) {
                        self.push(
                            path.to_string(),
                            Problem::BadParam { param: name.clone(), reason: e.to_string() },
                        );
                    }
                }
            }
        }
        for def in &ty.params {
            if def.default.is_none() && !overrides.contains_key(&def.name) {
                self.push(path.to_string(), Problem::MissingParam(def.name.clone()));
            }
        }
    }

    fn compound_type(&mut self, ty: &'r EntityType, path: &str) {
        if self.stack.contains(&ty.name) {
            self.push(path.to_string(), Problem::CyclicType(ty.name.clone()));
            return;
        }
        if self.stack.len() >= MAX_NESTING_DEPTH {
            self.push(path.to_string(), Problem::TooDeep);
            return;
        }
        if !self.checked_types.insert(ty.name.clone()) {
            return;
        }
        let Some(compound) = &ty.compound else { return };
        self.stack.push(ty.name.clone());
        self.network(&compound.network, path);
        // Exports: every outer port maps to an existing, otherwise unlinked inner port.
        if let Err(e) = ty.check_port_counts(&ParamMap::new()) {
            self.push(path.to_string(), Problem::Ports(e));
            self.stack.pop();
            return;
        }
        let outer: Vec<ConcretePort> = ty.concrete_ports(&ParamMap::new());
        for port in &outer {
            if !compound.exports.iter().any(|e| e.outer == port.name) {
                self.push(
                    format!("{path}.{}", port.name),
                    Problem::BadExport(format!("outer port `{}` is not mapped to an inner port", port.name)),
                );
            }
        }
        for export in &compound.exports {
            let here = format!("{path}.{}", export.outer);
            if !outer.iter().any(|p| p.name == export.outer) {
                self.push(
                    here.clone(),
                    Problem::BadExport(format!("type `{}` declares no port `{}`", ty.name, export.outer)),
                );
            }
            let inner_ok = compound.network.instances.get(&export.inner.instance).is_some_and(|inst| {
                self.registry.get(&inst.type_name).is_some_and(|t| {
                    // Unexpandable ports are reported at the inner instance.
                    t.check_port_counts(&inst.params).is_err()
                        || t.concrete_ports(&inst.params).iter().any(|p| p.name == export.inner.port)
                })
            });
            if !inner_ok {
                self.push(here, Problem::BadExport(format!("maps to missing inner port {}", export.inner)));
            } else if compound.network.link_at(&export.inner).is_some() {
                self.push(
                    join_path(path, &export.inner.to_string()),
                    Problem::BadExport(format!(
                        "inner port is exported as `{}` and also linked inside",
                        export.outer
                    )),
                );
            }
        }
        self.stack.pop();
    }

    fn links(&mut self, net: &Network, prefix: &str, ports: &[Option<SharedPorts>]) {
        let index = InstanceIndex::new(net);
        // Uses of every known port, by slot: the instance's first slot plus the port's position.
        let mut first_slot = Vec::with_capacity(ports.len() + 1);
        let mut slots = 0_usize;
        for list in ports {
            first_slot.push(slots);
            slots += list.as_ref().map_or(0, |l| l.len());
        }
        let mut uses = vec![0_u32; slots];
        // Ends naming no known port: counted by name, so that reusing one is still reported.
        let mut unknown_uses: BTreeMap<&PortRef, u32> = BTreeMap::new();
        for link in &net.links {
            let mut found: [Option<&ConcretePort>; 2] = [None, None];
            for (k, end) in [&link.a, &link.b].into_iter().enumerate() {
                let position = index.position(&end.instance);
                let list = position.and_then(|i| ports[i].as_ref().map(|l| (i, l)));
                let port = list.and_then(|(i, l)| {
                    l.iter().position(|p| p.name == end.port).map(|p| (first_slot[i] + p, &l[p]))
                });
                match (position, list, port) {
                    (_, _, Some((slot, p))) => {
                        uses[slot] += 1;
                        found[k] = Some(p);
                    }
                    (Some(_), Some(_), None) => {
                        self.push(
                            join_path(prefix, &end.to_string()),
                            Problem::DanglingLink(format!("no port `{}` on `{}`", end.port, end.instance)),
                        );
                        *unknown_uses.entry(end).or_default() += 1;
                    }
                    (None, _, None) => {
                        self.push(
                            join_path(prefix, &end.to_string()),
                            Problem::DanglingLink(format!("no instance `{}`", end.instance)),
                        );
                        *unknown_uses.entry(end).or_default() += 1;
                    }
                    (Some(_), None, None) => *unknown_uses.entry(end).or_default() += 1,
                }
            }
            if link.a == link.b {
                self.push(join_path(prefix, &link.a.to_string()), Problem::SelfLink);
                continue;
            }
            let [Some(pa), Some(pb)] = found else { continue };
            if let Some(problem) = link_problem(pa, pb, &join_path(prefix, &link.b.to_string())) {
                self.push(join_path(prefix, &link.a.to_string()), problem);
            }
        }
        let names = net.instances.keys();
        for ((name, list), first) in names.zip(ports).zip(&first_slot) {
            let Some(list) = list else { continue };
            for (i, port) in list.iter().enumerate() {
                let n = uses[first + i];
                if n > 1 {
                    self.push(
                        join_path(prefix, &format!("{name}.{}", port.name)),
                        Problem::DoublyConnected(n as usize),
                    );
                }
                // Required ports left unconnected. A compound's exported inner ports count as
                // connected: the link lives one level up.
                if n == 0 && !port.optional && !self.is_exported_here(name, &port.name) {
                    self.push(join_path(prefix, &format!("{name}.{}", port.name)), Problem::Unconnected);
                }
            }
        }
        for (end, n) in unknown_uses {
            if n > 1 {
                self.push(join_path(prefix, &end.to_string()), Problem::DoublyConnected(n as usize));
            }
        }
    }

    /// True if port `port` of instance `instance` (in the network being checked) is exported by
    /// the compound being checked.
    fn is_exported_here(&self, instance: &str, port: &str) -> bool {
        let Some(ty_name) = self.stack.last() else {
            return false;
        };
        self.registry
            .get(ty_name)
            .and_then(|t| t.compound.as_ref())
            .is_some_and(|c| c.exports.iter().any(|e| e.inner.instance == instance && e.inner.port == port))
    }
}
#[cfg(test)]
pub(crate) mod tests;
