//! The edited document: a [`Project`] plus the built-in type catalogue, with lookups the editor
//! needs (which network is open, the type of an instance, its concrete ports). Read-only here;
//! every change goes through [`crate::command`].

use std::collections::BTreeMap;

use hase_engine::model::{ConcretePort, EntityType, Network, NetworkLayout, Pos, Project, TypeRegistry};

/// Which network an edit or a view is about: the project's top level or the inner network of one of
/// the project's compound types (shared by every instance of that type).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NetworkId {
    /// The top-level network.
    Top,
    /// The inner network of the named compound type.
    Type(String),
}

/// A project being edited, with the built-in types it can refer to.
#[derive(Clone, Debug)]
pub struct Document {
    /// The project itself (what is saved).
    pub project: Project,
    builtins: TypeRegistry,
}

impl PartialEq for Document {
    fn eq(&self, other: &Self) -> bool {
        self.project == other.project
    }
}

/// Spacing of the automatic grid used for instances that have no stored position.
const AUTO_SPACING: f32 = 140.0;

impl Document {
    /// Wrap a project; instances without a position get one on a grid so that every instance of
    /// every network has a position (an invariant the commands keep).
    /// A project stored as its generator recipe is expanded first (the file loaders already do;
    /// a recipe that does not expand stays as it is, and running it reports why).
    pub fn new(project: Project, builtins: TypeRegistry) -> Self {
        let mut project = if project.network_from_recipe {
            let origin = project.name.clone();
            let kept = project.clone();
            hase_library::generated::expand(project, &origin).unwrap_or(kept)
        } else {
            project
        };
        place_missing(&project.network, &mut project.layout.top);
        let type_names: Vec<String> = project.types.keys().cloned().collect();
        for name in type_names {
            let Some(compound) = project.types.get(&name).and_then(|t| t.compound.as_ref()) else {
                continue;
            };
            let network = compound.network.clone();
            let layout = project.layout.types.entry(name.clone()).or_default();
            place_missing(&network, layout);
            if layout == &NetworkLayout::default() {
                project.layout.types.remove(&name);
            }
        }
        Document { project, builtins }
    }

    /// A document over the built-in catalogue of `hase-entities`.
    pub fn with_builtins(project: Project) -> Self {
        Self::new(project, hase_entities::catalogue::builtin_registry())
    }

    /// The built-in types.
    pub fn builtins(&self) -> &TypeRegistry {
        &self.builtins
    }

    /// A type by name: the project's own first, then the built-ins.
    pub fn entity_type(&self, name: &str) -> Option<&EntityType> {
        self.project.types.get(name).or_else(|| self.builtins.get(name))
    }

    /// Every type the palette offers: built-ins not shadowed by the project, then the project's.
    pub fn all_types(&self) -> Vec<&EntityType> {
        let mut out: Vec<&EntityType> =
            self.builtins.iter().filter(|t| !self.project.types.contains_key(&t.name)).collect();
        out.extend(self.project.types.values());
        out
    }

    /// The network `id` names, if it exists.
    pub fn network(&self, id: &NetworkId) -> Option<&Network> {
        match id {
            NetworkId::Top => Some(&self.project.network),
            NetworkId::Type(t) => self.project.types.get(t)?.compound.as_ref().map(|c| &c.network),
        }
    }

    /// The network `id` names, to change, if it exists.
    pub fn network_mut(&mut self, id: &NetworkId) -> Option<&mut Network> {
        match id {
            NetworkId::Top => Some(&mut self.project.network),
            NetworkId::Type(t) => self.project.types.get_mut(t)?.compound.as_mut().map(|c| &mut c.network),
        }
    }

    /// The layout of network `id` (an empty layout if none is stored).
    pub fn layout(&self, id: &NetworkId) -> &NetworkLayout {
        static EMPTY: std::sync::OnceLock<NetworkLayout> = std::sync::OnceLock::new();
        match id {
            NetworkId::Top => &self.project.layout.top,
            NetworkId::Type(t) => {
                self.project.layout.types.get(t).unwrap_or_else(|| EMPTY.get_or_init(NetworkLayout::default))
            }
        }
    }

    /// Position of an instance (origin if unknown, which the invariant rules out).
    pub fn position(&self, id: &NetworkId, instance: &str) -> Pos {
        self.layout(id).positions.get(instance).copied().unwrap_or_default()
    }

    /// The concrete ports of instance `name` in network `id` (empty if it or its type is unknown).
    pub fn ports_of(&self, id: &NetworkId, name: &str) -> Vec<ConcretePort> {
        self.network(id)
            .and_then(|n| n.instances.get(name))
            .and_then(|inst| self.entity_type(&inst.type_name).map(|t| t.concrete_ports(&inst.params)))
            .unwrap_or_default()
    }

    /// True if any instance in any network of the project uses type `name`.
    pub fn type_in_use(&self, name: &str) -> bool {
        let uses = |n: &Network| n.instances.values().any(|i| i.type_name == name);
        uses(&self.project.network)
            || self.project.types.values().filter_map(|t| t.compound.as_ref()).any(|c| uses(&c.network))
    }

