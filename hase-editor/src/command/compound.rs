//! Group into compound and ungroup, expanded into batches of primitive commands.
//!
//! Grouping follows HASE's port inheritance: the new compound type's outer ports are the grouped
//! instances' ports that were linked to instances outside the group or were unconnected; links to
//! the outside are re-attached to the new instance's outer ports. Ungrouping reverses it.

use std::collections::{BTreeMap, BTreeSet};

use hase_engine::model::{
    CompoundDef, EntityType, Instance, Link, Network, NetworkLayout, PortCount, PortDef, PortExport, PortRef,
    Pos,
};

use super::edit_command::{EditCommand, TypeDef};
use super::error::{CommandError, ExportedAction};
use crate::document::{Document, NetworkId, check_instance_name, stem_of};

/// Palette category of types made by grouping.
pub const COMPOUND_CATEGORY: &str = "Compounds";

fn centroid<'a>(points: impl Iterator<Item = &'a Pos>) -> Pos {
    let (mut x, mut y, mut n) = (0.0, 0.0, 0.0);
    for p in points {
        x += p.x;
        y += p.y;
        n += 1.0;
    }
    if n == 0.0 { Pos::default() } else { Pos::new(x / n, y / n) }
}

fn shift(p: Pos, by: Pos, sign: f32) -> Pos {
    Pos::new(p.x + sign * by.x, p.y + sign * by.y)
}

fn exports_of(doc: &Document, net: &NetworkId) -> Vec<PortExport> {
    match net {
        NetworkId::Top => Vec::new(),
        NetworkId::Type(t) => doc
            .project
            .types
            .get(t)
            .and_then(|t| t.compound.as_ref())
            .map(|c| c.exports.clone())
            .unwrap_or_default(),
    }
}

/// The batch that groups `names` of network `net` into a new compound type `type_name` and one
/// instance `instance_name` of it placed at the group's centre.
pub(super) fn group(
    doc: &Document,
    net: &NetworkId,
    names: &[String],
    type_name: &str,
    instance_name: &str,
) -> Result<EditCommand, CommandError> {
    let network = doc.network(net).ok_or_else(|| CommandError::NoNetwork(net.clone()))?;
    let group: BTreeSet<&str> = names.iter().map(String::as_str).collect();
    if group.is_empty() {
        return Err(CommandError::NothingToGroup);
    }
    if let Some(bad) = group.iter().find(|n| !network.instances.contains_key(**n)) {
        return Err(CommandError::NoInstance((*bad).to_string()));
    }
    check_instance_name(instance_name)?;
    if network.instances.contains_key(instance_name) && !group.contains(instance_name) {
        return Err(CommandError::NameTaken(instance_name.to_string()));
    }
    if doc.entity_type(type_name).is_some() {
        return Err(CommandError::TypeExists(type_name.to_string()));
    }
    if let Some(e) = exports_of(doc, net).into_iter().find(|e| group.contains(e.inner.instance.as_str())) {
        return Err(CommandError::Exported { port: e.inner, outer: e.outer, action: ExportedAction::Group });
    }
    let layout = doc.layout(net);
    let centre = centroid(group.iter().filter_map(|n| layout.positions.get(*n)));
    let inside = |r: &PortRef| group.contains(r.instance.as_str());

    // Inner network and its layout, relative to the group's centre.
    let mut inner = Network { routing: network.routing.clone(), ..Network::default() };
    let mut inner_layout = NetworkLayout::default();
    for name in &group {
        inner.instances.insert((*name).to_string(), network.instances[*name].clone());
        inner_layout.positions.insert((*name).to_string(), shift(doc.position(net, name), centre, -1.0));
        if let Some(d) = layout.displayed.get(*name) {
            inner_layout.displayed.insert((*name).to_string(), d.clone());
        }
    }
    for link in network.links.iter().filter(|l| inside(&l.a) && inside(&l.b)) {
        inner.links.push(link.clone());
        if let Some(c) = layout.corners.get(&link.key()) {
            let moved = c.iter().map(|p| shift(*p, centre, -1.0)).collect();
            inner_layout.corners.insert(link.key(), moved);
        }
    }

    // Outer ports: inner ports linked to the outside, or unconnected.
    let mut ports = Vec::new();
    let mut exports = Vec::new();
    let mut outer_of: BTreeMap<PortRef, String> = BTreeMap::new();
    for name in &group {
        for port in doc.ports_of(net, name) {
            let r = PortRef::new(name, &port.name);
            let linked_inside = network.link_at(&r).is_some_and(|l| inside(&l.a) && inside(&l.b));
            if linked_inside {
                continue;
            }
            let mut outer = format!("{name}_{}", port.name);
            while ports.iter().any(|p: &PortDef| p.name == outer) {
                outer.push('_');
            }
            ports.push(PortDef {
                name: outer.clone(),
                direction: port.direction,
                link_type: port.link_type.clone(),
                count: PortCount::One,
                optional: port.optional,
            });
            exports.push(PortExport { outer: outer.clone(), inner: r.clone() });
            outer_of.insert(r, outer);
        }
    }
    let listed: Vec<&str> = group.iter().copied().collect();
    let ty = EntityType {
        name: type_name.to_string(),
        category: COMPOUND_CATEGORY.into(),
        description: format!("Grouped from {}.", listed.join(", ")),
        icon: None,
        ports,
        params: Vec::new(),
        states: Vec::new(),
        behaviour: None,
        compound: Some(CompoundDef { network: inner, exports }),
    };

    let mut commands = vec![EditCommand::ReplaceType {
        name: type_name.to_string(),
        def: Some(Box::new(TypeDef { ty, layout: Some(inner_layout) })),
    }];
    let outside_links: Vec<Link> =
        network.links.iter().filter(|l| inside(&l.a) != inside(&l.b)).cloned().collect();
    commands.extend(
        group.iter().map(|n| EditCommand::RemoveInstance { net: net.clone(), name: (*n).to_string() }),
    );
    commands.push(EditCommand::AddInstance {
        net: net.clone(),
        name: instance_name.to_string(),
        instance: Instance::of(type_name),
        pos: centre,
        displayed: BTreeMap::new(),
    });
    for mut link in outside_links {
        for end in [&mut link.a, &mut link.b] {
            if let Some(outer) = outer_of.get(end) {
                *end = PortRef::new(instance_name, outer);
            }
        }
        commands.push(EditCommand::Link { net: net.clone(), link, index: None, corners: Vec::new() });
    }
    Ok(EditCommand::Batch { label: format!("group {} entities into {type_name}", group.len()), commands })
}

