//! The algorithmic routing rules — dimension order, e-cube, destination tag, up/down, parallel
//! generalised fat tree, dragonfly — each holding O(1) state per router (its address and a shared
//! copy of the network's shape), built from the router's parameters and checked against its ports.
//! Conventions: `hase_engine::model::routing`.

mod dragonfly;
mod pgft;

use std::sync::Arc;

use hase_engine::elaborate::{FlatEntity, PortIndex};
use hase_engine::model::{ParamValue, Routing, UpChoice};

use super::error::{RoutingError, RuleError};
use super::tie::TorusTie;
use dragonfly::{DragonflyRouter, DragonflyShape};
use pgft::{PgftShape, PgftSwitch};

/// The shape of a network's rule, checked once per network and shared by its routers.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum RuleShape {
    /// Mesh or torus: extents and row-major strides.
    Grid { dims: Arc<[u32]>, wrap: bool, nodes: u32 },
    /// Hypercube of `2^dimensions` nodes.
    Cube { dimensions: u32 },
    /// Omega network of `stages` stages.
    Omega { stages: u32 },
    /// k-ary n-tree with `up_ports` up links per switch below the top.
    Tree { arity: u32, levels: u32, up_ports: u32, up_choice: UpChoice },
    /// Parallel generalised fat tree.
    Pgft(Arc<PgftShape>),
    /// Dragonfly.
    Dragonfly(DragonflyShape),
}

impl RuleShape {
    /// Check a network's rule; `None` for shortest path. `scope` names the network in errors.
    pub(super) fn of(routing: &Routing, scope: &str) -> Result<Option<RuleShape>, RoutingError> {
        let bad = |reason: RuleError| RoutingError::BadRule {
            scope: if scope.is_empty() {
                "the top-level network".into()
            } else {
                format!("network `{scope}`")
            },
            reason,
        };
        Ok(Some(match routing {
            Routing::ShortestPath => return Ok(None),
            Routing::DimensionOrder { dims, wrap } => {
                if dims.is_empty() || dims.contains(&0) || dims.len() > 1000 {
                    return Err(bad(RuleError::BadExtents(dims.clone())));
                }
                let nodes = dims.iter().try_fold(1u32, |acc, d| acc.checked_mul(*d));
                let nodes = nodes.ok_or_else(|| bad(RuleError::TooManyNodes(dims.clone())))?;
                RuleShape::Grid { dims: dims.as_slice().into(), wrap: *wrap, nodes }
            }
            Routing::ECube { dimensions } => {
                if !(1..=31).contains(dimensions) {
                    return Err(bad(RuleError::BadDimensions(*dimensions)));
                }
                RuleShape::Cube { dimensions: *dimensions }
            }
            Routing::DestinationTag { stages } => {
                if !(1..=31).contains(stages) {
                    return Err(bad(RuleError::BadStages(*stages)));
                }
                RuleShape::Omega { stages: *stages }
            }
            Routing::UpDown { arity, levels, up_choice, up_ports } => {
                let ranks = (*arity >= 1 && *levels >= 1).then(|| arity.checked_pow(*levels)).flatten();
                if ranks.is_none() || arity.saturating_add(*up_ports) > u32::from(PortIndex::MAX) {
                    return Err(bad(RuleError::BadTree {
                        arity: *arity,
                        levels: *levels,
                        up_ports: *up_ports,
                    }));
                }
                if *levels > 1 && *up_ports == 0 {
                    return Err(bad(RuleError::NoUpPorts));
                }
                RuleShape::Tree { arity: *arity, levels: *levels, up_ports: *up_ports, up_choice: *up_choice }
            }
            Routing::Pgft { down, up, parallel, up_choice, down_choice } => RuleShape::Pgft(Arc::new(
                PgftShape::new(down, up, parallel, *up_choice, *down_choice).map_err(bad)?,
            )),
            Routing::Dragonfly { groups, chassis, routers, nodes } => {
                RuleShape::Dragonfly(DragonflyShape::new(*groups, *chassis, *routers, *nodes).map_err(bad)?)
            }
        }))
    }
}

/// One router's algorithmic rule.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Algo {
    /// Dimension order on a mesh or torus; `here` is the router's rank-order address, `tie` the
    /// way halfway round a ring.
    DimensionOrder { dims: Arc<[u32]>, wrap: bool, nodes: u32, here: u32, tie: TorusTie },
    /// E-cube on a hypercube.
    ECube { dimensions: u32, here: u32 },
    /// Destination tag at one stage of an omega network; `row` is the switch's row in its stage.
    DestinationTag { stages: u32, stage: u32, row: u32 },
    /// Up/down in a k-ary n-tree: `below = k^level`, the switch serves ranks `r / (below·k) = subtree`.
    UpDown { arity: u32, up_ports: u32, up_choice: UpChoice, below: u64, subtree: u64, top: bool, ranks: u64 },
    /// One switch of a parallel generalised fat tree.
    Pgft(PgftSwitch),
    /// One dragonfly router.
    Dragonfly(DragonflyRouter),
}

