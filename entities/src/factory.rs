//! Building the simulation: one behaviour per flat entity, chosen by behaviour name and configured
//! from the entity's parameters, the ranks, the routes and the workload. Every error names the
//! entity path at fault.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use hase_engine::elaborate::{Endpoint, EntityId, FlatEntity, FlatModel, elaborate_type};
use hase_engine::model::{Placement, PlacementError, TypeRegistry, Workload};
use hase_engine::time::SimTime;
use hase_engine::{Behaviour, PortIndex};

use crate::catalogue::{NETWORK_MODEL, PROCESSOR, ROUTER};
use crate::message::NetMsg;
use crate::mpi::op::{Algorithm, CollectiveKind};
use crate::netmodel::datasheet::{self, Estimate};
use crate::netmodel::hop::HopModel;
use crate::netmodel::paths::{PathSource, PathTable};
use crate::netmodel::sheet::{SheetModel, sheet_and_band};
use crate::packet_queue::OutputSharing;
use crate::placement::RankAddresses;
use crate::processor::action::CpuModel;
use crate::processor::held::RouteLatency;
use crate::processor::mpi::{EagerStart, MpiLimits, Rendezvous};
use crate::processor::outbox::NicSharing;
use crate::processor::sheet::SheetTiming;
use crate::processor::{ProcessorBehaviour, ProcessorConfig};
use crate::router::route_walk::RouteWalk;
use crate::router::routing::{RankAssignmentError, RankMap, Route, RoutingError, assign_ranks, build_routes};
use crate::router::switch::{RouteDecision, RouterBehaviour, RouterConfig, Switching};
use crate::store::NetBehaviours;
use crate::workload::program::{OpList, RankProgram};
use crate::workload::{WorkloadError, programs_for};

