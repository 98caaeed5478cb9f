//! Every way a template request can fail: unknown names, dimensions that make no network, and
//! components that do not fit the positions they are slotted into.

/// Why a template could not be generated. Component errors name the component and the port or
/// parameter at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// A project said its network is stored as its generator recipe but has no recipe.
    #[error("the project's network is stored as a generator recipe, but the project has none")]
    NoRecipe,
    /// A per-position override of a recipe names a position the generated network does not have.
    #[error(
        "the generator recipe overrides parameters of `{position}`, which template {template} does not make"
    )]
    UnknownPosition {
        /// The override's key (`p3`, `fabric/r1_2`).
        position: String,
        /// Template name.
        template: String,
    },
    /// No template has this name.
    #[error("unknown template `{name}`; templates are: {known}")]
    UnknownTemplate {
        /// The name given.
        name: String,
        /// Known names.
        known: String,
    },
    /// `--dims` text that is not a list of numbers.
    #[error("cannot read dimensions `{text}`: {reason}")]
    BadDims {
        /// The text.
        text: String,
        /// Why.
        reason: String,
    },
    /// Dimensions that do not make this topology.
    #[error("template {template}: {reason}")]
    Dimensions {
        /// Template name.
        template: &'static str,
        /// Why.
        reason: String,
    },
    /// The slotted type is not in the registry.
    #[error("unknown component `{component}` for the {role} positions of template {template}")]
    UnknownComponent {
        /// Type name.
        component: String,
        /// `switch` or `processor`.
        role: &'static str,
        /// Template name.
        template: &'static str,
    },
    /// A port the template links is missing.
    #[error(
        "component {component} has no port `{port}` ({direction}, {link_type}) required by template {template}"
    )]
    MissingPort {
        /// Type name.
        component: String,
        /// Port name.
        port: String,
        /// Direction needed.
        direction: &'static str,
        /// Link type needed.
        link_type: &'static str,
        /// Template name.
        template: &'static str,
    },
    /// A port exists but has the wrong direction or link type.
    #[error(
        "component {component} port `{port}` is ({found}) but template {template} needs ({direction}, {link_type})"
    )]
    WrongPort {
        /// Type name.
        component: String,
        /// Port name.
        port: String,
        /// Its direction and link type (`in, packet`).
        found: String,
        /// Direction needed.
        direction: &'static str,
        /// Link type needed.
        link_type: &'static str,
        /// Template name.
        template: &'static str,
    },
    /// A switch type with too few ports (and no `radix` parameter to ask for more).
    #[error(
        "component {component} has {have} ports but template {template} needs {need} switch ports ({link_type})"
    )]
    TooFewPorts {
        /// Type name.
        component: String,
        /// Ports it has.
        have: usize,
        /// Ports needed.
        need: usize,
        /// Link type needed.
        link_type: &'static str,
        /// Template name.
        template: &'static str,
    },
    /// A parameter the template sets is missing from the type.
    #[error("component {component} has no parameter `{param}` ({kind}) required by template {template}")]
    MissingParam {
        /// Type name.
        component: String,
        /// Parameter.
        param: &'static str,
        /// Kind needed.
        kind: &'static str,
        /// Template name.
        template: &'static str,
    },
    /// A value the template sets (or an override) is refused by the type's parameter definition.
    #[error("component {component} parameter `{param}`: {reason} (template {template})")]
    BadParam {
        /// Type name.
        component: String,
        /// Parameter.
        param: String,
        /// Why.
        reason: String,
        /// Template name.
        template: &'static str,
    },
    /// A required (non-optional) port the template leaves unconnected.
    #[error(
        "component {component} requires port `{port}` to be connected, but template {template} leaves `{instance}.{port}` free"
    )]
    UnusedRequiredPort {
        /// Type name.
        component: String,
        /// Port.
        port: String,
        /// First instance where it stays free.
        instance: String,
        /// Template name.
        template: &'static str,
    },
    /// The compound type name is empty or clashes with a slotted component.
    #[error("cannot name the generated network type `{name}`: {reason}")]
    BadTypeName {
        /// The name.
        name: String,
        /// Why.
        reason: String,
    },
}