/// A non-negative integer parameter of a router, read for `rule`.
fn int_param(
    e: &FlatEntity,
    param: &'static str,
    rule: &'static str,
    below: u64,
) -> Result<u64, RoutingError> {
    let got = e.params.get(param);
    match got.and_then(ParamValue::as_int) {
        Some(v) if v >= 0 && (v as u64) < below => Ok(v as u64),
        _ => Err(RoutingError::BadParam {
            path: e.path.clone(),
            rule,
            param,
            need: format!("an integer from 0 to {}", below - 1),
            got: got.map_or_else(|| "nothing".into(), ParamValue::display),
        }),
    }
}

impl Algo {
    /// Build the rule of router `e` in a network of shape `shape`, checking its parameters and
    /// port count.
    pub(super) fn build(shape: &RuleShape, e: &FlatEntity) -> Result<Algo, RoutingError> {
        let (algo, need) = match shape {
            RuleShape::Grid { dims, wrap, nodes } => {
                let rule = "dimension-order";
                let got = e.params.get("coord");
                let coord = got.and_then(ParamValue::as_int_array).unwrap_or(&[]);
                let fits = coord.len() == dims.len()
                    && coord.iter().zip(dims.iter()).all(|(c, d)| *c >= 0 && *c < i64::from(*d));
                if !fits {
                    return Err(RoutingError::BadParam {
                        path: e.path.clone(),
                        rule,
                        param: "coord",
                        need: format!("{} coordinates within the extents {dims:?}", dims.len()),
                        got: got.map_or_else(|| "nothing".into(), ParamValue::display),
                    });
                }
                let mut here = 0u32;
                for (c, d) in coord.iter().zip(dims.iter()).rev() {
                    here = here * d + *c as u32;
                }
                let got = e.params.get("torus_tie");
                let tie = match got.and_then(ParamValue::as_text) {
                    None => TorusTie::default(),
                    Some(name) => TorusTie::from_name(name).ok_or_else(|| RoutingError::BadParam {
                        path: e.path.clone(),
                        rule,
                        param: "torus_tie",
                        need: TorusTie::NAMES.join(" or "),
                        got: got.map_or_else(|| "nothing".into(), ParamValue::display),
                    })?,
                };
                let algo = Algo::DimensionOrder { dims: dims.clone(), wrap: *wrap, nodes: *nodes, here, tie };
                (algo, 2 * dims.len() + 1)
            }
            RuleShape::Cube { dimensions } => {
                let got = e.params.get("coord");
                let here = match got.and_then(ParamValue::as_int_array) {
                    Some([id]) if *id >= 0 && *id < 1i64 << dimensions => *id as u32,
                    _ => {
                        return Err(RoutingError::BadParam {
                            path: e.path.clone(),
                            rule: "e-cube",
                            param: "coord",
                            need: format!("[node id] with the id from 0 to {}", (1u64 << dimensions) - 1),
                            got: got.map_or_else(|| "nothing".into(), ParamValue::display),
                        });
                    }
                };
                let algo = Algo::ECube { dimensions: *dimensions, here };
                (algo, *dimensions as usize + 1)
            }
            RuleShape::Omega { stages } => {
                let stage = int_param(e, "stage", "destination-tag", u64::from(*stages))? as u32;
                let row = int_param(e, "index", "destination-tag", 1u64 << (stages - 1))? as u32;
                (Algo::DestinationTag { stages: *stages, stage, row }, 4)
            }
            RuleShape::Tree { arity, levels, up_ports, up_choice } => {
                let rule = "up/down";
                let level = int_param(e, "level", rule, u64::from(*levels))? as u32;
                let k = u64::from(*arity);
                let below = k.pow(level);
                let ranks = k.pow(*levels);
                let subtrees = ranks / (below * k);
                let replicas = u64::from(*up_ports).saturating_pow(level);
                let index = int_param(e, "index", rule, subtrees.saturating_mul(replicas))?;
                let top = level + 1 == *levels;
                let algo = Algo::UpDown {
                    arity: *arity,
                    up_ports: *up_ports,
                    up_choice: *up_choice,
                    below,
                    subtree: index / replicas,
                    top,
                    ranks,
                };
                let need = *arity as usize + if top { 0 } else { *up_ports as usize };
                (algo, need)
            }
            RuleShape::Pgft(shape) => {
                let rule = "PGFT";
                let level = int_param(e, "level", rule, shape.levels() as u64)? as usize + 1;
                let index = int_param(e, "index", rule, shape.switches(level))?;
                let need = shape.ports(level) as usize;
                let high = index / shape.up_below[level];
                (Algo::Pgft(PgftSwitch { shape: shape.clone(), level, high }), need)
            }
            RuleShape::Dragonfly(shape) => {
                let got = e.params.get("coord");
                let bounds = [shape.groups, shape.chassis, shape.routers];
                let at = match got.and_then(ParamValue::as_int_array) {
                    Some(&[g, c, r])
                        if [g, c, r].iter().zip(bounds).all(|(v, b)| *v >= 0 && (*v as u64) < b) =>
                    {
                        [g as u64, c as u64, r as u64]
                    }
                    _ => {
                        return Err(RoutingError::BadParam {
                            path: e.path.clone(),
                            rule: "dragonfly",
                            param: "coord",
                            need: format!("[group, chassis, router] within {bounds:?}"),
                            got: got.map_or_else(|| "nothing".into(), ParamValue::display),
                        });
                    }
                };
                (Algo::Dragonfly(DragonflyRouter { shape: *shape, at }), shape.ports() as usize)
            }
        };
        if e.ports().len() < need {
            return Err(RoutingError::TooFewPorts {
                path: e.path.clone(),
                rule: algo.name(),
                need,
                have: e.ports().len(),
            });
        }
        Ok(algo)
    }

