//! Slotting components into a template: check that the chosen switch type offers enough ports of
//! the right direction and link type (setting its `radix` when it has one) and the parameters the
//! routing rule reads, and that the processor type offers `net` (or `tx`/`rx`) and `rank`. Every
//! refusal names the component and the port or parameter.

use std::collections::BTreeMap;

use hase_engine::model::{ConcretePort, Direction, EntityType, ParamMap, ParamValue, TypeRegistry};
use hase_entities::message::PACKET_LINK;

use crate::error::TemplateError;
use crate::plan::{Plan, PortNeed, Role};
use crate::spec::TemplateSpec;
use crate::topology::Topology;

/// A switch type checked against a plan.
#[derive(Debug)]
pub(crate) struct SwitchSlot<'a> {
    /// The type.
    pub ty: &'a EntityType,
    /// Overrides every switch instance starts from (the spec's, plus `radix`).
    pub overrides: ParamMap,
    /// Names of the port positions the plan links.
    pub ports: Vec<String>,
    /// Positions of ports that must be connected.
    pub required: Vec<usize>,
}

/// A processor type checked against the roles a topology uses.
#[derive(Debug)]
pub(crate) struct EndpointSlot<'a> {
    /// The type.
    pub ty: &'a EntityType,
    /// Names of other ports that must be connected (the template cannot connect them).
    pub required_elsewhere: Vec<String>,
}

fn need_word(need: PortNeed) -> &'static str {
    match need {
        PortNeed::InOut => "inout",
        PortNeed::Receive => "in",
        PortNeed::Send => "out",
    }
}

fn fits(port: &ConcretePort, need: PortNeed) -> bool {
    let direction = match need {
        PortNeed::InOut => port.direction == Direction::InOut,
        PortNeed::Receive => port.direction.receives(),
        PortNeed::Send => port.direction.sends(),
    };
    direction && port.link_type == PACKET_LINK
}

fn wrong_port(component: &str, port: &ConcretePort, need: PortNeed, template: &'static str) -> TemplateError {
    TemplateError::WrongPort {
        component: component.into(),
        port: port.name.clone(),
        found: format!("{}, {}", port.direction.word(), port.link_type),
        direction: need_word(need),
        link_type: PACKET_LINK,
        template,
    }
}

/// Check overrides against the type's parameter definitions.
fn check_overrides(
    ty: &EntityType,
    overrides: &BTreeMap<String, ParamValue>,
    template: &'static str,
) -> Result<(), TemplateError> {
    for (name, value) in overrides {
        let reason = match ty.param(name) {
            None => "the type has no such parameter".to_string(),
            Some(def) => match def.kind.check(value) {
                Ok(()) => continue,
                Err(e) => e.to_string(),
            },
        };
        return Err(TemplateError::BadParam {
            component: ty.name.clone(),
            param: name.clone(),
            reason,
            template,
        });
    }
    Ok(())
}

/// Check that `ty` declares `param`, which the template sets on every instance.
pub(crate) fn require_param(
    ty: &EntityType,
    param: &'static str,
    value: &ParamValue,
    template: &'static str,
) -> Result<(), TemplateError> {
    if ty.param(param).is_some() {
        return Ok(());
    }
    Err(TemplateError::MissingParam {
        component: ty.name.clone(),
        param,
        kind: match value {
            ParamValue::IntArray(_) => "integer list",
            _ => "integer",
        },
        template,
    })
}

/// Check a value the template sets against the type's definition of that parameter.
pub(crate) fn check_value(
    ty: &EntityType,
    param: &str,
    value: &ParamValue,
    template: &'static str,
) -> Result<(), TemplateError> {
    match ty.param(param).map(|def| def.kind.check(value)) {
        Some(Err(e)) => Err(TemplateError::BadParam {
            component: ty.name.clone(),
            param: param.into(),
            reason: format!("cannot take {}: {e}", value.display()),
            template,
        }),
        _ => Ok(()),
    }
}

