//! Materialising a plan for the slotted components: a flat network with switches and processors
//! ([`generate`]), or a compound network type holding the switches, with one outer port per
//! processor attachment and the behavioural network model as its other level ([`generate_compound`]).

use hase_engine::model::{
    CompoundDef, Direction, EntityType, Instance, Link, Network, NetworkLayout, ParamMap, ParamValue,
    PortDef, PortExport, PortRef, Pos, TypeRegistry,
};
use hase_entities::catalogue::{NETWORK_MODEL, NETWORK_MODEL_STATES, network_model_params};
use hase_entities::message::PACKET_LINK;

use crate::error::TemplateError;
use crate::family::TopologyCounts;
use crate::plan::{Plan, Role};
use crate::slot::{self, SwitchSlot};
use crate::spec::{LinkParams, TemplateSpec};

/// A generated flat network.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// Switches, processors (named `p{rank}`, with `rank` set) and links, with the routing rule.
    pub network: Network,
    /// Positions of every instance and corner points of detoured links.
    pub layout: NetworkLayout,
    /// Sizes (equal to `spec.topology.counts()`).
    pub counts: TopologyCounts,
}

/// Add a link, its ends put in `PortRef` order so that corner points run from `link.a` to
/// `link.b` and equally from the first end of `link.key()` to the second.
fn push_link(
    net: &mut Network,
    layout: &mut NetworkLayout,
    a: PortRef,
    b: PortRef,
    params: LinkParams,
    corners: &[Pos],
) {
    let (a, b, forward) = if a <= b { (a, b, true) } else { (b, a, false) };
    let link = Link::new(a, b, params.latency, params.bandwidth_bytes_per_s);
    if !corners.is_empty() {
        let mut points = corners.to_vec();
        if !forward {
            points.reverse();
        }
        layout.corners.insert(link.key(), points);
    }
    net.links.push(link);
}

/// Check the topology, slot the switch type (cheap checks first), then plan the topology.
fn prepare<'a>(
    spec: &TemplateSpec,
    registry: &'a TypeRegistry,
) -> Result<(Plan, SwitchSlot<'a>), TemplateError> {
    spec.topology.check()?;
    let slot = slot::switch(spec, registry)?;
    let plan = spec.topology.plan(spec.up_choice, spec.down_choice);
    slot::check_required(&plan, &slot, spec.topology.name())?;
    Ok((plan, slot))
}

/// Switch instances and switch-to-switch links into `net` and `layout`.
fn add_switches(
    spec: &TemplateSpec,
    plan: &Plan,
    slot: &SwitchSlot<'_>,
    net: &mut Network,
    layout: &mut NetworkLayout,
) -> Result<(), TemplateError> {
    let template = spec.topology.name();
    for node in &plan.switches {
        let mut inst = Instance::of(&slot.ty.name);
        inst.params = slot.overrides.clone();
        for (param, value) in &node.params {
            slot::check_value(slot.ty, param, value, template)?;
            inst.params.insert((*param).to_string(), value.clone());
        }
        net.instances.insert(node.name.clone(), inst);
        layout.positions.insert(node.name.clone(), node.pos);
    }
    for l in &plan.switch_links {
        let end = |(s, p): (usize, u16)| PortRef::new(&plan.switches[s].name, &slot.ports[usize::from(p)]);
        let params = LinkParams {
            bandwidth_bytes_per_s: spec.link.bandwidth_bytes_per_s.saturating_mul(u64::from(l.width)),
            ..spec.link
        };
        push_link(net, layout, end(l.a), end(l.b), params, &l.corners);
    }
    net.routing = plan.routing.clone();
    Ok(())
}

