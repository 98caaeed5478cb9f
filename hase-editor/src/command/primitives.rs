//! The primitive commands: each changes one thing, checks it first (so a refusal changes nothing)
//! and returns its exact inverse.

use std::collections::BTreeMap;

use hase_engine::model::{
    AbstractionLevel, Link, Network, NetworkLayout, ParamDisplay, ParamValue, PortRef, Pos,
};
use hase_engine::validate::{ValidationError, link_problem};

use super::edit_command::{Applied, EditCommand, TypeDef};
use super::error::CommandError;
use crate::document::{Document, NetworkId, check_instance_name};

#[allow(clippy::unnecessary_wraps, reason = "the tail of every primitive, which all return a Result")]
fn done(inverse: EditCommand) -> Result<Applied, CommandError> {
    Ok(Applied { inverse, created: Vec::new() })
}

fn no_network(net: &NetworkId) -> CommandError {
    CommandError::NoNetwork(net.clone())
}

fn network_mut<'a>(doc: &'a mut Document, net: &NetworkId) -> Result<&'a mut Network, CommandError> {
    doc.network_mut(net).ok_or_else(|| no_network(net))
}

fn layout_mut<'a>(doc: &'a mut Document, net: &NetworkId) -> &'a mut NetworkLayout {
    match net {
        NetworkId::Top => &mut doc.project.layout.top,
        NetworkId::Type(t) => doc.project.layout.types.entry(t.clone()).or_default(),
    }
}

fn network<'a>(doc: &'a Document, net: &NetworkId) -> Result<&'a Network, CommandError> {
    doc.network(net).ok_or_else(|| no_network(net))
}

fn missing(name: &str) -> CommandError {
    CommandError::NoInstance(name.to_string())
}

/// The outer port a compound type exports `port` as, when `net` is a compound's inner network.
fn exported_as(doc: &Document, net: &NetworkId, port: &PortRef) -> Option<String> {
    let NetworkId::Type(t) = net else { return None };
    let compound = doc.project.types.get(t)?.compound.as_ref()?;
    compound.exports.iter().find(|e| &e.inner == port).map(|e| e.outer.clone())
}

fn link_index(net: &Network, key: &str) -> Option<usize> {
    net.links.iter().position(|l| has_key(l, key))
}

/// `link.key() == key` without building the key (undoing a large insert unlinks thousands of
/// links, each looked up among thousands).
pub(crate) fn has_key(link: &Link, key: &str) -> bool {
    let (x, y) = if link.a <= link.b { (&link.a, &link.b) } else { (&link.b, &link.a) };
    let rest = key.strip_prefix(x.instance.as_str()).and_then(|r| r.strip_prefix('.'));
    let rest = rest.and_then(|r| r.strip_prefix(x.port.as_str())).and_then(|r| r.strip_prefix("--"));
    let rest = rest.and_then(|r| r.strip_prefix(y.instance.as_str())).and_then(|r| r.strip_prefix('.'));
    rest.is_some_and(|r| r == y.port)
}