/// Slot the spec's switch type into the topology's switch positions.
pub(crate) fn switch<'a>(
    spec: &TemplateSpec,
    registry: &'a TypeRegistry,
) -> Result<SwitchSlot<'a>, TemplateError> {
    let template = spec.topology.name();
    let ty = registry.get(&spec.switch_type).ok_or_else(|| TemplateError::UnknownComponent {
        component: spec.switch_type.clone(),
        role: "switch",
        template,
    })?;
    check_overrides(ty, &spec.switch_params, template)?;
    let (needs, params) = spec.topology.switch_interface();
    for (param, value) in &params {
        require_param(ty, param, value, template)?;
    }
    let need = needs.len();
    let mut overrides = ParamMap::from(spec.switch_params.clone());
    if ty.param("radix").is_some() {
        let radix = ParamValue::Int(need as i64);
        check_value(ty, "radix", &radix, template)?;
        overrides.insert("radix".into(), radix);
    }
    let concrete = ty.concrete_ports(&overrides);
    if concrete.len() < need {
        return Err(TemplateError::TooFewPorts {
            component: ty.name.clone(),
            have: concrete.len(),
            need,
            link_type: PACKET_LINK,
            template,
        });
    }
    for (port, need) in concrete.iter().zip(&needs) {
        if !fits(port, *need) {
            return Err(wrong_port(&ty.name, port, *need, template));
        }
    }
    Ok(SwitchSlot {
        ty,
        ports: concrete.iter().take(need).map(|p| p.name.clone()).collect(),
        required: (0..concrete.len()).filter(|i| !concrete[*i].optional).collect(),
        overrides,
    })
}

/// Slot the spec's processor type, which must offer the ports of `roles` and a `rank` parameter.
pub(crate) fn endpoint<'a>(
    spec: &TemplateSpec,
    registry: &'a TypeRegistry,
    roles: &[Role],
) -> Result<EndpointSlot<'a>, TemplateError> {
    let template = spec.topology.name();
    let ty = registry.get(&spec.endpoint_type).ok_or_else(|| TemplateError::UnknownComponent {
        component: spec.endpoint_type.clone(),
        role: "processor",
        template,
    })?;
    check_overrides(ty, &spec.endpoint_params, template)?;
    require_param(ty, "rank", &ParamValue::Int(0), template)?;
    let concrete = ty.concrete_ports(&ParamMap::from(spec.endpoint_params.clone()));
    for role in roles {
        let need = match role {
            Role::Net => PortNeed::InOut,
            Role::Tx => PortNeed::Send,
            Role::Rx => PortNeed::Receive,
        };
        let Some(port) = concrete.iter().find(|p| p.name == role.port()) else {
            return Err(TemplateError::MissingPort {
                component: ty.name.clone(),
                port: role.port().into(),
                direction: need_word(need),
                link_type: PACKET_LINK,
                template,
            });
        };
        if !fits(port, need) {
            return Err(wrong_port(&ty.name, port, need, template));
        }
    }
    let required_elsewhere = concrete
        .iter()
        .filter(|p| !p.optional && !roles.iter().any(|r| r.port() == p.name))
        .map(|p| p.name.clone())
        .collect();
    Ok(EndpointSlot { ty, required_elsewhere })
}

/// The types of a registry that fit a topology's positions, for the template dialog's choices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Compatible {
    /// Types that can fill the switch positions.
    pub switches: Vec<String>,
    /// Types that can fill the processor positions.
    pub endpoints: Vec<String>,
}

/// Which types of `registry` can be slotted into `topology` (checked as [`crate::generate`] does,
/// except for required ports a particular size would leave free), in name order.
pub fn compatible_components(topology: &Topology, registry: &TypeRegistry) -> Compatible {
    let mut found = Compatible::default();
    let roles = topology.endpoint_roles();
    for ty in registry.iter() {
        let mut spec = TemplateSpec::new(topology.clone());
        spec.switch_type.clone_from(&ty.name);
        spec.endpoint_type.clone_from(&ty.name);
        if switch(&spec, registry).is_ok() {
            found.switches.push(ty.name.clone());
        }
        if endpoint(&spec, registry, roles).is_ok() {
            found.endpoints.push(ty.name.clone());
        }
    }
    found
}