/// Generate the topology as one flat network of switches and processors.
pub fn generate(spec: &TemplateSpec, registry: &TypeRegistry) -> Result<Generated, TemplateError> {
    let (plan, slot) = prepare(spec, registry)?;
    let template = spec.topology.name();
    let endpoint = slot::endpoint(spec, registry, spec.topology.endpoint_roles())?;
    if let Some(port) = endpoint.required_elsewhere.first() {
        return Err(TemplateError::UnusedRequiredPort {
            component: endpoint.ty.name.clone(),
            port: port.clone(),
            instance: Plan::endpoint_name(0),
            template,
        });
    }
    let mut network = Network::default();
    let mut layout = NetworkLayout::default();
    add_switches(spec, &plan, &slot, &mut network, &mut layout)?;
    for (rank, pos) in plan.endpoints.iter().enumerate() {
        let name = Plan::endpoint_name(rank);
        let rank_value = ParamValue::Int(rank as i64);
        slot::check_value(endpoint.ty, "rank", &rank_value, template)?;
        let mut inst = Instance::of(&endpoint.ty.name);
        inst.params = endpoint_params(spec, rank);
        network.instances.insert(name.clone(), inst);
        layout.positions.insert(name, *pos);
    }
    for l in &plan.endpoint_links {
        let proc = PortRef::new(&Plan::endpoint_name(l.rank), l.role.port());
        let switch = PortRef::new(&plan.switches[l.switch.0].name, &slot.ports[usize::from(l.switch.1)]);
        push_link(&mut network, &mut layout, proc, switch, spec.endpoint_link, &l.corners);
    }
    Ok(Generated { network, layout, counts: spec.topology.counts() })
}

/// Generate the topology as a compound network type called `type_name`: its inner network holds the
/// switches and switch links (with the routing rule); its outer ports are `p0..p{N-1}` (`tx{i}`,
/// input, and `rx{i}`, output, on an omega network), port `p{r}` standing where processor `r`
/// attaches; its behaviour is the behavioural network model with `network_model_params()`, so an
/// instance can be switched to its behavioural level. Returns the type and its inner layout.
pub fn generate_compound(
    spec: &TemplateSpec,
    registry: &TypeRegistry,
    type_name: &str,
) -> Result<(EntityType, NetworkLayout), TemplateError> {
    let clash = [&spec.switch_type, &spec.endpoint_type].into_iter().any(|t| t == type_name);
    if type_name.trim().is_empty() || clash {
        return Err(TemplateError::BadTypeName {
            name: type_name.into(),
            reason: if clash {
                "it is the name of a slotted component".into()
            } else {
                "the name is empty".into()
            },
        });
    }
    let (plan, slot) = prepare(spec, registry)?;
    let mut network = Network::default();
    let mut layout = NetworkLayout::default();
    add_switches(spec, &plan, &slot, &mut network, &mut layout)?;
    let exports = plan
        .endpoint_links
        .iter()
        .map(|l| PortExport {
            outer: l.role.outer_port(l.rank),
            inner: PortRef::new(&plan.switches[l.switch.0].name, &slot.ports[usize::from(l.switch.1)]),
        })
        .collect();
    let n = plan.endpoints.len() as u32;
    let ports = if spec.topology.endpoint_roles().contains(&Role::Net) {
        vec![PortDef::new("p", Direction::InOut, PACKET_LINK).array(n)]
    } else {
        vec![
            PortDef::new("tx", Direction::In, PACKET_LINK).array(n),
            PortDef::new("rx", Direction::Out, PACKET_LINK).array(n),
        ]
    };
    let counts = spec.topology.counts();
    let ty = EntityType {
        name: type_name.into(),
        category: "Networks".into(),
        description: format!(
            "{} of {} ({} switches, {} links), generated by template {}; detailed level simulates \
             every switch, behavioural level the network model.",
            spec.topology.describe(),
            slot.ty.name,
            counts.switches,
            counts.switch_links,
            spec.topology.name()
        ),
        icon: Some("network".into()),
        ports,
        params: network_model_params(),
        states: NETWORK_MODEL_STATES.iter().map(|s| (*s).to_string()).collect(),
        behaviour: Some(NETWORK_MODEL.into()),
        compound: Some(CompoundDef { network, exports }),
    };
    Ok((ty, layout))
}