/// Why the behaviours could not be built.
#[derive(Debug, thiserror::Error)]
pub enum FactoryError {
    /// Ranks are missing, duplicated or out of range.
    #[error(transparent)]
    Ranks(#[from] RankAssignmentError),
    /// A router's routing rule cannot be set up.
    #[error(transparent)]
    Routing(#[from] RoutingError),
    /// The workload cannot be loaded.
    #[error(transparent)]
    Workload(#[from] WorkloadError),
    /// The rank placement names processors that are not there.
    #[error(transparent)]
    Placement(#[from] PlacementError),
    /// A data-sheet network model whose `sheet` cannot be loaded.
    #[error("{path}: parameter `sheet`: {reason}")]
    Sheet {
        /// Entity path.
        path: String,
        /// Why the sheet cannot be loaded.
        reason: Box<datasheet::DataSheetError>,
    },
    /// A network model whose inner network cannot be elaborated.
    #[error("{path}: cannot analyse inner network: {reason}")]
    InnerNetwork {
        /// Entity path.
        path: String,
        /// Why the inner network cannot be elaborated.
        reason: Box<hase_engine::ElabError>,
    },
    /// Something about one entity.
    #[error("{path}: {message}")]
    At {
        /// Entity path.
        path: String,
        /// What is wrong.
        message: String,
    },
}

impl FactoryError {
    /// The path of the entity the error is about, when it is about one.
    pub fn entity_path(&self) -> Option<&str> {
        match self {
            FactoryError::Sheet { path, .. }
            | FactoryError::InnerNetwork { path, .. }
            | FactoryError::At { path, .. } => Some(path),
            _ => None,
        }
    }
}

fn at(e: &FlatEntity, message: impl Into<String>) -> FactoryError {
    FactoryError::At { path: e.path.clone(), message: message.into() }
}

/// What the factory needs besides the model.
pub struct BuildInputs<'a> {
    /// The elaborated model.
    pub model: &'a FlatModel,
    /// Types (for behavioural compounds that analyse their inner network).
    pub registry: &'a TypeRegistry,
    /// What the processors run.
    pub workload: &'a Workload,
    /// Directory that relative workload paths are resolved against.
    pub base_dir: &'a Path,
    /// Which processors run the workload's ranks.
    pub placement: &'a Placement,
}

/// The result: behaviours in entity order plus the rank numbering used.
pub struct Built {
    /// One behaviour per entity, in contiguous storage by kind.
    pub behaviours: NetBehaviours,
    /// Rank numbering (processor ranks, the network's addresses).
    pub ranks: RankMap,
    /// The processors the workload's MPI ranks run on.
    pub placement: RankAddresses,
}

/// Build every entity's behaviour.
pub fn build_behaviours(inputs: &BuildInputs<'_>) -> Result<Built, FactoryError> {
    let model = inputs.model;
    let ranks = assign_ranks(model)?;
    let mut placed = RankAddresses::resolve(inputs.placement, ranks.len(), |path| {
        model.find(path).and_then(|id| ranks.rank_of(id))
    })?;
    let programs = match programs_for(inputs.workload, placed.world(), inputs.base_dir) {
        // A hostfile longer than the trace's ranks: the ranks run on its first hosts, as smpirun
        // takes them.
        Err(WorkloadError::TraceSize { trace, size, .. })
            if trace < size as usize && matches!(inputs.placement, Placement::Hosts(_)) =>
        {
            placed.keep_first(trace);
            programs_for(inputs.workload, placed.world(), inputs.base_dir)?
        }
        programs => programs?,
    };
    let size = placed.world();
    let addresses = (!placed.is_identity()).then(|| Arc::new(placed.clone()));
    let mut programs: Vec<Option<Box<dyn RankProgram>>> = programs.into_iter().map(Some).collect();
    let mut routes = RouterRoutes::new(model, &ranks, build_routes(model, &ranks)?);
    let sheets = sheet_models(model, inputs.base_dir)?;
    let mut behaviours = NetBehaviours::with_capacity(model.entities.len());
    // Where each processor receives, by processor rank (for direct rendezvous; built on first use).
    let mut peers: Option<Arc<Vec<Endpoint>>> = None;
    // The settings of the processor built last, shared with the next one if it is configured alike.
    let mut processor_settings = None;
    for (i, e) in model.entities.iter().enumerate() {
        let id = i as EntityId;
        match &**e.behaviour() {
            PROCESSOR => {
                let address = ranks.rank_of(id).ok_or_else(|| at(e, "processor has no rank"))?;
                // A processor left out of the placement idles (and keeps its own rank).
                let (rank, program) = match placed.rank(address) {
                    Some(rank) => {
                        let program = programs
                            .get_mut(rank as usize)
                            .and_then(Option::take)
                            .ok_or_else(|| at(e, format!("no program for rank {rank}")))?;
                        (rank, program)
                    }
                    None => (address, Box::new(OpList::default()) as Box<dyn RankProgram>),
                };
                let mut config = processor_config(model, id, e, rank, size, program)?;
                config.route_latency = route_latency(e, &routes);
                config.addresses.clone_from(&addresses);
                if config.limits.rendezvous == Rendezvous::Direct {
                    config.peers =
                        Some(Arc::clone(peers.get_or_insert_with(|| processor_ports(model, &ranks))));
                }
                config.sheet = model
                    .peer(Endpoint { entity: id, port: config.tx })
                    .and_then(|peer| sheets.get(&peer.entity))
                    .cloned();
                behaviours.push_processor(ProcessorBehaviour::sharing(config, &mut processor_settings));
            }
            ROUTER => {
                let route = routes.take(id).ok_or_else(|| at(e, "router has no routing rule"))?;
                let config = router_config(model, id, e, route)?;
                match choice(e, "output_sharing", OutputSharing::from_name)? {
                    OutputSharing::Fcfs => behaviours.push_router(RouterBehaviour::new(config)),
                    OutputSharing::RoundRobin => {
                        behaviours.push_other(Box::new(RouterBehaviour::round_robin(config)));
                    }
                    OutputSharing::LatencyWeighted => {
                        behaviours.push_other(Box::new(RouterBehaviour::latency_weighted(config)));
                    }
                }
            }
            NETWORK_MODEL => behaviours.push_other(match sheets.get(&id) {
                Some(timing) => sheet_model(model, id, e, &ranks, &placed, timing)?,
                None => network_model(inputs, id, e, &ranks)?,
            }),
            other => return Err(at(e, format!("unknown behaviour `{other}`"))),
        }
    }
    Ok(Built { behaviours, ranks, placement: placed })
}

/// The port each processor receives on, by processor rank.
fn processor_ports(model: &FlatModel, ranks: &RankMap) -> Arc<Vec<Endpoint>> {
    Arc::new(
        ranks
            .iter()
            .map(|(_, entity)| {
                let e = model.entity(entity);
                let port = e.port_index("net").or_else(|| e.port_index("rx")).unwrap_or(0);
                Endpoint { entity, port }
            })
            .collect(),
    )
}

fn switching_of(e: &FlatEntity) -> Result<Switching, FactoryError> {
    let name = e.text("switching").unwrap_or("store_and_forward");
    Switching::from_name(name).ok_or_else(|| at(e, format!("unknown switching `{name}`")))
}

fn nonneg(e: &FlatEntity, name: &str, default: i64) -> Result<u64, FactoryError> {
    let v = e.int(name).unwrap_or(default);
    u64::try_from(v).map_err(|_| at(e, format!("parameter `{name}` must not be negative (is {v})")))
}

/// A mode parameter read by `from_name`; the default when the parameter is not set.
fn choice<T: Default>(
    e: &FlatEntity,
    name: &str,
    from_name: fn(&str) -> Option<T>,
) -> Result<T, FactoryError> {
    match e.text(name) {
        None => Ok(T::default()),
        Some(value) => {
            from_name(value).ok_or_else(|| at(e, format!("parameter `{name}`: unknown mode `{value}`")))
        }
    }
}

/// The buffer capacity of whatever `end` is linked to, if that entity bounds its buffers and the
/// link can carry credits back.
fn downstream_credits(model: &FlatModel, end: Endpoint) -> Option<u32> {
    let link = &model.links[model.entity(end.entity).link(end.port)? as usize];
    if !(link.forward && link.backward) {
        return None;
    }
    let peer = model.entity(link.other(end).entity);
    if &**peer.behaviour() != ROUTER {
        return None;
    }
    peer.int("buffer_packets").filter(|b| *b > 0).map(|b| b as u32)
}

fn processor_config(
    model: &FlatModel,
    id: EntityId,
    e: &FlatEntity,
    rank: u32,
    size: u32,
    program: Box<dyn RankProgram>,
) -> Result<ProcessorConfig, FactoryError> {
    let (tx, rx) = match (e.port_index("net"), e.port_index("tx"), e.port_index("rx")) {
        (Some(net), _, _) => (net, net),
        (None, Some(tx), Some(rx)) => (tx, rx),
        _ => return Err(at(e, "a processor needs a `net` port or `tx` and `rx` ports")),
    };
    let mut algorithms = BTreeMap::new();
    for kind in CollectiveKind::ALL {
        let param = format!("{}_algorithm", kind.state_name().to_ascii_lowercase());
        if let Some(name) = e.text(&param) {
            let a = Algorithm::from_name(name)
                .filter(|a| a.applies_to(kind))
                .ok_or_else(|| at(e, format!("`{name}` is not an algorithm for {}", kind.state_name())))?;
            algorithms.insert(kind, a);
        }
    }
    let time = |name: &str| e.time(name).unwrap_or_default();
    Ok(ProcessorConfig {
        rank,
        size,
        tx,
        rx,
        cpu: CpuModel {
            time_step: time("time_step"),
            flops_per_s: e.float("flops_per_s").unwrap_or(1e9).max(1.0),
            send_overhead: time("send_overhead"),
            reduce_time_per_kib: time("reduce_time_per_kib"),
            segment_bytes: nonneg(e, "segment_bytes", 8192)?.max(1),
        },
        recv_overhead: time("recv_overhead"),
        limits: MpiLimits {
            eager_limit: nonneg(e, "eager_limit", 4096)?,
            max_packet: nonneg(e, "max_packet", 1024)?.clamp(1, u64::from(u32::MAX)),
            header_bytes: nonneg(e, "header_bytes", 0)?.min(u64::from(u32::MAX)),
            rendezvous: {
                let name = e.text("rendezvous").unwrap_or("handshake");
                Rendezvous::from_name(name).ok_or_else(|| {
                    at(
                        e,
                        format!("parameter `rendezvous`: unknown mode `{name}`; choose handshake or direct"),
                    )
                })?
            },
            eager_start: choice(e, "eager_start", EagerStart::from_name)?,
        },
        nic_sharing: choice(e, "nic_sharing", NicSharing::from_name)?,
        route_latency: None,
        algorithms,
        downstream_credits: downstream_credits(model, Endpoint { entity: id, port: tx }),
        sheet: None,
        program,
        addresses: None,
        peers: None,
    })
}

fn router_config(
    model: &FlatModel,
    id: EntityId,
    e: &FlatEntity,
    route: Box<dyn RouteDecision>,
) -> Result<RouterConfig, FactoryError> {
    let buffer = nonneg(e, "buffer_packets", 0)?;
    Ok(RouterConfig {
        switching: switching_of(e)?,
        routing_delay: e.time("routing_delay").unwrap_or_default(),
        buffer_packets: (buffer > 0).then_some(buffer as u32),
        downstream_credits: (0..e.ports().len())
            .map(|p| downstream_credits(model, Endpoint { entity: id, port: p as PortIndex }))
            .collect(),
        route,
    })
}

impl RouteDecision for Route {
    fn next_port(&self, dst: u32, src: u32) -> Option<PortIndex> {
        Route::next_port(self, dst, src)
    }
}

impl RouteDecision for Arc<Route> {
    fn next_port(&self, dst: u32, src: u32) -> Option<PortIndex> {
        Route::next_port(self, dst, src)
    }
}

/// The routers' rules, handed to the routers one by one. When a processor pays route latencies at
/// its interface, the rules are shared with a [`RouteWalk`] its interface follows; otherwise each
/// router owns its rule.
enum RouterRoutes {
    Owned(Vec<Option<Route>>),
    Shared(Vec<Option<Arc<Route>>>, Arc<RouteWalk>),
}

impl RouterRoutes {
    fn new(model: &FlatModel, ranks: &RankMap, routes: Vec<Option<Route>>) -> Self {
        let pays = model.entities.iter().any(|e| {
            &**e.behaviour() == PROCESSOR && ROUTE_LATENCY_PARAMS.iter().any(|p| positive_time(e, p))
        });
        if !pays {
            return RouterRoutes::Owned(routes);
        }
        let shared: Vec<Option<Arc<Route>>> = routes.into_iter().map(|r| r.map(Arc::new)).collect();
        let walk = Arc::new(RouteWalk::new(model, ranks, shared.clone()));
        RouterRoutes::Shared(shared, walk)
    }

    /// Router `id`'s rule (once).
    fn take(&mut self, id: EntityId) -> Option<Box<dyn RouteDecision>> {
        match self {
            RouterRoutes::Owned(r) => {
                r.get_mut(id as usize)?.take().map(|r| Box::new(r) as Box<dyn RouteDecision>)
            }
            RouterRoutes::Shared(r, _) => {
                r.get_mut(id as usize)?.take().map(|r| Box::new(r) as Box<dyn RouteDecision>)
            }
        }
    }
}

/// The processor parameters of the route latency its interface pays: per link between a processor
/// and a router, per link between two routers.
const ROUTE_LATENCY_PARAMS: [&str; 2] = ["route_latency_per_host_link", "route_latency_per_router_link"];

fn positive_time(e: &FlatEntity, name: &str) -> bool {
    e.time(name).is_some_and(|t| t > SimTime::ZERO)
}

/// The route latency processor `e` pays at its interface, if it pays any.
fn route_latency(e: &FlatEntity, routes: &RouterRoutes) -> Option<RouteLatency> {
    let RouterRoutes::Shared(_, walk) = routes else { return None };
    if !ROUTE_LATENCY_PARAMS.iter().any(|p| positive_time(e, p)) {
        return None;
    }
    let [host, router] = ROUTE_LATENCY_PARAMS.map(|p| e.time(p).unwrap_or_default());
    Some(RouteLatency { per_host_link: host, per_router_link: router, walk: Arc::clone(walk) })
}

/// For a behavioural network model: the port messages for each rank leave by (a port whose link
/// can carry traffic out to that rank's processor).
fn rank_ports(model: &FlatModel, id: EntityId, e: &FlatEntity, ranks: &RankMap) -> Vec<Option<PortIndex>> {
    let mut rank_port = vec![None; ranks.len()];
    for p in 0..e.ports().len() {
        let end = Endpoint { entity: id, port: p as PortIndex };
        let Some(link) = e.link(p as PortIndex).map(|l| &model.links[l as usize]) else { continue };
        let outward = if link.ends[0] == end { link.forward } else { link.backward };
        if outward && let Some(r) = ranks.rank_of(link.other(end).entity) {
            rank_port[r as usize] = Some(p as PortIndex);
        }
    }
    rank_port
}

/// The data sheet and band of every network model set to `model = "datasheet"`, by entity. The
/// `sheet` parameter names a built-in sheet or a sheet file relative to the project (`base_dir`);
/// models naming the same sheet share one copy.
fn sheet_models(model: &FlatModel, base_dir: &Path) -> Result<BTreeMap<EntityId, SheetTiming>, FactoryError> {
    let mut sheets = BTreeMap::new();
    let mut loaded: BTreeMap<String, Arc<datasheet::DataSheet>> = BTreeMap::new();
    for (i, e) in model.entities.iter().enumerate() {
        let Some((name, band)) = sheet_and_band(e) else {
            continue;
        };
        let sheet =
            if let Some(sheet) = loaded.get(name) {
                sheet.clone()
            } else {
                let sheet = Arc::new(datasheet::load(name, base_dir).map_err(|reason| {
                    FactoryError::Sheet { path: e.path.clone(), reason: Box::new(reason) }
                })?);
                loaded.insert(name.to_string(), sheet.clone());
                sheet
            };
        let estimate = Estimate::from_name(band).ok_or_else(|| {
            at(e, format!("parameter `band`: unknown band `{band}`; choose min, avg, max or measured"))
        })?;
        sheets.insert(i as EntityId, SheetTiming::new(sheet, estimate));
    }
    Ok(sheets)
}

/// A network model at the data-sheet level. Every placed rank must be attached to it: collectives
/// take every rank of the run.
fn sheet_model(
    model: &FlatModel,
    id: EntityId,
    e: &FlatEntity,
    ranks: &RankMap,
    placed: &RankAddresses,
    timing: &SheetTiming,
) -> Result<Box<dyn Behaviour<NetMsg>>, FactoryError> {
    let rank_port = rank_ports(model, id, e, ranks);
    let detached: Vec<String> = placed
        .addresses()
        .iter()
        .filter(|a| rank_port[**a as usize].is_none())
        .map(ToString::to_string)
        .collect();
    if !detached.is_empty() {
        return Err(at(
            e,
            format!(
                "a data-sheet network model must be linked to every rank's processor; rank(s) {} are not",
                detached.join(", ")
            ),
        ));
    }
    let inbound_latency: Vec<SimTime> =
        e.links().map(|l| l.map_or(SimTime::ZERO, |l| model.links[l as usize].latency)).collect();
    Ok(Box::new(SheetModel::new(
        timing.sheet.clone(),
        timing.estimate,
        placed.world(),
        rank_port,
        inbound_latency,
    )))
}

fn network_model(
    inputs: &BuildInputs<'_>,
    id: EntityId,
    e: &FlatEntity,
    ranks: &RankMap,
) -> Result<Box<dyn Behaviour<NetMsg>>, FactoryError> {
    let model = inputs.model;
    let rank_port = rank_ports(model, id, e, ranks);
    let kind = e.text("model").unwrap_or("hop");
    if kind != "hop" {
        return Err(at(e, format!("unknown network model `{kind}`; choose hop or datasheet")));
    }
    let (source, switching) = match e.stands_for() {
        Some(type_name) => {
            let (inner, outer) = elaborate_type(inputs.registry, type_name).map_err(|reason| {
                FactoryError::InnerNetwork { path: e.path.clone(), reason: Box::new(reason) }
            })?;
            let ports = e.ports().iter().map(|p| outer.get(&*p.name).copied()).collect();
            let switching = inner
                .entities
                .iter()
                .find(|x| &**x.behaviour() == ROUTER)
                .map_or(Ok(Switching::StoreAndForward), switching_of)?;
            (PathSource::Inner { model: Box::new(inner), ports }, switching)
        }
        None => (
            PathSource::Uniform {
                switches: nonneg(e, "hops", 1)? as u32,
                routing_delay: e.time("routing_delay").unwrap_or_default(),
                latency: e.time("latency").unwrap_or_default(),
                bandwidth_bytes_per_s: nonneg(e, "bandwidth", 0)?,
            },
            switching_of(e)?,
        ),
    };
    Ok(Box::new(HopModel::new(switching, PathTable::new(source), rank_port)))
}