/// Apply one primitive command (the composite ones are expanded by `super::apply`).
pub(super) fn apply_primitive(doc: &mut Document, command: EditCommand) -> Result<Applied, CommandError> {
    match command {
        EditCommand::AddInstance { net, name, instance, pos, displayed } => {
            check_instance_name(&name)?;
            if doc.entity_type(&instance.type_name).is_none() {
                return Err(CommandError::UnknownType { instance: name, type_name: instance.type_name });
            }
            if NetworkId::Type(instance.type_name.clone()) == net {
                return Err(CommandError::ContainsItself { instance: name, type_name: instance.type_name });
            }
            if network(doc, &net)?.instances.contains_key(&name) {
                return Err(CommandError::NameTaken(name));
            }
            network_mut(doc, &net)?.instances.insert(name.clone(), instance);
            let layout = layout_mut(doc, &net);
            layout.positions.insert(name.clone(), pos);
            if !displayed.is_empty() {
                layout.displayed.insert(name.clone(), displayed);
            }
            Ok(Applied {
                inverse: EditCommand::RemoveInstance { net, name: name.clone() },
                created: vec![name],
            })
        }
        EditCommand::RemoveInstance { net, name } => remove_instance(doc, &net, &name),
        EditCommand::MoveInstances { net, moves } => {
            let n = network(doc, &net)?;
            if let Some((bad, _)) = moves.iter().find(|(m, _)| !n.instances.contains_key(m)) {
                return Err(missing(bad));
            }
            let layout = layout_mut(doc, &net);
            let mut old: Vec<(String, Pos)> = moves
                .iter()
                .map(|(m, p)| (m.clone(), layout.positions.insert(m.clone(), *p).unwrap_or_default()))
                .collect();
            // Undo in reverse order, so that an instance listed twice ends where it started.
            old.reverse();
            done(EditCommand::MoveInstances { net, moves: old })
        }
        EditCommand::Link { net, link, index, corners } => add_link(doc, net, link, index, corners),
        EditCommand::Unlink { net, key } => {
            let n = network_mut(doc, &net)?;
            let index = link_index(n, &key).ok_or_else(|| CommandError::NoLink(key.clone()))?;
            let link = n.links.remove(index);
            let corners = layout_mut(doc, &net).corners.remove(&key).unwrap_or_default();
            done(EditCommand::Link { net, link, index: Some(index), corners })
        }
        EditCommand::SetParam { net, instance, param, value } => set_param(doc, net, instance, param, value),
        EditCommand::SetLinkProps { net, key, latency, bandwidth_bytes_per_s } => {
            let n = network_mut(doc, &net)?;
            let index = link_index(n, &key).ok_or_else(|| CommandError::NoLink(key.clone()))?;
            let link = &mut n.links[index];
            let old = (link.latency, link.bandwidth_bytes_per_s);
            link.latency = latency;
            link.bandwidth_bytes_per_s = bandwidth_bytes_per_s;
            done(EditCommand::SetLinkProps { net, key, latency: old.0, bandwidth_bytes_per_s: old.1 })
        }
        EditCommand::SetCorners { net, key, corners } => {
            if link_index(network(doc, &net)?, &key).is_none() {
                return Err(CommandError::NoLink(key));
            }
            let layout = layout_mut(doc, &net);
            let old = layout.corners.insert(key.clone(), corners).unwrap_or_default();
            done(EditCommand::SetCorners { net, key, corners: old })
        }
        EditCommand::Rename { net, from, to } => rename(doc, net, from, to),
        EditCommand::SetLevel { net, instance, level } => {
            let inst = network(doc, &net)?.instances.get(&instance).ok_or_else(|| missing(&instance))?;
            let ty = doc.entity_type(&inst.type_name).ok_or_else(|| CommandError::UnknownType {
                instance: instance.clone(),
                type_name: inst.type_name.clone(),
            })?;
            if !ty.is_compound() {
                return Err(CommandError::OneLevelOnly { instance, type_name: ty.name.clone() });
            }
            if level == AbstractionLevel::Behavioural && ty.behaviour.is_none() {
                return Err(CommandError::NoBehaviouralModel { instance, type_name: ty.name.clone() });
            }
            let inst =
                network_mut(doc, &net)?.instances.get_mut(&instance).ok_or_else(|| missing(&instance))?;
            let old = std::mem::replace(&mut inst.level, level);
            done(EditCommand::SetLevel { net, instance, level: old })
        }
        EditCommand::SetDisplay { net, instance, param, display } => {
            if !network(doc, &net)?.instances.contains_key(&instance) {
                return Err(missing(&instance));
            }
            let map = layout_mut(doc, &net).displayed.entry(instance.clone()).or_default();
            let old = if display == ParamDisplay::Hidden {
                map.remove(&param)
            } else {
                map.insert(param.clone(), display)
            };
            done(EditCommand::SetDisplay { net, instance, param, display: old.unwrap_or_default() })
        }
        EditCommand::ReplaceType { name, def } => replace_type(doc, name, def),
        composite => {
            Err(CommandError::Internal(format!("`{}` is not a primitive command", composite.label())))
        }
    }
}

