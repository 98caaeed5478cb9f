//! The flat simulation graph produced by elaboration: leaf entities (and compounds simulated at
//! their behavioural level) with resolved parameters, their ports and links, the compound groups
//! they came from (for folding in the GUI) and the routing scope each lives in.

use std::collections::BTreeMap;
use std::sync::Arc;

use petgraph::graph::{NodeIndex, UnGraph};

use crate::model::{Direction, ParamValue, Routing};
use crate::time::SimTime;
use crate::trace::{EntityInfo, GroupInfo, LinkInfo, TraceHeader};

/// Index of an entity in the flat model (and in the kernel).
pub type EntityId = u32;
/// Index of a port within its entity.
pub type PortIndex = u16;

/// One end of a flat link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Endpoint {
    /// Entity.
    pub entity: EntityId,
    /// Port within the entity.
    pub port: PortIndex,
}

/// A port of a flat entity, as its type declares it. The list of an entity's ports is shared by
/// every instance of the type with the same port arrays; which link each port is attached to is the
/// entity's own ([`FlatEntity::link`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlatPort {
    /// Expanded name.
    pub name: Arc<str>,
    /// Direction.
    pub direction: Direction,
    /// Link type.
    pub link_type: Arc<str>,
}

/// Marks a port with no link in [`FlatEntity`]'s link list.
const NO_LINK: u32 = u32::MAX;

/// The link list of an entity with `ports` ports, none of them linked yet.
pub(super) fn unlinked(ports: usize) -> Box<[u32]> {
    vec![NO_LINK; ports].into()
}

/// An entity's parameter values: the type's defaults (shared by every instance of the type) under
/// the instance's own overrides. Sharing keeps a million-entity model small, and so does keeping
/// the few overrides of an instance in a sorted vector rather than a map (a map's first node is
/// 600 bytes whatever it holds), each under a name shared with the other instances of its type
/// (elaboration hands out one `Arc<str>` per parameter of a type) rather than its own string.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParamSet {
    defaults: Arc<BTreeMap<String, ParamValue>>,
    /// Sorted by name, one entry per name. A boxed slice, exactly as long as its entries and 8
    /// bytes smaller than a vector: an instance's overrides are set once, at elaboration.
    overrides: Box<[(Arc<str>, ParamValue)]>,
}

impl ParamSet {
    /// Shared defaults with no overrides.
    pub fn new(defaults: Arc<BTreeMap<String, ParamValue>>) -> Self {
        ParamSet { defaults, overrides: Box::default() }
    }
    /// Shared defaults under these overrides, in any order; of two for one name, the later
    /// counts.
    pub fn with_overrides(
        defaults: Arc<BTreeMap<String, ParamValue>>,
        mut overrides: Vec<(Arc<str>, ParamValue)>,
    ) -> Self {
        overrides.reverse();
        overrides.sort_by(|(a, _), (b, _)| a.cmp(b));
        overrides.dedup_by(|(later, _), (earlier, _)| later == earlier);
        ParamSet { defaults, overrides: overrides.into_boxed_slice() }
    }
    fn find(&self, name: &str) -> Result<usize, usize> {
        self.overrides.binary_search_by(|(k, _)| (**k).cmp(name))
    }
    /// The value of `name`: its override, else the type's default.
    pub fn get(&self, name: &str) -> Option<&ParamValue> {
        match self.find(name) {
            Ok(i) => Some(&self.overrides[i].1),
            Err(_) => self.defaults.get(name),
        }
    }
    /// Override one value.
    pub fn insert(&mut self, name: &str, value: ParamValue) {
        self.insert_named(name.into(), value);
    }
    /// Override one value under a name the caller shares among entities.
    pub fn insert_named(&mut self, name: Arc<str>, value: ParamValue) {
        match self.find(&name) {
            Ok(i) => self.overrides[i].1 = value,
            Err(i) => {
                let mut overrides = std::mem::take(&mut self.overrides).into_vec();
                overrides.insert(i, (name, value));
                self.overrides = overrides.into_boxed_slice();
            }
        }
    }
    /// The shared name an override is kept under (tests check that alike instances share it).
    #[cfg(test)]
    pub(crate) fn override_name(&self, name: &str) -> Option<&Arc<str>> {
        self.find(name).ok().map(|i| &self.overrides[i].0)
    }
    /// Every value, overrides applied, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ParamValue)> {
        self.defaults
            .iter()
            .map(|(k, v)| (k.as_str(), v))
            .filter(|(k, _)| self.find(k).is_err())
            .chain(self.overrides.iter().map(|(k, v)| (&**k, v)))
            .collect::<BTreeMap<_, _>>()
            .into_iter()
    }
}

