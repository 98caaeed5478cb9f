//! Elaboration: flatten the hierarchy according to each compound instance's abstraction level into a
//! flat simulation graph, resolving links through compound port maps and filling parameter defaults.

mod flat;
#[cfg(test)]
mod tests;

pub use flat::{
    Endpoint, EntityId, EntityKind, FlatEntity, FlatGroup, FlatLink, FlatModel, FlatPort, ParamSet,
    PortIndex, Scope,
};

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::limits::{MAX_ENTITIES, MAX_NESTING_DEPTH};
use crate::model::{
    AbstractionLevel, EntityType, Instance, InstanceIndex, Network, ParamValue, PortExport, PortLists,
    PortRef, Project, TypeRegistry,
};
use crate::validate::{ValidationErrors, join_path, validate_project};

/// Why elaboration failed.
#[derive(Debug, thiserror::Error)]
pub enum ElabError {
    /// The project does not validate.
    #[error("{0}")]
    Invalid(#[from] ValidationErrors),
    /// Something validation cannot see (should be rare): names the path at fault.
    #[error("{path}: {message}")]
    At {
        /// Instance path.
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// Validate, then flatten a project.
pub fn elaborate(project: &Project, registry: &TypeRegistry) -> Result<FlatModel, ElabError> {
    validate_project(project, registry)?;
    let mut b = Builder::new(registry, &project.name);
    b.model.scopes.push(Scope { path: String::new(), routing: project.network.routing.clone() });
    b.network(&project.network, "", None, 0)?;
    // The tables grew by doubling; the model is kept for the whole run, its spare room with it.
    b.model.entities.shrink_to_fit();
    b.model.links.shrink_to_fit();
    Ok(b.model)
}

/// Flatten one compound type's inner network on its own, fully detailed (used by behavioural
/// models that need to know the structure they stand for, e.g. hop counts between outer ports).
/// Returns the model and, for each outer port name, the inner endpoint it maps to.
pub fn elaborate_type(
    registry: &TypeRegistry,
    type_name: &str,
) -> Result<(FlatModel, BTreeMap<String, Endpoint>), ElabError> {
    let ty = registry
        .get(type_name)
        .ok_or_else(|| ElabError::At { path: type_name.to_string(), message: "unknown type".into() })?;
    let compound = ty.compound.as_ref().ok_or_else(|| ElabError::At {
        path: type_name.to_string(),
        message: "not a compound type".into(),
    })?;
    let mut b = Builder::new(registry, type_name);
    b.model.scopes.push(Scope { path: String::new(), routing: compound.network.routing.clone() });
    let ends = b.network(&compound.network, "", None, 0)?;
    let mut outer = BTreeMap::new();
    for export in &compound.exports {
        if let Some(end) = ends.get(&b.model, &export.inner) {
            outer.insert(export.outer.clone(), end);
        }
    }
    Ok((b.model, outer))
}

/// What every instance of a type shares whatever its port arrays: parameter defaults and names.
/// (The rest, which the instances with the same arrays share, is their [`EntityKind`].)
#[derive(Clone)]
struct SharedByType {
    defaults: Arc<BTreeMap<String, ParamValue>>,
    /// The type's parameter names in declaration order, for the instances' overrides.
    param_names: Arc<[Arc<str>]>,
}

struct Builder<'a> {
    registry: &'a TypeRegistry,
    model: FlatModel,
    /// Per type: its parameter defaults and names, shared by all its instances.
    shared: BTreeMap<&'a str, SharedByType>,
    /// Per type and array sizes: the kind its instances share (their ports, with shared names).
    kinds: PortLists<'a, Arc<EntityKind>>,
    /// Compound levels entered (bounded: [`elaborate_type`] runs without validation).
    depth: usize,
}

/// Where the ports of one instance ended up after flattening.
enum InstanceEnds<'a> {
    /// A simulated entity: its ports are the entity's ports.
    Entity(EntityId),
    /// A detailed compound: each export of its type (same order) ends at an inner endpoint.
    Compound { exports: &'a [PortExport], ends: Vec<Endpoint> },
}

/// Where each instance port of one network ends up, found by instance name in one probe.
struct NetworkEnds<'n, 'a> {
    index: InstanceIndex<'n>,
    /// In the network's instance order.
    instances: Vec<InstanceEnds<'a>>,
}

impl NetworkEnds<'_, '_> {
    fn get(&self, model: &FlatModel, port: &PortRef) -> Option<Endpoint> {
        match self.instances.get(self.index.position(&port.instance)?)? {
            InstanceEnds::Entity(id) => {
                let index = model.entity(*id).port_index(&port.port)?;
                Some(Endpoint { entity: *id, port: index })
            }
            InstanceEnds::Compound { exports, ends } => {
                exports.iter().position(|e| e.outer == port.port).map(|i| ends[i])
            }
        }
    }
}

impl<'a> Builder<'a> {
    fn new(registry: &'a TypeRegistry, name: &str) -> Self {
        Builder {
            registry,
            model: FlatModel { project: name.to_string(), ..FlatModel::default() },
            shared: BTreeMap::new(),
            kinds: PortLists::default(),
            depth: 0,
        }
    }

    /// Flatten `net`; returns where each instance port of this network ends up.
    fn network<'n>(
        &mut self,
        net: &'n Network,
        prefix: &str,
        group: Option<u32>,
        scope: u32,
    ) -> Result<NetworkEnds<'n, 'a>, ElabError> {
        let mut instances = Vec::with_capacity(net.instances.len());
        for (name, inst) in &net.instances {
            let path = join_path(prefix, name);
            // Borrowed from the registry, not cloned: a type's ports, parameters and inner network
            // were copied once per instance before (most of elaboration's allocations).
            let registry = self.registry;
            let ty = registry.get(&inst.type_name).ok_or_else(|| ElabError::At {
                path: path.clone(),
                message: format!("unknown type `{}`", inst.type_name),
            })?;
            let detailed =
                ty.compound.is_some() && (inst.level == AbstractionLevel::Detailed || ty.behaviour.is_none());
            if detailed {
                instances.push(self.compound(ty, path, group)?);
            } else {
                instances.push(InstanceEnds::Entity(self.entity(ty, inst, path, group, scope)?));
            }
        }
        let ends = NetworkEnds { index: InstanceIndex::new(net), instances };
        for link in &net.links {
            let resolve = |r: &PortRef| {
                ends.get(&self.model, r).ok_or_else(|| ElabError::At {
                    path: join_path(prefix, &r.to_string()),
                    message: "link end does not resolve to a simulated port".into(),
                })
            };
            let (a, b) = (resolve(&link.a)?, resolve(&link.b)?);
            let da = self.model.entities[a.entity as usize].ports()[usize::from(a.port)].direction;
            let db = self.model.entities[b.entity as usize].ports()[usize::from(b.port)].direction;
            let id = self.model.links.len() as u32;
            self.model.links.push(FlatLink {
                ends: [a, b],
                latency: link.latency,
                bandwidth_bytes_per_s: link.bandwidth_bytes_per_s,
                forward: da.sends() && db.receives(),
                backward: db.sends() && da.receives(),
            });
            for end in [a, b] {
                let entity = &mut self.model.entities[end.entity as usize];
                if entity.link(end.port).is_some() {
                    return Err(ElabError::At {
                        path: join_path(prefix, &entity.ports()[usize::from(end.port)].name),
                        message: "port connected twice after resolving compounds".into(),
                    });
                }
                entity.set_link(end.port, Some(id));
            }
        }
        Ok(ends)
    }

    /// Flatten a compound instance simulated in detail.
    fn compound(
        &mut self,
        ty: &'a EntityType,
        path: String,
        group: Option<u32>,
    ) -> Result<InstanceEnds<'a>, ElabError> {
        let compound = ty.compound.as_ref().ok_or_else(|| ElabError::At {
            path: path.clone(),
            message: "compound without inner network".into(),
        })?;
        let gid = self.model.groups.len() as u32;
        self.model.groups.push(FlatGroup { path: path.clone(), type_name: ty.name.clone(), parent: group });
        let sid = self.model.scopes.len() as u32;
        self.model.scopes.push(Scope { path: path.clone(), routing: compound.network.routing.clone() });
        if self.depth >= MAX_NESTING_DEPTH {
            return Err(ElabError::At {
                path,
                message: format!("compound types nest deeper than the limit of {MAX_NESTING_DEPTH}"),
            });
        }
        self.depth += 1;
        let inner = self.network(&compound.network, &path, Some(gid), sid);
        self.depth -= 1;
        let inner = inner?;
        let mut ends = Vec::with_capacity(compound.exports.len());
        for export in &compound.exports {
            let end = inner.get(&self.model, &export.inner).ok_or_else(|| ElabError::At {
                path: format!("{path}.{}", export.outer),
                message: format!("exported inner port {} does not exist", export.inner),
            })?;
            ends.push(end);
        }
        Ok(InstanceEnds::Compound { exports: &compound.exports, ends })
    }