fn remove_instance(doc: &mut Document, net: &NetworkId, name: &str) -> Result<Applied, CommandError> {
    if !network(doc, net)?.instances.contains_key(name) {
        return Err(missing(name));
    }
    if let NetworkId::Type(t) = net {
        let compound = doc.project.types.get(t).and_then(|t| t.compound.as_ref());
        if let Some(e) = compound.and_then(|c| c.exports.iter().find(|e| e.inner.instance == name)) {
            return Err(CommandError::ExportedFromType {
                port: e.inner.clone(),
                outer: e.outer.clone(),
                type_name: t.clone(),
            });
        }
    }
    let n = network_mut(doc, net)?;
    let instance = n.instances.remove(name).ok_or_else(|| missing(name))?;
    let mut removed = Vec::new();
    // Remove touching links, remembering their original indices (ascending).
    let mut original = 0;
    n.links.retain(|l| {
        let keep = l.a.instance != name && l.b.instance != name;
        if !keep {
            removed.push((original, l.clone()));
        }
        original += 1;
        keep
    });
    let layout = layout_mut(doc, net);
    let pos = layout.positions.remove(name).unwrap_or_default();
    let displayed = layout.displayed.remove(name).unwrap_or_default();
    let mut undo =
        vec![EditCommand::AddInstance { net: net.clone(), name: name.to_string(), instance, pos, displayed }];
    for (i, link) in removed {
        let corners = layout.corners.remove(&link.key()).unwrap_or_default();
        undo.push(EditCommand::Link { net: net.clone(), link, index: Some(i), corners });
    }
    done(EditCommand::Batch { label: format!("restore {name}"), commands: undo })
}

fn add_link(
    doc: &mut Document,
    net: NetworkId,
    link: Link,
    index: Option<usize>,
    corners: Vec<Pos>,
) -> Result<Applied, CommandError> {
    let n = network(doc, &net)?;
    if link.a == link.b {
        return Err(CommandError::SelfLink(link.a.clone()));
    }
    let mut ends = Vec::new();
    for end in [&link.a, &link.b] {
        if !n.instances.contains_key(&end.instance) {
            return Err(missing(&end.instance));
        }
        let port = doc
            .ports_of(&net, &end.instance)
            .into_iter()
            .find(|p| p.name == end.port)
            .ok_or_else(|| CommandError::NoPort(end.clone()))?;
        if let Some(other) = n.link_at(end) {
            let peer = if &other.a == end { &other.b } else { &other.a };
            return Err(CommandError::PortTaken { port: end.clone(), peer: peer.clone() });
        }
        if let Some(outer) = exported_as(doc, &net, end) {
            return Err(CommandError::PortExported { port: end.clone(), outer });
        }
        ends.push(port);
    }
    if let Some(problem) = link_problem(&ends[0], &ends[1], &link.b.to_string()) {
        let error = ValidationError { path: link.a.to_string(), problem };
        return Err(CommandError::LinkRefused(error));
    }
    let key = link.key();
    let n = network_mut(doc, &net)?;
    match index {
        Some(i) if i <= n.links.len() => n.links.insert(i, link),
        _ => n.links.push(link),
    }
    if !corners.is_empty() {
        layout_mut(doc, &net).corners.insert(key.clone(), corners);
    }
    done(EditCommand::Unlink { net, key })
}

