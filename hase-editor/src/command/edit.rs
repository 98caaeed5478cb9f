//! Clipboard fragments (copy/paste/duplicate) and alignment of instances.

use std::collections::{BTreeMap, BTreeSet};

use hase_engine::model::{Link, PortRef, Pos};

use super::edit_command::EditCommand;
use super::error::CommandError;
use super::fragment::{Alignment, Fragment};
use crate::document::{Document, NetworkId, stem_of};

impl Fragment {
    /// Copy `names` (and the links among them) from network `net`.
    pub fn copy(doc: &Document, net: &NetworkId, names: &[String]) -> Self {
        let Some(network) = doc.network(net) else {
            return Fragment::default();
        };
        let set: BTreeSet<&str> = names.iter().map(String::as_str).collect();
        let layout = doc.layout(net);
        Fragment {
            instances: set
                .iter()
                .filter_map(|n| {
                    let inst = network.instances.get(*n)?;
                    Some((
                        (*n).to_string(),
                        inst.clone(),
                        doc.position(net, n),
                        layout.displayed.get(*n).cloned().unwrap_or_default(),
                    ))
                })
                .collect(),
            links: network
                .links
                .iter()
                .filter(|l| set.contains(l.a.instance.as_str()) && set.contains(l.b.instance.as_str()))
                .cloned()
                .collect(),
        }
    }

    /// True if nothing was copied.
    pub fn is_empty(&self) -> bool {
        self.instances.is_empty()
    }
}

/// The batch inserting `fragment` into `net` with fresh names, shifted by `offset`.
pub(super) fn paste(
    doc: &Document,
    net: &NetworkId,
    fragment: &Fragment,
    offset: Pos,
) -> Result<EditCommand, CommandError> {
    let network = doc.network(net).ok_or_else(|| CommandError::NoNetwork(net.clone()))?;
    if fragment.is_empty() {
        return Err(CommandError::EmptyClipboard);
    }
    let mut taken: BTreeSet<String> = network.instances.keys().cloned().collect();
    let mut renamed = BTreeMap::new();
    let mut commands = Vec::new();
    for (name, instance, pos, displayed) in &fragment.instances {
        let stem = stem_of(name);
        let fresh = (0..=taken.len())
            .map(|i| format!("{stem}{i}"))
            .find(|c| !taken.contains(c))
            .unwrap_or_else(|| format!("{name}_"));
        taken.insert(fresh.clone());
        renamed.insert(name.clone(), fresh.clone());
        commands.push(EditCommand::AddInstance {
            net: net.clone(),
            name: fresh,
            instance: instance.clone(),
            pos: Pos::new(pos.x + offset.x, pos.y + offset.y),
            displayed: displayed.clone(),
        });
    }
    for link in &fragment.links {
        let (Some(a), Some(b)) = (renamed.get(&link.a.instance), renamed.get(&link.b.instance)) else {
            continue;
        };
        commands.push(EditCommand::Link {
            net: net.clone(),
            link: Link { a: PortRef::new(a, &link.a.port), b: PortRef::new(b, &link.b.port), ..link.clone() },
            index: None,
            corners: Vec::new(),
        });
    }
    Ok(EditCommand::Batch { label: format!("paste {} entities", fragment.instances.len()), commands })
}

impl Alignment {
    /// Every alignment, in menu order.
    pub const ALL: [Alignment; 8] = [
        Alignment::Left,
        Alignment::CentreHorizontal,
        Alignment::Right,
        Alignment::Top,
        Alignment::Middle,
        Alignment::Bottom,
        Alignment::DistributeHorizontal,
        Alignment::DistributeVertical,
    ];

    /// Menu text.
    pub fn label(self) -> &'static str {
        match self {
            Alignment::Left => "align left",
            Alignment::CentreHorizontal => "align centres horizontally",
            Alignment::Right => "align right",
            Alignment::Top => "align top",
            Alignment::Middle => "align middles vertically",
            Alignment::Bottom => "align bottom",
            Alignment::DistributeHorizontal => "distribute horizontally",
            Alignment::DistributeVertical => "distribute vertically",
        }
    }
}

/// The new positions aligning `names` in `net` (instances that do not exist are skipped).
pub fn align_moves(doc: &Document, net: &NetworkId, names: &[String], how: Alignment) -> Vec<(String, Pos)> {
    let layout = doc.layout(net);
    let mut items: Vec<(String, Pos)> =
        names.iter().filter_map(|n| layout.positions.get(n).map(|p| (n.clone(), *p))).collect();
    if items.is_empty() {
        return items;
    }
    let xs = || items.iter().map(|(_, p)| p.x);
    let ys = || items.iter().map(|(_, p)| p.y);
    let n = items.len() as f32;
    let min_x = xs().fold(f32::INFINITY, f32::min);
    let max_x = xs().fold(f32::NEG_INFINITY, f32::max);
    let min_y = ys().fold(f32::INFINITY, f32::min);
    let max_y = ys().fold(f32::NEG_INFINITY, f32::max);
    let mean_x = xs().sum::<f32>() / n;
    let mean_y = ys().sum::<f32>() / n;
    let set_x = |items: &mut Vec<(String, Pos)>, x: f32| items.iter_mut().for_each(|(_, p)| p.x = x);
    let set_y = |items: &mut Vec<(String, Pos)>, y: f32| items.iter_mut().for_each(|(_, p)| p.y = y);
    match how {
        Alignment::Left => set_x(&mut items, min_x),
        Alignment::CentreHorizontal => set_x(&mut items, mean_x),
        Alignment::Right => set_x(&mut items, max_x),
        Alignment::Top => set_y(&mut items, min_y),
        Alignment::Middle => set_y(&mut items, mean_y),
        Alignment::Bottom => set_y(&mut items, max_y),
        Alignment::DistributeHorizontal => {
            items.sort_by(|a, b| a.1.x.total_cmp(&b.1.x).then_with(|| a.0.cmp(&b.0)));
            let step = if items.len() > 1 { (max_x - min_x) / (n - 1.0) } else { 0.0 };
            for (i, (_, p)) in items.iter_mut().enumerate() {
                p.x = min_x + step * i as f32;
            }
        }
        Alignment::DistributeVertical => {
            items.sort_by(|a, b| a.1.y.total_cmp(&b.1.y).then_with(|| a.0.cmp(&b.0)));
            let step = if items.len() > 1 { (max_y - min_y) / (n - 1.0) } else { 0.0 };
            for (i, (_, p)) in items.iter_mut().enumerate() {
                p.y = min_y + step * i as f32;
            }
        }
    }
    items
}