impl FromIterator<(String, ParamValue)> for ParamSet {
    fn from_iter<I: IntoIterator<Item = (String, ParamValue)>>(values: I) -> Self {
        ParamSet::from(values.into_iter().collect::<BTreeMap<_, _>>())
    }
}

impl From<BTreeMap<String, ParamValue>> for ParamSet {
    fn from(values: BTreeMap<String, ParamValue>) -> Self {
        ParamSet {
            defaults: Arc::new(BTreeMap::new()),
            overrides: values.into_iter().map(|(k, v)| (k.into(), v)).collect(),
        }
    }
}

/// What every instance of one type with the same port arrays shares: its type's and behaviour's
/// names, its ports and its visible states. Entities hold it behind one pointer, 8 bytes where
/// four shared pointers of their own took 64: a million routers keep one kind.
#[derive(Clone, Debug, PartialEq)]
pub struct EntityKind {
    /// Type name.
    pub type_name: Arc<str>,
    /// Behaviour name to instantiate.
    pub behaviour: Arc<str>,
    /// Ports in type order, with array sizes applied.
    pub ports: Arc<[FlatPort]>,
    /// Visible states (shared with the statistics too).
    pub states: Arc<[Arc<str>]>,
    /// A compound type simulated at its behavioural level: its model stands for the type's inner
    /// network (see [`FlatEntity::stands_for`]).
    pub behavioural_compound: bool,
}

/// One simulated entity.
#[derive(Clone, Debug, PartialEq)]
pub struct FlatEntity {
    /// Full instance path (`fabric/level1/switch3`).
    pub path: String,
    /// Type, behaviour, ports and states, shared with alike instances (see [`FlatEntity::kind`]).
    kind: Arc<EntityKind>,
    /// Every parameter of the type, overrides applied over defaults.
    pub params: ParamSet,
    /// Per port, in port order: the attached link, or [`NO_LINK`]. Four bytes a port instead
    /// of a copy of the port list with an `Option` in each entry.
    pub(super) links: Box<[u32]>,
    /// Enclosing detailed compound, if any.
    pub group: Option<u32>,
    /// The network (routing scope) this entity sits in.
    pub scope: u32,
}

impl FlatEntity {
    /// An entity of `kind` at `path`, every port unlinked (elaboration).
    pub(super) fn of_kind(
        path: String,
        kind: Arc<EntityKind>,
        params: ParamSet,
        group: Option<u32>,
        scope: u32,
    ) -> Self {
        let links = unlinked(kind.ports.len());
        FlatEntity { path, kind, params, links, group, scope }
    }

    /// An entity built by hand (benchmarks, tests, tools that skip the document model): named after
    /// its path, with unlinked in-out ports of one link type, no parameters and the given states.
    pub fn new(
        path: &str,
        behaviour: &str,
        ports: impl IntoIterator<Item = impl Into<String>>,
        link_type: &str,
        states: &[&str],
    ) -> Self {
        let ports: Arc<[FlatPort]> = ports
            .into_iter()
            .map(|name| FlatPort {
                name: name.into().into(),
                direction: Direction::InOut,
                link_type: link_type.into(),
            })
            .collect();
        let kind = EntityKind {
            type_name: path.into(),
            behaviour: behaviour.into(),
            ports,
            states: states.iter().map(|s| Arc::from(*s)).collect(),
            behavioural_compound: false,
        };
        FlatEntity::of_kind(path.to_string(), Arc::new(kind), ParamSet::default(), None, 0)
    }

    /// The type, behaviour, ports and states this entity shares with alike instances.
    pub fn kind(&self) -> &Arc<EntityKind> {
        &self.kind
    }