/// The first switch that leaves a required port of its type unconnected, as an error.
pub(crate) fn check_required(
    plan: &Plan,
    slot: &SwitchSlot<'_>,
    template: &'static str,
) -> Result<(), TemplateError> {
    if slot.required.is_empty() {
        return Ok(());
    }
    let mut used = vec![Vec::new(); plan.switches.len()];
    for l in &plan.switch_links {
        used[l.a.0].push(usize::from(l.a.1));
        used[l.b.0].push(usize::from(l.b.1));
    }
    for l in &plan.endpoint_links {
        used[l.switch.0].push(usize::from(l.switch.1));
    }
    for (node, used) in plan.switches.iter().zip(&used) {
        if let Some(free) = slot.required.iter().find(|p| !used.contains(p)) {
            let concrete = slot.ty.concrete_ports(&slot.overrides);
            return Err(TemplateError::UnusedRequiredPort {
                component: slot.ty.name.clone(),
                port: concrete[*free].name.clone(),
                instance: node.name.clone(),
                template,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use hase_engine::model::{PortCount, PortDef};
    use hase_entities::catalogue::{builtin_registry, processor_type, router_type};

    use crate::checks::{check_routes, elaborate_checked};
    use crate::{ProjectForm, TemplateSpec, Topology, generate, template_project};

    use super::*;

    /// A router type without `radix`: `count` ports called `x0..`, optional or not, with or
    /// without the `coord` parameter.
    fn fixed_router(name: &str, count: u32, optional: bool, coord: bool) -> EntityType {
        let mut t = router_type();
        t.name = name.into();
        t.params.retain(|p| p.name != "radix" && (coord || p.name != "coord"));
        let mut port = PortDef::new("x", Direction::InOut, PACKET_LINK);
        port.count = PortCount::Fixed(count);
        port.optional = optional;
        t.ports = vec![port];
        t
    }

    fn registry_with(types: Vec<EntityType>) -> TypeRegistry {
        let mut r = builtin_registry();
        for t in types {
            r.insert(t);
        }
        r
    }

    fn error(t: Topology, switch: &str, endpoint: &str, registry: &TypeRegistry) -> String {
        let mut spec = TemplateSpec::new(t);
        spec.switch_type = switch.into();
        spec.endpoint_type = endpoint.into();
        generate(&spec, registry).unwrap_err().to_string()
    }

    #[test]
    fn incompatible_components_are_refused_with_the_port_named() {
        let r = builtin_registry();
        let mesh = Topology::Mesh2D { x: 3, y: 3 };
        assert_eq!(
            error(mesh.clone(), "Router", "ProcessorTxRx", &r),
            "component ProcessorTxRx has no port `net` (inout, packet) required by template mesh2d"
        );
        assert_eq!(
            error(Topology::Omega { stages: 2 }, "Switch2x2", "Processor", &r),
            "component Processor has no port `tx` (out, packet) required by template omega"
        );
        assert_eq!(
            error(mesh.clone(), "Switch2x2", "Processor", &r),
            "component Switch2x2 has 4 ports but template mesh2d needs 5 switch ports (packet)"
        );
        assert_eq!(
            error(Topology::Ring { nodes: 4 }, "Switch2x2", "Processor", &r),
            "component Switch2x2 port `in0` is (in, packet) but template ring needs (inout, packet)"
        );
        assert_eq!(
            error(Topology::FatTree { arity: 2100, levels: 1 }, "Router", "Processor", &r),
            "component Router parameter `radix`: cannot take 4200: 4200 is out of range [1, 4096] (template fat_tree)"
        );
        assert_eq!(
            error(mesh.clone(), "Crossbar", "Processor", &r),
            "unknown component `Crossbar` for the switch positions of template mesh2d"
        );
        let mut half_duplex = processor_type();
        half_duplex.name = "Listener".into();
        half_duplex.ports = vec![PortDef::new("net", Direction::In, PACKET_LINK)];
        let plain = fixed_router("Plain", 5, true, false);
        let r = registry_with(vec![half_duplex, plain]);
        assert_eq!(
            error(mesh.clone(), "Router", "Listener", &r),
            "component Listener port `net` is (in, packet) but template mesh2d needs (inout, packet)"
        );
        assert_eq!(
            error(Topology::Torus2D { x: 3, y: 3 }, "Plain", "Processor", &r),
            "component Plain has no parameter `coord` (integer list) required by template torus2d"
        );
    }

    #[test]
    fn compatible_components_are_listed_per_topology() {
        let r = registry_with(vec![fixed_router("Fixed5", 5, true, true)]);
        let mesh = compatible_components(&Topology::Mesh2D { x: 4, y: 4 }, &r);
        assert_eq!(mesh.switches, ["Fixed5", "Router"]);
        assert_eq!(mesh.endpoints, ["Processor"]);
        let cube = compatible_components(&Topology::Hypercube { dimensions: 5 }, &r);
        assert_eq!(cube.switches, ["Router"], "Fixed5 has 5 ports, a 5-cube needs 6");
        let omega = compatible_components(&Topology::Omega { stages: 3 }, &r);
        assert_eq!(omega.switches, ["Fixed5", "Router", "Switch2x2"], "inout ports serve as in and out");
        assert_eq!(omega.endpoints, ["ProcessorTxRx"]);
    }

    #[test]
    fn overrides_are_checked_against_the_component() {
        let r = builtin_registry();
        let mut spec = TemplateSpec::new(Topology::Ring { nodes: 4 });
        spec.switch_params.insert("bogus".into(), ParamValue::Int(1));
        let err = generate(&spec, &r).unwrap_err().to_string();
        assert_eq!(err, "component Router parameter `bogus`: the type has no such parameter (template ring)");
        let mut spec = TemplateSpec::new(Topology::Ring { nodes: 4 });
        spec.endpoint_params.insert("eager_limit".into(), ParamValue::Int(-5));
        let err = generate(&spec, &r).unwrap_err().to_string();
        assert!(err.starts_with("component Processor parameter `eager_limit`"), "{err}");
        // Valid overrides reach every instance; the template's own parameters win.
        let mut spec = TemplateSpec::new(Topology::Ring { nodes: 4 });
        spec.switch_params.insert("buffer_packets".into(), ParamValue::Int(8));
        spec.switch_params.insert("radix".into(), ParamValue::Int(9));
        spec.endpoint_params.insert("rank".into(), ParamValue::Int(7));
        let g = generate(&spec, &r).unwrap();
        let r0 = &g.network.instances["r_0"];
        assert_eq!(r0.params["buffer_packets"], ParamValue::Int(8));
        assert_eq!(r0.params["radix"], ParamValue::Int(3));
        assert_eq!(g.network.instances["p2"].params["rank"], ParamValue::Int(2));
    }

    #[test]
    fn required_ports_left_free_are_named() {
        let strict = fixed_router("Strict", 5, false, true);
        let r = registry_with(vec![strict]);
        assert_eq!(
            error(Topology::Mesh2D { x: 3, y: 3 }, "Strict", "Processor", &r),
            "component Strict requires port `x1` to be connected, but template mesh2d leaves `r_0_0.x1` free"
        );
        // On a torus every port is used, so the same component fits.
        let mut spec = TemplateSpec::new(Topology::Torus2D { x: 3, y: 3 });
        spec.switch_type = "Strict".into();
        assert!(generate(&spec, &r).is_ok());
    }

    #[test]
    fn any_compatible_component_slots_in() {
        // A router without `radix` but with exactly enough ports, in a mesh.
        let r = registry_with(vec![fixed_router("Fixed5", 5, true, true)]);
        let t = Topology::Mesh2D { x: 3, y: 2 };
        let mut spec = TemplateSpec::new(t.clone());
        spec.switch_type = "Fixed5".into();
        let project = template_project(&spec, &r, "fixed", &ProjectForm::Flat).unwrap();
        assert!(!project.network.instances["r_1_1"].params.contains_key("radix"));
        check_routes(&t, &elaborate_checked(&project, &r));
        // Bidirectional `Router`s (radix 4) in the omega network's 2×2 positions.
        let t = Topology::Omega { stages: 3 };
        let mut spec = TemplateSpec::new(t.clone());
        spec.switch_type = "Router".into();
        let project = template_project(&spec, &r, "omega", &ProjectForm::Flat).unwrap();
        assert_eq!(project.network.instances["s_2_3"].params["radix"], ParamValue::Int(4));
        check_routes(&t, &elaborate_checked(&project, &r));
    }
}