    /// Add one simulated entity (a leaf, or a compound at its behavioural level).
    fn entity(
        &mut self,
        ty: &'a EntityType,
        inst: &Instance,
        path: String,
        group: Option<u32>,
        scope: u32,
    ) -> Result<EntityId, ElabError> {
        if self.model.entities.len() as u64 >= MAX_ENTITIES {
            return Err(ElabError::At {
                path,
                message: format!("more simulated entities than the limit of {MAX_ENTITIES}"),
            });
        }
        let Some(behaviour) = ty.behaviour.as_deref() else {
            return Err(ElabError::At { path, message: format!("type `{}` has no behaviour", ty.name) });
        };
        let SharedByType { defaults, param_names } = if let Some(shared) = self.shared.get(ty.name.as_str()) {
            shared.clone()
        } else {
            let defaults: BTreeMap<String, ParamValue> =
                ty.params.iter().filter_map(|d| d.default.clone().map(|v| (d.name.clone(), v))).collect();
            let shared = SharedByType {
                defaults: Arc::new(defaults),
                param_names: ty.params.iter().map(|d| Arc::from(d.name.as_str())).collect(),
            };
            self.shared.insert(ty.name.as_str(), shared.clone());
            shared
        };
        let kind = match self.kinds.get(ty, &inst.params, |ports| {
            Arc::new(EntityKind {
                type_name: ty.name.as_str().into(),
                behaviour: behaviour.into(),
                ports: ports
                    .into_iter()
                    .map(|p| FlatPort {
                        name: p.name.into(),
                        direction: p.direction,
                        link_type: p.link_type.into(),
                    })
                    .collect(),
                states: ty.states.iter().map(|s| Arc::from(s.as_str())).collect(),
                behavioural_compound: ty.compound.is_some(),
            })
        }) {
            Ok(kind) => kind,
            Err(e) => return Err(ElabError::At { path, message: e.to_string() }),
        };
        let overrides = ty
            .params
            .iter()
            .zip(param_names.iter())
            .filter_map(|(def, name)| inst.params.get(&def.name).map(|v| (Arc::clone(name), v.clone())))
            .collect();
        let params = ParamSet::with_overrides(defaults, overrides);
        let id = self.model.entities.len() as EntityId;
        self.model.entities.push(FlatEntity::of_kind(path, kind, params, group, scope));
        Ok(id)
    }
}