    /// Type name (from the entity's kind, which elaborated instances of a type share).
    pub fn type_name(&self) -> &Arc<str> {
        &self.kind.type_name
    }

    /// Behaviour name to instantiate (from the kind).
    pub fn behaviour(&self) -> &Arc<str> {
        &self.kind.behaviour
    }

    /// Ports in type order (from the kind: a million elaborated routers keep one list).
    pub fn ports(&self) -> &Arc<[FlatPort]> {
        &self.kind.ports
    }

    /// Visible states (from the kind; the statistics share them too).
    pub fn states(&self) -> &Arc<[Arc<str>]> {
        &self.kind.states
    }

    /// For a compound simulated at its behavioural level: the compound type (its own), so its
    /// model can analyse the inner network it stands for.
    pub fn stands_for(&self) -> Option<&Arc<str>> {
        self.kind.behavioural_compound.then_some(&self.kind.type_name)
    }

    /// Rename the type (tools and tests that build entities by hand). The entity gets a kind of
    /// its own if it shared one.
    pub fn set_type_name(&mut self, name: &str) {
        Arc::make_mut(&mut self.kind).type_name = name.into();
    }

    /// The link attached to `port`, if the port is connected (and exists).
    pub fn link(&self, port: PortIndex) -> Option<u32> {
        self.links.get(usize::from(port)).copied().filter(|&l| l != NO_LINK)
    }

    /// The link of every port, in port order (`None` where unconnected).
    pub fn links(&self) -> impl Iterator<Item = Option<u32>> + '_ {
        self.links.iter().map(|&l| (l != NO_LINK).then_some(l))
    }

    /// Attach `port` to `link`, or detach it (`None`). Out-of-range ports are ignored: an entity
    /// built by hand names its own ports.
    pub fn set_link(&mut self, port: PortIndex, link: Option<u32>) {
        if let Some(slot) = self.links.get_mut(usize::from(port)) {
            *slot = link.unwrap_or(NO_LINK);
        }
    }

    /// Replace the port list (tools and tests that build entities by hand): every port starts
    /// unlinked.
    pub fn set_ports(&mut self, ports: impl Into<Arc<[FlatPort]>>) {
        let kind = Arc::make_mut(&mut self.kind);
        kind.ports = ports.into();
        self.links = unlinked(kind.ports.len());
    }

    /// Index of the port called `name`.
    pub fn port_index(&self, name: &str) -> Option<PortIndex> {
        self.kind.ports.iter().position(|p| &*p.name == name).map(|i| i as PortIndex)
    }
    /// Integer parameter.
    pub fn int(&self, name: &str) -> Option<i64> {
        self.params.get(name).and_then(ParamValue::as_int)
    }
    /// Real parameter (integers widen).
    pub fn float(&self, name: &str) -> Option<f64> {
        self.params.get(name).and_then(ParamValue::as_float)
    }
    /// Time parameter.
    pub fn time(&self, name: &str) -> Option<SimTime> {
        self.params.get(name).and_then(ParamValue::as_time)
    }
    /// Text (enum, file) parameter.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.params.get(name).and_then(ParamValue::as_text)
    }
    /// Flag parameter.
    pub fn flag(&self, name: &str) -> Option<bool> {
        self.params.get(name).and_then(ParamValue::as_bool)
    }
    /// Short name: the last path segment.
    pub fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(&self.path)
    }
}

/// A link between two flat ports.
#[derive(Clone, Debug, PartialEq)]
pub struct FlatLink {
    /// The two ends as declared (`a`, `b`).
    pub ends: [Endpoint; 2],
    /// Latency per direction.
    pub latency: SimTime,
    /// Bytes per second per direction (0 = unlimited).
    pub bandwidth_bytes_per_s: u64,
    /// Traffic may flow from `ends[0]` to `ends[1]`.
    pub forward: bool,
    /// Traffic may flow from `ends[1]` to `ends[0]`.
    pub backward: bool,
}

impl FlatLink {
    /// The other end of the link, seen from `from`.
    pub fn other(&self, from: Endpoint) -> Endpoint {
        if self.ends[0] == from { self.ends[1] } else { self.ends[0] }
    }
}

