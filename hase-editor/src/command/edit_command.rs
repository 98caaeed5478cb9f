//! [`EditCommand`]: one edit of the document, with [`TypeDef`] (a type as a command stores it),
//! [`Applied`] (what applying did: the inverse, the instances created) and the labels the undo menu
//! shows.

use std::collections::BTreeMap;

use hase_engine::SimTime;
use hase_engine::model::{
    AbstractionLevel, EntityType, Instance, Link, NetworkLayout, ParamDisplay, ParamValue, Placement, Pos,
    Routing, RunSettings, Workload,
};

use super::fragment::{Alignment, Fragment};
use super::template_insert::TemplateInsert;
use crate::document::NetworkId;

/// A type definition with the layout of its inner network, as stored by [`EditCommand::ReplaceType`].
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDef {
    /// The type.
    pub ty: EntityType,
    /// Layout of its inner network (compound types), if any is stored.
    pub layout: Option<NetworkLayout>,
}

/// One edit of the document.
#[derive(Clone, Debug, PartialEq)]
pub enum EditCommand {
    /// Place a new instance.
    AddInstance {
        /// Network edited.
        net: NetworkId,
        /// Unique new name.
        name: String,
        /// The instance (type, parameter overrides, level).
        instance: Instance,
        /// Centre position.
        pos: Pos,
        /// Parameter display choices.
        displayed: BTreeMap<String, ParamDisplay>,
    },
    /// Remove an instance and every link touching it.
    RemoveInstance {
        /// Network edited.
        net: NetworkId,
        /// Instance name.
        name: String,
    },
    /// Move instances to absolute positions.
    MoveInstances {
        /// Network edited.
        net: NetworkId,
        /// Instance name → new centre.
        moves: Vec<(String, Pos)>,
    },
    /// Connect two ports (checked with the engine's link rules).
    Link {
        /// Network edited.
        net: NetworkId,
        /// The link.
        link: Link,
        /// Position in the link list (`None` appends).
        index: Option<usize>,
        /// Corner points of the drawn link.
        corners: Vec<Pos>,
    },
    /// Remove a link, named by its key (`Link::key`).
    Unlink {
        /// Network edited.
        net: NetworkId,
        /// Link key.
        key: String,
    },
    /// Set (or with `None` clear back to the default) a parameter of an instance.
    SetParam {
        /// Network edited.
        net: NetworkId,
        /// Instance name.
        instance: String,
        /// Parameter name.
        param: String,
        /// New override.
        value: Option<ParamValue>,
    },
    /// Set a link's latency and bandwidth.
    SetLinkProps {
        /// Network edited.
        net: NetworkId,
        /// Link key.
        key: String,
        /// Latency.
        latency: SimTime,
        /// Bandwidth in bytes per second (0 = unlimited).
        bandwidth_bytes_per_s: u64,
    },
    /// Set the corner points of a link.
    SetCorners {
        /// Network edited.
        net: NetworkId,
        /// Link key.
        key: String,
        /// Corner points from end `a` to end `b`.
        corners: Vec<Pos>,
    },
    /// Rename an instance (links, layout and compound exports follow).
    Rename {
        /// Network edited.
        net: NetworkId,
        /// Current name.
        from: String,
        /// New name.
        to: String,
    },
    /// Choose the abstraction level of a compound instance.
    SetLevel {
        /// Network edited.
        net: NetworkId,
        /// Instance name.
        instance: String,
        /// New level.
        level: AbstractionLevel,
    },
    /// Choose how a parameter is shown on the canvas.
    SetDisplay {
        /// Network edited.
        net: NetworkId,
        /// Instance name.
        instance: String,
        /// Parameter name.
        param: String,
        /// Display choice.
        display: ParamDisplay,
    },
    /// Define, replace or (with `None`) remove a project type.
    ReplaceType {
        /// Type name.
        name: String,
        /// New definition.
        def: Option<Box<TypeDef>>,
    },
    /// Turn instances into a new compound type and one instance of it (HASE port inheritance).
    Group {
        /// Network edited.
        net: NetworkId,
        /// Instances to group.
        instances: Vec<String>,
        /// Name of the new type.
        type_name: String,
        /// Name of the new instance.
        instance_name: String,
    },
    /// Replace a compound instance by a copy of its inner network.
    Ungroup {
        /// Network edited.
        net: NetworkId,
        /// Compound instance.
        instance: String,
    },
    /// Insert copied instances and links, renamed to fresh names, shifted by `offset`.
    Paste {
        /// Network edited.
        net: NetworkId,
        /// What was copied.
        fragment: Fragment,
        /// Shift applied to every position.
        offset: Pos,
    },
    /// Align or distribute instances.
    Align {
        /// Network edited.
        net: NetworkId,
        /// Instances.
        instances: Vec<String>,
        /// How.
        how: Alignment,
    },
    /// Replace what drives the processors.
    SetWorkload {
        /// The new workload.
        workload: Workload,
    },
    /// Replace the run settings (seed, trace level, run-until time).
    SetRunSettings {
        /// The new settings.
        settings: RunSettings,
    },
    /// Put back an earlier workload and run settings without checking them (they were the
    /// document's): the inverse of [`EditCommand::SetWorkload`] and [`EditCommand::SetRunSettings`], so
    /// that undo works even for values a loaded file held that the checks would refuse.
    RestoreRun {
        /// The workload.
        workload: Workload,
        /// The run settings.
        settings: RunSettings,
    },
    /// Place the workload's ranks on processors (every processor, the first N, or a list).
    SetPlacement {
        /// The new placement.
        placement: Placement,
    },
    /// Rename the project (what "Save as" does to the document it continues with).
    SetProjectName {
        /// The new name.
        name: String,
    },
    /// Set the routing rule of a network.
    SetRouting {
        /// Network edited.
        net: NetworkId,
        /// The rule.
        routing: Routing,
    },
    /// Insert a network generated by a topology template (expanded into a batch).
    InsertTemplate {
        /// Network edited.
        net: NetworkId,
        /// What to generate, and how to name and place it.
        insert: Box<TemplateInsert>,
    },
    /// Several commands applied as one (undone as one).
    Batch {
        /// What the batch does, for the undo menu.
        label: String,
        /// The commands, in order.
        commands: Vec<EditCommand>,
    },
}

