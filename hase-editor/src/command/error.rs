//! Why a command was refused: one variant per reason, each naming the instance, port, type or
//! parameter at fault. The document is unchanged when a command returns one of these. The texts
//! are what the editor shows in its toasts and log ("cannot link p0.net: …").

use hase_engine::model::{ParamError, PortRef};
use hase_engine::validate::ValidationError;
use hase_entities::workload::stream::StreamError;
use hase_templates::TemplateError;

use crate::document::{NameError, NetworkId};

/// Why a command was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CommandError {
    /// The network the command edits is not in the project.
    #[error("{}", no_network_text(.0))]
    NoNetwork(NetworkId),
    /// An instance named by the command does not exist.
    #[error("{0}: no such instance")]
    NoInstance(String),
    /// The name is taken by another instance.
    #[error("{0}: the name is already used")]
    NameTaken(String),
    /// A generated instance would take a name already used.
    #[error("{0}: the name is already used; choose a name prefix")]
    GeneratedNameTaken(String),
    /// A rename to the same name.
    #[error("{0}: the name is unchanged")]
    NameUnchanged(String),
    /// An instance or type name that cannot be used.
    #[error("{0}")]
    BadName(#[from] NameError),
    /// A type name that cannot be used (template types, compounds).
    #[error("type name {0}")]
    BadTypeName(NameError),
    /// A type of that name exists already.
    #[error("type `{0}` already exists; choose another type name")]
    TypeExists(String),
    /// A built-in type cannot be replaced.
    #[error("`{0}` is a built-in type and cannot be redefined")]
    BuiltinType(String),
    /// A type still used by instances cannot be removed.
    #[error("type `{0}` is still used by instances")]
    TypeInUse(String),
    /// An instance's type is not known.
    #[error("{instance}: unknown entity type `{type_name}`")]
    UnknownType {
        /// The instance.
        instance: String,
        /// Its type.
        type_name: String,
    },
    /// A compound type would contain an instance of itself.
    #[error("{instance}: a compound type cannot contain itself (`{type_name}`)")]
    ContainsItself {
        /// The instance.
        instance: String,
        /// The compound type.
        type_name: String,
    },
    /// An abstraction level asked of a type with one level.
    #[error("{instance}: `{type_name}` is not a compound type; it has one level only")]
    OneLevelOnly {
        /// The instance.
        instance: String,
        /// Its type.
        type_name: String,
    },
    /// The behavioural level asked of a compound without a behavioural model.
    #[error("{instance}: type `{type_name}` has no behavioural model")]
    NoBehaviouralModel {
        /// The instance.
        instance: String,
        /// Its type.
        type_name: String,
    },
    /// Ungroup asked of an instance that is not a compound.
    #[error("{instance}: `{type_name}` is not a compound type; there is nothing to ungroup")]
    NothingToUngroup {
        /// The instance.
        instance: String,
        /// Its type.
        type_name: String,
    },
    /// Group asked with nothing selected.
    #[error("select the entities to group first")]
    NothingToGroup,
    /// Paste with nothing copied.
    #[error("the clipboard is empty")]
    EmptyClipboard,
    /// An instance exported as an outer port of the compound being edited cannot be grouped or
    /// ungrouped here.
    #[error("{port}: exported as outer port `{outer}`; {}", exported_text(*.action))]
    Exported {
        /// The inner port.
        port: PortRef,
        /// The outer port it is exported as.
        outer: String,
        /// What was refused.
        action: ExportedAction,
    },
    /// An instance exported as an outer port of compound type `type_name` cannot be removed.
    #[error(
        "{port}: exported as outer port `{outer}` of `{type_name}`; ungroup or redefine the type instead"
    )]
    ExportedFromType {
        /// The inner port.
        port: PortRef,
        /// The outer port it is exported as.
        outer: String,
        /// The compound type.
        type_name: String,
    },
    /// A link from a port to itself.
    #[error("{0}: a port cannot link to itself")]
    SelfLink(PortRef),
    /// A link end names a port the instance does not have.
    #[error("{0}: no such port")]
    NoPort(PortRef),
    /// A link end is linked already.
    #[error("{port}: port already connected (to {peer})")]
    PortTaken {
        /// The port.
        port: PortRef,
        /// What it is linked to.
        peer: PortRef,
    },
    /// A link end is exported and linked one level up.
    #[error("{port}: port is exported as outer port `{outer}`; it is linked one level up")]
    PortExported {
        /// The port.
        port: PortRef,
        /// The outer port it is exported as.
        outer: String,
    },
    /// The two ports cannot be linked (direction, link type): the engine's own rule and reason.
    #[error("{0}")]
    LinkRefused(ValidationError),
    /// A link named by its key does not exist.
    #[error("no link {0}")]
    NoLink(String),
    /// A parameter the instance's type does not have.
    #[error("{instance}: type `{type_name}` has no parameter `{param}`")]
    UnknownParam {
        /// The instance.
        instance: String,
        /// Its type.
        type_name: String,
        /// The parameter.
        param: String,
    },
    /// A parameter value its kind refuses.
    #[error("{at}: {source}")]
    BadValue {
        /// `instance.param` or `program.param`.
        at: String,
        /// Why.
        source: ParamError,
    },
    /// A port-array size that would remove a linked port.
    #[error("{port}: port is linked and would disappear with {param} = {value}; unlink it first")]
    PortWouldVanish {
        /// The linked port.
        port: PortRef,
        /// The sizing parameter.
        param: String,
        /// The value asked for.
        value: String,
    },
    /// A program that is not built in.
    #[error("unknown program `{name}`; built-in programs: {known}")]
    UnknownProgram {
        /// The name asked for.
        name: String,
        /// The built-in programs, comma-separated.
        known: String,
    },
    /// A program parameter that does not exist.
    #[error("program `{program}` has no parameter `{param}`")]
    UnknownProgramParam {
        /// The program.
        program: String,
        /// The parameter.
        param: String,
    },
    /// An instruction stream that does not parse (the error names the rank, line and column).
    #[error(transparent)]
    Stream(#[from] StreamError),
    /// A trace level out of range.
    #[error("trace level {level} is not between {min} and {max}")]
    TraceLevel {
        /// The level asked for.
        level: u8,
        /// Lowest level.
        min: u8,
        /// Highest level.
        max: u8,
    },
    /// A project name the library cannot store.
    #[error("'{name}' is not a usable project name: {reason}")]
    ProjectName {
        /// The name asked for.
        name: String,
        /// Why it cannot be used.
        reason: &'static str,
    },
    /// The template cannot be generated (the error names the component, port or dimension).
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// A flat insert whose routing differs from the network's.
    #[error(transparent)]
    RoutingConflict(#[from] RoutingConflict),
    /// A command the history holds that cannot be applied as it is (a bug, reported not hidden).
    #[error("internal: {0}")]
    Internal(String),
}

/// What an [`CommandError::Exported`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportedAction {
    /// Grouping instances.
    Group,
    /// Ungrouping a compound.
    Ungroup,
}

fn exported_text(action: ExportedAction) -> &'static str {
    match action {
        ExportedAction::Group => "such instances cannot be grouped",
        ExportedAction::Ungroup => "it cannot be ungrouped here",
    }
}

fn no_network_text(net: &NetworkId) -> String {
    match net {
        NetworkId::Top => "the project has no top-level network".into(),
        NetworkId::Type(t) => format!("type `{t}` is not a compound type of this project"),
    }
}

/// A flat template insert into a network routed by another rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "this network already holds {entities} entities routed by {used}; a flat network here would need \
     {wanted} routing for all of them. Insert it as a compound network instead: its routing stays inside it."
)]
pub struct RoutingConflict {
    /// Entities already in the network.
    pub entities: usize,
    /// The network's routing rule.
    pub used: String,
    /// The rule the template needs.
    pub wanted: String,
}
