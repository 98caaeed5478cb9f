//! A SimGrid `<cluster>` as a hase template: `FLAT` as a one-switch star (a PGFT of one level),
//! `FAT_TREE` as the PGFT of its parameters (up-links by destination, parallel cables down by
//! source, as SimGrid's `FatTreeZone`), `TORUS` as a ring or 2D/3D torus whose hosts sit on links
//! without latency whose bandwidth is that of the torus links leaving a host together (SimGrid's
//! torus hosts are the routers and send on all their links at once), `DRAGONFLY` as the dragonfly
//! of its parameters.
//! Processors are named after the cluster's hosts.

use std::collections::BTreeMap;

use hase_engine::model::{DownChoice, Project, UpChoice, instance_name_for_host};
use hase_templates::{LinkParams, ProjectForm, TemplateSpec, Topology, template_project};

use super::rename::rename_instances;
use super::xml::{Cluster, ClusterTopology};
use hase_engine::FilePlace;

use super::error::ImportError;
use super::imported::{Imported, Note};
use super::latency_model::LatencyModel;
use super::simgrid_like::{
    flow_router_params, processor_params, route_latency_params, router_params, torus_router_params,
};
use crate::catalogue::registry_for;

/// The cluster as a project named `name`.
pub(super) fn build(
    c: &Cluster,
    name: &str,
    file: &str,
    latency: LatencyModel,
) -> Result<Imported, ImportError> {
    let place = FilePlace::line(file, c.line as usize);
    let at = |message: String| ImportError::At { place: place.clone(), message };
    let mut notes = Vec::new();
    let mut note = |text: String| notes.push(Note { line: c.line, text });
    let hosts = c.hosts.len() as u64;
    let fits = |want: u64, what: &str| {
        if want == hosts {
            Ok(())
        } else {
            Err(at(format!("the {what} has {want} hosts but the radical gives {hosts}")))
        }
    };
    let link = LinkParams { latency: c.latency, bandwidth_bytes_per_s: c.bandwidth };
    let mut endpoint_link = link;
    let (topology, described) = match &c.topology {
        ClusterTopology::Flat => {
            if let Some((bw, lat)) = c.backbone {
                note(format!(
                    "backbone: its latency {lat} is the switch's routing delay{}",
                    bw.map_or(String::new(), |b| format!(
                        "; its bandwidth {} is not modelled (the switch is a non-blocking crossbar)",
                        hase_engine::units::format_rate(b)
                    ))
                ));
            }
            (
                Topology::Pgft { down: vec![c.hosts.len() as u32], up: vec![1], parallel: vec![1] },
                "FLAT".to_string(),
            )
        }
        ClusterTopology::FatTree { down, up, parallel } => {
            fits(down.iter().map(|d| u64::from(*d)).product(), "fat tree")?;
            let params = |v: &[u32]| v.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
            let text = format!("{};{};{};{}", down.len(), params(down), params(up), params(parallel));
            (
                Topology::Pgft { down: down.clone(), up: up.clone(), parallel: parallel.clone() },
                format!("FAT_TREE {text}"),
            )
        }
        ClusterTopology::Torus(dims) => {
            fits(dims.iter().map(|d| u64::from(*d)).product(), "torus")?;
            // SimGrid's torus hosts are the routers: no latency between a host and its router, and a
            // host injects on its 2 links per dimension at once. The host link carries what they
            // carry together, so that a host's messages leave paced (sharing it packet by packet)
            // rather than landing whole in its router's queue.
            let links_per_host = 2 * dims.len() as u64;
            endpoint_link = LinkParams {
                latency: hase_engine::SimTime::ZERO,
                bandwidth_bytes_per_s: c.bandwidth.saturating_mul(links_per_host),
            };
            let topology = match dims.as_slice() {
                [n] => Topology::Ring { nodes: *n },
                [x, y] => Topology::Torus2D { x: *x, y: *y },
                [x, y, z] => Topology::Torus3D { x: *x, y: *y, z: *z },
                _ => {
                    return Err(ImportError::Unsupported {
                        place: FilePlace::line(file, c.line as usize),
                        element: "cluster".into(),
                        reason: format!(
                            "a {}-dimensional torus: hase has rings and 2D and 3D tori",
                            dims.len()
                        ),
                    });
                }
            };
            let text = dims.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
            (topology, format!("TORUS {text}"))
        }
        ClusterTopology::Dragonfly([g, gl, ch, cl, r, rl, n]) => {
            fits(u64::from(*g) * u64::from(*ch) * u64::from(*r) * u64::from(*n), "dragonfly")?;
            let topology = Topology::Dragonfly {
                groups: *g,
                group_links: *gl,
                chassis: *ch,
                chassis_links: *cl,
                routers: *r,
                router_links: *rl,
                nodes: *n,
            };
            (topology, format!("DRAGONFLY {g},{gl};{ch},{cl};{r},{rl};{n}"))
        }
    };
    if let Some(limit) = c.limiter {
        endpoint_link.bandwidth_bytes_per_s = match endpoint_link.bandwidth_bytes_per_s {
            0 => limit,
            b => b.min(limit),
        };
        note(format!(
            "limiter_link: each host's link carries at most {} per direction (SimGrid's limiter is one \
             shared link per host, crossed on the way out and in)",
            hase_engine::units::format_rate(limit)
        ));
    }
    match c.sharing.as_deref() {
        None | Some("SPLITDUPLEX") => {}
        Some(policy) => note(format!(
            "sharing_policy=\"{policy}\": hase links carry each direction at full bandwidth (as SPLITDUPLEX)"
        )),
    }
    // Flow latency: the latency a host link carried (none on a torus, whose hosts are its routers)
    // and a link between switches carry is paid at the interfaces instead, once per message.
    let host_link_latency = endpoint_link.latency;
    let (link, endpoint_link) = match latency {
        LatencyModel::Links => (link, endpoint_link),
        LatencyModel::Flow => (
            LinkParams { latency: hase_engine::SimTime::ZERO, ..link },
            LinkParams { latency: hase_engine::SimTime::ZERO, ..endpoint_link },
        ),
    };
    let mut spec = TemplateSpec::new(topology.clone());
    spec.link = link;
    spec.endpoint_link = endpoint_link;
    spec.up_choice = UpChoice::ByDestination;
    spec.down_choice = DownChoice::BySource;
    for (k, v) in router_params() {
        spec.switch_params.insert(k.into(), v);
    }
    if latency == LatencyModel::Flow {
        for (k, v) in flow_router_params() {
            spec.switch_params.insert(k.into(), v);
        }
    }
    if let ClusterTopology::Torus(_) = c.topology {
        for (k, v) in torus_router_params() {
            spec.switch_params.insert(k.into(), v);
        }
    }
    if let (ClusterTopology::Flat, Some((_, lat))) = (&c.topology, c.backbone) {
        spec.switch_params.insert("routing_delay".into(), hase_engine::model::ParamValue::Time(lat));
    }
    for (k, v) in processor_params(c.flops_per_s) {
        spec.endpoint_params.insert(k.into(), v);
    }
    if latency == LatencyModel::Flow {
        for (k, v) in route_latency_params(host_link_latency, c.latency) {
            spec.endpoint_params.insert(k.into(), v);
        }
    }
    let registry = registry_for(&Project::new(name));
    let mut project = template_project(&spec, &registry, name, &ProjectForm::Flat)
        .map_err(|source| ImportError::Template { place: place.clone(), source: Box::new(source) })?;
    let mut names = BTreeMap::new();
    let mut taken: BTreeMap<String, &str> = BTreeMap::new();
    for (rank, host) in c.hosts.iter().enumerate() {
        let instance = instance_name_for_host(host);
        if let Some(other) = taken.insert(instance.clone(), host) {
            return Err(at(format!("hosts `{other}` and `{host}` would both be processor `{instance}`")));
        }
        let placeholder = format!("p{rank}");
        if instance != placeholder && project.network.instances.contains_key(&instance) {
            return Err(at(format!("host `{host}` would be named like switch `{instance}`")));
        }
        names.insert(placeholder, instance);
    }
    rename_instances(&mut project, &names);
    project.description = format!(
        "Imported from the SimGrid platform {file}: cluster {} ({described}), {} hosts at {}, links of {} and {}{}.",
        c.id,
        c.hosts.len(),
        hase_engine::units::format_flop_rate(c.flops_per_s),
        hase_engine::units::format_rate(c.bandwidth),
        hase_engine::units::format_time(c.latency),
        match latency {
            LatencyModel::Links => "",
            LatencyModel::Flow => {
                " (flow latency: the links carry none, each message waits its route's latency at the \
                 network interface)"
            }
        },
    );
    let summary = format!("cluster {}: {described}, {} hosts", c.id, c.hosts.len());
    Ok(Imported { project, notes, hosts: c.hosts.clone(), summary })
}