/// A compound instance simulated in detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlatGroup {
    /// Instance path.
    pub path: String,
    /// Type name.
    pub type_name: String,
    /// Enclosing group.
    pub parent: Option<u32>,
}

/// A network in the hierarchy with its routing rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Scope {
    /// Path of the network (empty for the top level).
    pub path: String,
    /// Routing of routers placed directly in this network.
    pub routing: Routing,
}

/// The result of elaboration.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FlatModel {
    /// Project name.
    pub project: String,
    /// Entities in a stable order (depth-first, instance names sorted).
    pub entities: Vec<FlatEntity>,
    /// Links.
    pub links: Vec<FlatLink>,
    /// Detailed compound groups.
    pub groups: Vec<FlatGroup>,
    /// Networks with their routing.
    pub scopes: Vec<Scope>,
}

impl FlatModel {
    /// Find an entity by path.
    pub fn find(&self, path: &str) -> Option<EntityId> {
        self.entities.iter().position(|e| e.path == path).map(|i| i as EntityId)
    }

    /// The entity.
    pub fn entity(&self, id: EntityId) -> &FlatEntity {
        &self.entities[id as usize]
    }

    /// The endpoint linked to `end`, if its port is connected.
    pub fn peer(&self, end: Endpoint) -> Option<Endpoint> {
        let link = self.entities.get(end.entity as usize)?.link(end.port)?;
        Some(self.links[link as usize].other(end))
    }

    /// `entity.port` as text.
    pub fn describe(&self, end: Endpoint) -> String {
        let e = self.entity(end.entity);
        let port = e.ports().get(usize::from(end.port)).map_or("?", |p| &*p.name);
        format!("{}.{}", e.path, port)
    }

    /// An undirected petgraph view: node weight = entity id, edge weight = link index.
    pub fn graph(&self) -> (UnGraph<EntityId, u32>, Vec<NodeIndex>) {
        let mut g = UnGraph::with_capacity(self.entities.len(), self.links.len());
        let nodes: Vec<NodeIndex> = (0..self.entities.len() as EntityId).map(|i| g.add_node(i)).collect();
        for (i, l) in self.links.iter().enumerate() {
            g.add_edge(nodes[l.ends[0].entity as usize], nodes[l.ends[1].entity as usize], i as u32);
        }
        (g, nodes)
    }

    /// The trace header describing this model. `params` lists, per entity, the names of the
    /// parameters its behaviour traces (see `Behaviour::traced_params`).
    pub fn trace_header(&self, seed: u64, level: u8, params: &[Vec<String>]) -> TraceHeader {
        // Entities of one kind share their state and port lists, and entities whose behaviours
        // trace the same parameters share that list: a million-entity header keeps a handful of
        // lists, not three million.
        let mut by_kind: BTreeMap<*const EntityKind, [Arc<[String]>; 2]> = BTreeMap::new();
        let mut param_lists: BTreeMap<&[String], Arc<[String]>> = BTreeMap::new();
        let entities = self
            .entities
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let [states, ports] = by_kind
                    .entry(Arc::as_ptr(e.kind()))
                    .or_insert_with(|| {
                        [
                            e.states().iter().map(ToString::to_string).collect(),
                            e.ports().iter().map(|p| p.name.to_string()).collect(),
                        ]
                    })
                    .clone();
                let names = params.get(i).map_or(&[][..], Vec::as_slice);
                let params = Arc::clone(param_lists.entry(names).or_insert_with(|| names.into()));
                EntityInfo {
                    path: e.path.clone(),
                    type_name: e.type_name().to_string(),
                    states,
                    params,
                    ports,
                    group: e.group,
                }
            })
            .collect();
        TraceHeader {
            version: crate::trace::FORMAT_VERSION,
            project: self.project.clone(),
            seed,
            level,
            entities,
            links: self
                .links
                .iter()
                .map(|l| LinkInfo {
                    a: (l.ends[0].entity, l.ends[0].port),
                    b: (l.ends[1].entity, l.ends[1].port),
                })
                .collect(),
            groups: self
                .groups
                .iter()
                .map(|g| GroupInfo { path: g.path.clone(), type_name: g.type_name.clone(), parent: g.parent })
                .collect(),
        }
    }
}