/// How many instances of type `name` the project holds, over every network.
fn uses_of(doc: &Document, name: &str) -> usize {
    let count = |n: &Network| n.instances.values().filter(|i| i.type_name == name).count();
    count(&doc.project.network)
        + doc
            .project
            .types
            .values()
            .filter_map(|t| t.compound.as_ref())
            .map(|c| count(&c.network))
            .sum::<usize>()
}

/// The batch that replaces compound instance `name` by its inner network; the type is removed when
/// no other instance uses it.
pub(super) fn ungroup(doc: &Document, net: &NetworkId, name: &str) -> Result<EditCommand, CommandError> {
    let network = doc.network(net).ok_or_else(|| CommandError::NoNetwork(net.clone()))?;
    let inst = network.instances.get(name).ok_or_else(|| CommandError::NoInstance(name.to_string()))?;
    let type_name = inst.type_name.clone();
    let ty_id = NetworkId::Type(type_name.clone());
    let Some(compound) = doc.entity_type(&type_name).and_then(|t| t.compound.as_ref()) else {
        return Err(CommandError::NothingToUngroup { instance: name.to_string(), type_name });
    };
    if let Some(e) = exports_of(doc, net).into_iter().find(|e| e.inner.instance == name) {
        return Err(CommandError::Exported {
            port: e.inner,
            outer: e.outer,
            action: ExportedAction::Ungroup,
        });
    }
    let inner_layout = doc.layout(&ty_id);
    let here = doc.position(net, name);
    let centre = centroid(compound.network.instances.keys().filter_map(|n| inner_layout.positions.get(n)));
    let offset = Pos::new(here.x - centre.x, here.y - centre.y);

    // Fresh names for inner instances whose names are taken here.
    let mut taken: BTreeSet<String> = network.instances.keys().filter(|n| *n != name).cloned().collect();
    let mut renamed: BTreeMap<String, String> = BTreeMap::new();
    for inner in compound.network.instances.keys() {
        let new = if taken.contains(inner) {
            let stem = stem_of(inner);
            (0..=taken.len())
                .map(|i| format!("{stem}{i}"))
                .find(|c| !taken.contains(c))
                .unwrap_or_else(|| format!("{inner}_"))
        } else {
            inner.clone()
        };
        taken.insert(new.clone());
        renamed.insert(inner.clone(), new);
    }
    let map_ref = |r: &PortRef| PortRef::new(&renamed[&r.instance], &r.port);

    let mut commands = vec![EditCommand::RemoveInstance { net: net.clone(), name: name.to_string() }];
    for (inner, instance) in &compound.network.instances {
        commands.push(EditCommand::AddInstance {
            net: net.clone(),
            name: renamed[inner].clone(),
            instance: instance.clone(),
            pos: shift(inner_layout.positions.get(inner).copied().unwrap_or(centre), offset, 1.0),
            displayed: inner_layout.displayed.get(inner).cloned().unwrap_or_default(),
        });
    }
    for link in &compound.network.links {
        let corners = inner_layout
            .corners
            .get(&link.key())
            .map(|c| c.iter().map(|p| shift(*p, offset, 1.0)).collect())
            .unwrap_or_default();
        commands.push(EditCommand::Link {
            net: net.clone(),
            link: Link { a: map_ref(&link.a), b: map_ref(&link.b), ..link.clone() },
            index: None,
            corners,
        });
    }
    for link in network.links.iter().filter(|l| l.a.instance == name || l.b.instance == name) {
        let mut link = link.clone();
        let mut ok = true;
        for end in [&mut link.a, &mut link.b] {
            if end.instance == name {
                match compound.exports.iter().find(|e| e.outer == end.port) {
                    Some(e) => *end = map_ref(&e.inner),
                    None => ok = false,
                }
            }
        }
        if ok {
            commands.push(EditCommand::Link { net: net.clone(), link, index: None, corners: Vec::new() });
        }
    }
    if uses_of(doc, &type_name) == 1 && doc.project.types.contains_key(&type_name) {
        commands.push(EditCommand::ReplaceType { name: type_name.clone(), def: None });
    }
    Ok(EditCommand::Batch { label: format!("ungroup {name}"), commands })
}