/// What applying a command did: the command that undoes it, and the names of instances it created
/// (the editor selects those).
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    /// Applying this restores the document.
    pub inverse: EditCommand,
    /// Instances created, in the network of the command.
    pub created: Vec<String>,
}

impl EditCommand {
    /// A short description for the undo menu and the log ("move 3 entities").
    pub fn label(&self) -> String {
        match self {
            EditCommand::AddInstance { name, instance, .. } => format!("add {name} ({})", instance.type_name),
            EditCommand::RemoveInstance { name, .. } => format!("remove {name}"),
            EditCommand::MoveInstances { moves, .. } if moves.len() == 1 => format!("move {}", moves[0].0),
            EditCommand::MoveInstances { moves, .. } => format!("move {} entities", moves.len()),
            EditCommand::Link { link, .. } => format!("link {} to {}", link.a, link.b),
            EditCommand::Unlink { key, .. } => format!("unlink {key}"),
            EditCommand::SetParam { instance, param, .. } => format!("set {instance}.{param}"),
            EditCommand::SetLinkProps { key, .. } => format!("set link {key}"),
            EditCommand::SetCorners { .. } => "edit link corners".into(),
            EditCommand::Rename { from, to, .. } => format!("rename {from} to {to}"),
            EditCommand::SetLevel { instance, level, .. } => format!("set {instance} {}", level.word()),
            EditCommand::SetDisplay { instance, param, .. } => format!("display {instance}.{param}"),
            EditCommand::ReplaceType { name, def: Some(_) } => format!("define type {name}"),
            EditCommand::ReplaceType { name, def: None } => format!("remove type {name}"),
            EditCommand::Group { type_name, .. } => format!("group into {type_name}"),
            EditCommand::Ungroup { instance, .. } => format!("ungroup {instance}"),
            EditCommand::Paste { fragment, .. } => format!("paste {} entities", fragment.instances.len()),
            EditCommand::Align { how, .. } => how.label().to_string(),
            EditCommand::SetWorkload { workload } => format!("set workload ({})", workload_word(workload)),
            EditCommand::SetRunSettings { .. } => "set run settings".into(),
            EditCommand::RestoreRun { .. } => "restore workload and run settings".into(),
            EditCommand::SetProjectName { name } => format!("rename project to {name}"),
            EditCommand::SetPlacement { placement } => format!("place ranks on {}", placement.describe()),
            EditCommand::SetRouting { routing, .. } => format!("set routing to {}", routing.name()),
            EditCommand::InsertTemplate { insert, .. } => insert.label(),
            EditCommand::Batch { label, .. } => label.clone(),
        }
    }
}

/// A word for a workload in labels and headings.
pub fn workload_word(workload: &Workload) -> String {
    match workload {
        Workload::Idle => "idle".into(),
        Workload::Program { name, .. } => format!("program {name}"),
        Workload::Streams { streams } => format!("{} instruction streams", streams.len()),
        Workload::TimeIndependentTrace { .. } => "time-independent trace".into(),
    }
}