/// Overrides applied to every processor by the project helper (the spec's plus `rank`).
pub(crate) fn endpoint_params(spec: &TemplateSpec, rank: usize) -> ParamMap {
    let mut params = ParamMap::from(spec.endpoint_params.clone());
    params.insert("rank".into(), ParamValue::Int(rank as i64));
    params
}

#[cfg(test)]
mod tests {
    use hase_engine::model::Routing;
    use hase_entities::catalogue::builtin_registry;

    use super::*;
    use crate::Topology;

    #[test]
    fn a_compound_mesh_exports_each_router_local_port() {
        let spec = TemplateSpec::new(Topology::Mesh2D { x: 2, y: 2 });
        let (ty, layout) = generate_compound(&spec, &builtin_registry(), "Mesh2D_2x2").unwrap();
        let compound = ty.compound.as_ref().unwrap();
        let outer: Vec<String> = ty.concrete_ports(&ParamMap::new()).into_iter().map(|p| p.name).collect();
        assert_eq!(outer, ["p0", "p1", "p2", "p3"]);
        let p3 = compound.exports.iter().find(|e| e.outer == "p3").unwrap();
        assert_eq!(p3.inner, PortRef::new("r_1_1", "p4"));
        assert_eq!(compound.network.instances.len(), 4);
        assert_eq!(compound.network.links.len(), 4);
        assert_eq!(compound.network.routing, Routing::DimensionOrder { dims: vec![2, 2], wrap: false });
        assert_eq!(ty.behaviour.as_deref(), Some(NETWORK_MODEL));
        assert_eq!(ty.params, network_model_params());
        assert_eq!(layout.positions.len(), 4);
    }

    #[test]
    fn an_omega_compound_has_tx_inputs_and_rx_outputs() {
        let spec = TemplateSpec::new(Topology::Omega { stages: 2 });
        let (ty, _) = generate_compound(&spec, &builtin_registry(), "Omega_4").unwrap();
        let ports = ty.concrete_ports(&ParamMap::new());
        assert_eq!(ports.len(), 8);
        assert!(ports.iter().all(|p| (p.name.starts_with("tx") && p.direction == Direction::In)
            || (p.name.starts_with("rx") && p.direction == Direction::Out)));
        let exports = &ty.compound.as_ref().unwrap().exports;
        // Rank 1 = 01 enters on line 10 (s_0_1 in0) and leaves line 01 of the last stage (s_1_0 out1).
        let find = |outer: &str| exports.iter().find(|e| e.outer == outer).unwrap().inner.clone();
        assert_eq!(find("tx1"), PortRef::new("s_0_1", "in0"));
        assert_eq!(find("rx1"), PortRef::new("s_1_0", "out1"));
    }

    #[test]
    fn type_names_must_not_clash_with_components() {
        let spec = TemplateSpec::new(Topology::Ring { nodes: 3 });
        let err = generate_compound(&spec, &builtin_registry(), "Router").unwrap_err();
        assert!(matches!(err, TemplateError::BadTypeName { .. }), "{err}");
        assert!(generate_compound(&spec, &builtin_registry(), " ").is_err());
    }

    #[test]
    fn link_ends_are_ordered_and_corners_follow_them() {
        let spec = TemplateSpec::new(Topology::Torus2D { x: 3, y: 2 });
        let g = generate(&spec, &builtin_registry()).unwrap();
        assert!(g.network.links.iter().all(|l| l.a <= l.b));
        // The x wrap of row 0 runs from r_2_0.p0 to r_0_0.p1; ordered, it starts at r_0_0, so its
        // corners start on r_0_0's side (left of the row, below it).
        let wrap = g
            .network
            .links
            .iter()
            .find(|l| l.a == PortRef::new("r_0_0", "p1") && l.b == PortRef::new("r_2_0", "p0"))
            .unwrap();
        let corners = &g.layout.corners[&wrap.key()];
        assert_eq!(corners.len(), 2);
        assert!(corners[0].x < 0.0 && corners[1].x > g.layout.positions["r_2_0"].x);
        assert!(corners.iter().all(|c| c.y > 0.0));
        assert_eq!(g.network.links[0].latency, spec.link.latency);
    }
}
