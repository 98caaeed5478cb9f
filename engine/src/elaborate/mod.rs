//! Elaboration: flatten the hierarchy according to each compound instance's abstraction level into a
//! flat simulation graph, resolving links through compound port maps and filling parameter defaults.

mod flat;
#[cfg(test)]
mod tests;

pub use flat::{
    Endpoint, EntityId, FlatEntity, FlatGroup, FlatLink, FlatModel, FlatPort, ParamSet, PortIndex, Scope,
};

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::limits::{MAX_ENTITIES, MAX_NESTING_DEPTH};
use crate::model::{AbstractionLevel, Network, ParamValue, PortRef, Project, TypeRegistry};
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
    let mut b = Builder {
        registry,
        model: FlatModel { project: project.name.clone(), ..FlatModel::default() },
        shared: BTreeMap::new(),
        depth: 0,
    };
    b.model.scopes.push(Scope { path: String::new(), routing: project.network.routing.clone() });
    b.network(&project.network, "", None, 0)?;
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
    let mut b = Builder {
        registry,
        model: FlatModel { project: type_name.to_string(), ..FlatModel::default() },
        shared: BTreeMap::new(),
        depth: 0,
    };
    b.model.scopes.push(Scope { path: String::new(), routing: compound.network.routing.clone() });
    let ends = b.network(&compound.network, "", None, 0)?;
    let mut outer = BTreeMap::new();
    for export in &compound.exports {
        if let Some(end) = ends.get(&export.inner) {
            outer.insert(export.outer.clone(), *end);
        }
    }
    Ok((b.model, outer))
}

/// What every instance of a type shares: parameter defaults and state names.
type SharedByType = (Arc<BTreeMap<String, ParamValue>>, Arc<[String]>);

struct Builder<'a> {
    registry: &'a TypeRegistry,
    model: FlatModel,
    /// Per type: its parameter defaults and state names, shared by all its instances.
    shared: BTreeMap<String, SharedByType>,
    /// Compound levels entered (bounded: [`elaborate_type`] runs without validation).
    depth: usize,
}

impl Builder<'_> {
    /// Flatten `net`; returns where each instance port of this network ends up.
    fn network(
        &mut self,
        net: &Network,
        prefix: &str,
        group: Option<u32>,
        scope: u32,
    ) -> Result<BTreeMap<PortRef, Endpoint>, ElabError> {
        let mut ends: BTreeMap<PortRef, Endpoint> = BTreeMap::new();
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
                let compound = ty.compound.as_ref().ok_or_else(|| ElabError::At {
                    path: path.clone(),
                    message: "compound without inner network".into(),
                })?;
                let gid = self.model.groups.len() as u32;
                self.model.groups.push(FlatGroup {
                    path: path.clone(),
                    type_name: ty.name.clone(),
                    parent: group,
                });
                let sid = self.model.scopes.len() as u32;
                self.model
                    .scopes
                    .push(Scope { path: path.clone(), routing: compound.network.routing.clone() });
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
                for export in &compound.exports {
                    let end = inner.get(&export.inner).copied().ok_or_else(|| ElabError::At {
                        path: format!("{path}.{}", export.outer),
                        message: format!("exported inner port {} does not exist", export.inner),
                    })?;
                    ends.insert(PortRef::new(name, &export.outer), end);
                }
            } else {
                if self.model.entities.len() as u64 >= MAX_ENTITIES {
                    return Err(ElabError::At {
                        path,
                        message: format!("more simulated entities than the limit of {MAX_ENTITIES}"),
                    });
                }
                if let Err(e) = ty.check_port_counts(&inst.params) {
                    return Err(ElabError::At { path, message: e.to_string() });
                }
                let id = self.model.entities.len() as EntityId;
                let (defaults, states) = self
                    .shared
                    .entry(ty.name.clone())
                    .or_insert_with(|| {
                        let defaults = ty
                            .params
                            .iter()
                            .filter_map(|d| d.default.clone().map(|v| (d.name.clone(), v)))
                            .collect();
                        (Arc::new(defaults), ty.states.clone().into())
                    })
                    .clone();
                let mut params = ParamSet::new(defaults);
                for def in &ty.params {
                    if let Some(v) = inst.params.get(&def.name) {
                        params.insert(&def.name, v.clone());
                    }
                }
                params.shrink_to_fit();
                let ports: Vec<FlatPort> = ty
                    .concrete_ports(&inst.params)
                    .into_iter()
                    .map(|p| FlatPort {
                        name: p.name,
                        direction: p.direction,
                        link_type: p.link_type,
                        link: None,
                    })
                    .collect();
                for (i, p) in ports.iter().enumerate() {
                    ends.insert(PortRef::new(name, &p.name), Endpoint { entity: id, port: i as PortIndex });
                }
                let behaviour = ty.behaviour.clone().ok_or_else(|| ElabError::At {
                    path: path.clone(),
                    message: format!("type `{}` has no behaviour", ty.name),
                })?;
                self.model.entities.push(FlatEntity {
                    path,
                    type_name: ty.name.clone(),
                    behaviour,
                    params,
                    ports,
                    states,
                    group,
                    scope,
                    stands_for: ty.compound.as_ref().map(|_| ty.name.clone()),
                });
            }
        }
        for link in &net.links {
            let resolve = |r: &PortRef| {
                ends.get(r).copied().ok_or_else(|| ElabError::At {
                    path: join_path(prefix, &r.to_string()),
                    message: "link end does not resolve to a simulated port".into(),
                })
            };
            let (a, b) = (resolve(&link.a)?, resolve(&link.b)?);
            let da = self.model.entities[a.entity as usize].ports[usize::from(a.port)].direction;
            let db = self.model.entities[b.entity as usize].ports[usize::from(b.port)].direction;
            let id = self.model.links.len() as u32;
            self.model.links.push(FlatLink {
                ends: [a, b],
                latency: link.latency,
                bandwidth_bytes_per_s: link.bandwidth_bytes_per_s,
                forward: da.sends() && db.receives(),
                backward: db.sends() && da.receives(),
                origin: join_path(prefix, &link.key()),
            });
            for end in [a, b] {
                let port = &mut self.model.entities[end.entity as usize].ports[usize::from(end.port)];
                if port.link.is_some() {
                    return Err(ElabError::At {
                        path: join_path(prefix, &port.name),
                        message: "port connected twice after resolving compounds".into(),
                    });
                }
                port.link = Some(id);
            }
        }
        Ok(ends)
    }
}