fn set_param(
    doc: &mut Document,
    net: NetworkId,
    instance: String,
    param: String,
    value: Option<ParamValue>,
) -> Result<Applied, CommandError> {
    let n = network(doc, &net)?;
    let inst = n.instances.get(&instance).ok_or_else(|| missing(&instance))?;
    let ty = doc.entity_type(&inst.type_name).ok_or_else(|| CommandError::UnknownType {
        instance: instance.clone(),
        type_name: inst.type_name.clone(),
    })?;
    let def = ty.param(&param).ok_or_else(|| CommandError::UnknownParam {
        instance: instance.clone(),
        type_name: ty.name.clone(),
        param: param.clone(),
    })?;
    if let Some(v) = &value {
        def.kind
            .check(v)
            .map_err(|source| CommandError::BadValue { at: format!("{instance}.{param}"), source })?;
    }
    // A parameter sizing a port array must not orphan a linked port.
    let mut params = inst.params.clone();
    match &value {
        Some(v) => params.insert(param.clone(), v.clone()),
        None => params.remove(&param),
    };
    let ports = ty.concrete_ports(&params);
    for link in &n.links {
        for end in [&link.a, &link.b] {
            if end.instance == instance && !ports.iter().any(|p| p.name == end.port) {
                return Err(CommandError::PortWouldVanish {
                    port: end.clone(),
                    param,
                    value: value.as_ref().map_or_else(|| "its default".into(), ParamValue::display),
                });
            }
        }
    }
    let inst = network_mut(doc, &net)?.instances.get_mut(&instance).ok_or_else(|| missing(&instance))?;
    let old = match value {
        Some(v) => inst.params.insert(param.clone(), v),
        None => inst.params.remove(&param),
    };
    done(EditCommand::SetParam { net, instance, param, value: old })
}

fn rename(doc: &mut Document, net: NetworkId, from: String, to: String) -> Result<Applied, CommandError> {
    check_instance_name(&to)?;
    let n = network(doc, &net)?;
    if !n.instances.contains_key(&from) {
        return Err(missing(&from));
    }
    if from == to {
        return Err(CommandError::NameUnchanged(from));
    }
    if n.instances.contains_key(&to) {
        return Err(CommandError::NameTaken(to));
    }
    let n = network_mut(doc, &net)?;
    let inst = n.instances.remove(&from).ok_or_else(|| missing(&from))?;
    n.instances.insert(to.clone(), inst);
    let mut rekeyed = Vec::new();
    for link in &mut n.links {
        let old_key = link.key();
        let mut touched = false;
        for end in [&mut link.a, &mut link.b] {
            if end.instance == from {
                end.instance.clone_from(&to);
                touched = true;
            }
        }
        if touched {
            rekeyed.push((old_key, link.key()));
        }
    }
    if let NetworkId::Type(t) = &net
        && let Some(c) = doc.project.types.get_mut(t).and_then(|t| t.compound.as_mut())
    {
        for e in &mut c.exports {
            if e.inner.instance == from {
                e.inner.instance.clone_from(&to);
            }
        }
    }
    let layout = layout_mut(doc, &net);
    rename_key(&mut layout.positions, &from, &to);
    rename_key(&mut layout.displayed, &from, &to);
    for (old_key, new_key) in rekeyed {
        rename_key(&mut layout.corners, &old_key, &new_key);
    }
    done(EditCommand::Rename { net, from: to, to: from })
}

fn rename_key<V>(map: &mut BTreeMap<String, V>, from: &str, to: &str) {
    if let Some(v) = map.remove(from) {
        map.insert(to.to_string(), v);
    }
}

fn replace_type(
    doc: &mut Document,
    name: String,
    def: Option<Box<TypeDef>>,
) -> Result<Applied, CommandError> {
    if doc.builtins().get(&name).is_some() {
        return Err(CommandError::BuiltinType(name));
    }
    if def.is_none() && doc.type_in_use(&name) {
        return Err(CommandError::TypeInUse(name));
    }
    if let Some(d) = &def
        && d.ty.name != name
    {
        return Err(CommandError::Internal(format!("type `{}` stored as `{name}`", d.ty.name)));
    }
    let old_layout = doc.project.layout.types.remove(&name);
    let old = match def {
        Some(d) => {
            let TypeDef { ty, layout } = *d;
            if let Some(l) = layout {
                doc.project.layout.types.insert(name.clone(), l);
            }
            doc.project.types.insert(name.clone(), ty)
        }
        None => doc.project.types.remove(&name),
    };
    done(EditCommand::ReplaceType { name, def: old.map(|ty| Box::new(TypeDef { ty, layout: old_layout })) })
}