    /// A type name `stem{n}` used by neither the project nor the built-ins.
    pub fn fresh_type_name(&self, stem: &str) -> String {
        (0..=self.project.types.len() + self.builtins.len())
            .map(|i| format!("{stem}{i}"))
            .find(|n| self.entity_type(n).is_none())
            .unwrap_or_else(|| format!("{stem}_"))
    }
}

/// The stem of automatic instance names for a type: `p` for processors, `r` for routers, `s` for
/// other switches, `net` for networks, else the type name's first letter in lower case.
pub fn name_stem(ty: &EntityType) -> String {
    match ty.category.as_str() {
        "Processors" => "p".into(),
        "Switches" if ty.name == "Router" => "r".into(),
        "Switches" => "s".into(),
        "Networks" => "net".into(),
        _ => ty
            .name
            .chars()
            .find(char::is_ascii_alphabetic)
            .map_or_else(|| "e".into(), |c| c.to_ascii_lowercase().to_string()),
    }
}

/// The stem of an existing name: the name without its trailing digits (`p12` → `p`).
pub fn stem_of(name: &str) -> &str {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
    if stem.is_empty() { "e" } else { stem }
}

/// Check an instance name: non-empty, letters, digits, `_` or `-`, not starting with a digit.
pub fn check_instance_name(name: &str) -> Result<(), NameError> {
    let mut chars = name.chars();
    match chars.next() {
        None => return Err(NameError::Empty),
        Some(c) if c.is_ascii_digit() => return Err(NameError::LeadingDigit(name.to_string())),
        _ => {}
    }
    if let Some(bad) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-')) {
        return Err(NameError::BadCharacter { name: name.to_string(), bad });
    }
    Ok(())
}

/// Why a name cannot name an instance or a type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Nothing typed.
    #[error("a name cannot be empty")]
    Empty,
    /// Names start with a letter, `_` or `-`.
    #[error("`{0}` starts with a digit")]
    LeadingDigit(String),
    /// A character other than letters, digits, `_` and `-`.
    #[error("`{name}` contains `{bad}`; use letters, digits, `_` or `-`")]
    BadCharacter {
        /// The name.
        name: String,
        /// The first character that cannot be used.
        bad: char,
    },
}

fn place_missing(network: &Network, layout: &mut NetworkLayout) {
    let missing: Vec<&String> =
        network.instances.keys().filter(|n| !layout.positions.contains_key(*n)).collect();
    if missing.is_empty() {
        return;
    }
    let columns = (missing.len() as f32).sqrt().ceil().max(1.0) as usize;
    let top = layout.positions.values().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
    let y0 = if top.is_finite() { top + AUTO_SPACING } else { 0.0 };
    for (i, name) in missing.into_iter().enumerate() {
        let pos = Pos::new((i % columns) as f32 * AUTO_SPACING, y0 + (i / columns) as f32 * AUTO_SPACING);
        layout.positions.insert(name.clone(), pos);
    }
}

/// Remove empty per-instance display maps and empty type layouts, so that an edit and its undo leave
/// byte-identical documents.
pub(crate) fn tidy_layout(project: &mut Project) {
    let tidy = |l: &mut NetworkLayout| {
        l.displayed.retain(|_, m: &mut BTreeMap<_, _>| !m.is_empty());
        l.corners.retain(|_, c| !c.is_empty());
    };
    tidy(&mut project.layout.top);
    for l in project.layout.types.values_mut() {
        tidy(l);
    }
    project.layout.types.retain(|_, l| l != &NetworkLayout::default());
}

#[cfg(test)]
mod tests {
    use super::*;
    use hase_engine::model::Instance;

    #[test]
    fn stems_and_names() {
        assert_eq!(stem_of("p12"), "p");
        assert_eq!(stem_of("net"), "net");
        assert_eq!(stem_of("42"), "e");
        assert!(check_instance_name("p0").is_ok());
        assert!(check_instance_name("").is_err());
        assert!(check_instance_name("0p").is_err());
        assert!(check_instance_name("a.b").unwrap_err().to_string().contains('.'));
    }

    #[test]
    fn missing_positions_are_placed_on_a_grid() {
        let mut p = Project::new("t");
        for n in ["a", "b", "c", "d", "e"] {
            p.network.instances.insert(n.into(), Instance::of("Processor"));
        }
        p.layout.top.positions.insert("a".into(), Pos::new(0.0, 100.0));
        let d = Document::with_builtins(p);
        let pos = &d.project.layout.top.positions;
        assert_eq!(pos.len(), 5);
        // 4 missing → 2 columns, starting one row below the lowest placed instance.
        assert_eq!(pos["b"], Pos::new(0.0, 240.0));
        assert_eq!(pos["c"], Pos::new(140.0, 240.0));
        assert_eq!(pos["e"], Pos::new(140.0, 380.0));
    }
}