    /// Rule name for messages.
    pub(super) fn name(&self) -> &'static str {
        match self {
            Algo::DimensionOrder { .. } => "dimension-order",
            Algo::ECube { .. } => "e-cube",
            Algo::DestinationTag { .. } => "destination-tag",
            Algo::UpDown { .. } => "up/down",
            Algo::Pgft(_) => "PGFT",
            Algo::Dragonfly(_) => "dragonfly",
        }
    }

    /// The ports that lead to processors under this rule, with the rank expected at each.
    pub(super) fn processor_ports(&self) -> Vec<(PortIndex, u64)> {
        match self {
            Algo::DimensionOrder { dims, here, .. } => vec![(2 * dims.len() as PortIndex, u64::from(*here))],
            Algo::ECube { dimensions, here } => vec![(*dimensions as PortIndex, u64::from(*here))],
            // The outputs of the last stage go to ranks 2·row and 2·row + 1.
            Algo::DestinationTag { stages, stage, row } if stage + 1 == *stages => {
                vec![(2, 2 * u64::from(*row)), (3, 2 * u64::from(*row) + 1)]
            }
            Algo::UpDown { arity, below, subtree, .. } if *below == 1 => {
                (0..*arity).map(|c| (c as PortIndex, subtree * u64::from(*arity) + u64::from(c))).collect()
            }
            Algo::DestinationTag { .. } | Algo::UpDown { .. } => Vec::new(),
            Algo::Pgft(switch) => switch.processor_ports(),
            Algo::Dragonfly(router) => router.processor_ports(),
        }
    }

    /// The output port for a packet from rank `src` to rank `dst`; `None` if `dst` is outside the
    /// network.
    pub(super) fn next_port(&self, dst: u32, src: u32) -> Option<PortIndex> {
        match self {
            Algo::DimensionOrder { dims, wrap, nodes, here, tie } => {
                if dst >= *nodes {
                    return None;
                }
                let (mut h, mut t) = (*here, dst);
                for (d, k) in dims.iter().enumerate() {
                    let (hc, tc) = (h % k, t % k);
                    (h, t) = (h / k, t / k);
                    if hc == tc {
                        continue;
                    }
                    let plus = if *wrap {
                        // In u64: `tc + k` may not fit a u32 for extents above 2^31.
                        let (k, hc, tc) = (u64::from(*k), u64::from(hc), u64::from(tc));
                        tie.goes_plus(hc, (tc + k - hc) % k, k)
                    } else {
                        tc > hc
                    };
                    return Some((2 * d + usize::from(!plus)) as PortIndex);
                }
                Some(2 * dims.len() as PortIndex)
            }
            Algo::ECube { dimensions, here } => {
                if u64::from(dst) >= 1u64 << dimensions {
                    return None;
                }
                let diff = here ^ dst;
                Some(if diff == 0 { *dimensions as PortIndex } else { diff.trailing_zeros() as PortIndex })
            }
            Algo::DestinationTag { stages, stage, .. } => {
                if u64::from(dst) >= 1u64 << stages {
                    return None;
                }
                let bit = (dst >> (stages - 1 - stage)) & 1;
                Some(2 + bit as PortIndex)
            }
            Algo::UpDown { arity, up_ports, up_choice, below, subtree, top, ranks } => {
                let (d, k) = (u64::from(dst), u64::from(*arity));
                if d >= *ranks {
                    return None;
                }
                if d / (below * k) == *subtree {
                    return Some(((d / below) % k) as PortIndex);
                }
                if *top {
                    return None;
                }
                let up = match up_choice {
                    UpChoice::ByDestination => (d / below) % u64::from(*up_ports),
                    UpChoice::BySource => (u64::from(src) / below) % u64::from(*up_ports),
                    UpChoice::First => 0,
                };
                Some((k + up) as PortIndex)
            }
            Algo::Pgft(switch) => switch.next_port(dst, src),
            Algo::Dragonfly(router) => router.next_port(dst),
        }
    }
}
