//! Lookups that keep validation and elaboration linear in the size of a network: instance names
//! to positions ([`InstanceIndex`], one hash probe per link end instead of a walk down a
//! string-keyed tree), and the concrete ports of an instance computed once per type and array
//! sizes and shared by every instance alike ([`PortLists`]) — a million-router torus has one port
//! list, not a million.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::network::Network;
use super::params::ParamMap;
use super::types::{ConcretePort, EntityType, PortCountError};

/// Position of each instance of a network in its name order (the order of
/// [`Network::instances`]).
#[derive(Debug, Default)]
pub struct InstanceIndex<'n> {
    #[allow(
        clippy::disallowed_types,
        reason = "a lookup table that is never iterated, so its order cannot reach any output"
    )]
    positions: std::collections::HashMap<&'n str, u32>,
}

impl<'n> InstanceIndex<'n> {
    /// Index the instances of `net`.
    #[allow(
        clippy::disallowed_types,
        reason = "a lookup table that is never iterated, so its order cannot reach any output"
    )]
    pub fn new(net: &'n Network) -> Self {
        let mut positions = std::collections::HashMap::with_capacity(net.instances.len());
        for (i, name) in net.instances.keys().enumerate() {
            positions.insert(name.as_str(), i as u32);
        }
        InstanceIndex { positions }
    }

    /// Position of the instance called `name`.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.positions.get(name).map(|&i| i as usize)
    }
}

/// Port lists shared between instances of one type whose port arrays have the same sizes. `T` is
/// what the caller keeps per list (validation keeps the [`ConcretePort`]s, elaboration its own
/// shape of them).
#[derive(Debug)]
pub struct PortLists<'r, T> {
    by_type: BTreeMap<&'r str, BTreeMap<Vec<u64>, T>>,
    sizes: Vec<u64>,
}

impl<T> Default for PortLists<'_, T> {
    fn default() -> Self {
        PortLists { by_type: BTreeMap::new(), sizes: Vec::new() }
    }
}

impl<'r, T: Clone> PortLists<'r, T> {
    /// The ports of an instance of `ty` with these parameter overrides, built with `make` from
    /// [`EntityType::concrete_ports`] the first time these array sizes are seen for this type.
    /// Fails as [`EntityType::check_port_counts`] does.
    pub fn get(
        &mut self,
        ty: &'r EntityType,
        overrides: &ParamMap,
        make: impl FnOnce(Vec<ConcretePort>) -> T,
    ) -> Result<T, PortCountError> {
        ty.port_counts(overrides, &mut self.sizes)?;
        let lists = self.by_type.entry(ty.name.as_str()).or_default();
        if let Some(list) = lists.get(self.sizes.as_slice()) {
            return Ok(list.clone());
        }
        let list = make(ty.concrete_ports(overrides));
        lists.insert(self.sizes.clone(), list.clone());
        Ok(list)
    }
}

/// The concrete ports shared by all instances with the same type and array sizes.
pub type SharedPorts = Arc<[ConcretePort]>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Direction, Instance, ParamDef, ParamKind, ParamValue, PortDef};

    fn router() -> EntityType {
        let mut ty = EntityType::leaf("R", "Test", "router");
        ty.params.push(ParamDef::new(
            "radix",
            ParamKind::Int { min: Some(1), max: Some(8) },
            ParamValue::Int(4),
        ));
        ty.ports.push(PortDef::new("p", Direction::InOut, "net").array_by("radix"));
        ty
    }

    #[test]
    fn instances_alike_share_one_list_and_other_sizes_get_their_own() {
        let ty = router();
        let mut lists: PortLists<SharedPorts> = PortLists::default();
        let mut built = 0;
        let mut get = |overrides: &ParamMap| {
            lists
                .get(&ty, overrides, |ports| {
                    built += 1;
                    ports.into()
                })
                .unwrap()
        };
        let four = get(&ParamMap::new());
        let again = get(&ParamMap::new());
        let six = get(&[("radix".to_string(), ParamValue::Int(6))].into());
        assert!(Arc::ptr_eq(&four, &again));
        assert_eq!(four.len(), 4);
        assert_eq!(six.len(), 6);
        assert_eq!(six[5].name, "p5");
        assert_eq!(built, 2);
    }

    #[test]
    fn sizes_out_of_range_fail_as_check_port_counts_does() {
        let ty = router();
        let mut lists: PortLists<SharedPorts> = PortLists::default();
        let overrides: ParamMap = [("radix".to_string(), ParamValue::Int(1 << 40))].into();
        let err = lists.get(&ty, &overrides, Into::into).unwrap_err();
        assert_eq!(Err(err), ty.check_port_counts(&overrides));
    }

    #[test]
    fn the_index_finds_every_instance_at_its_position_in_name_order() {
        let mut net = Network::default();
        for name in ["b", "a", "c10", "c2"] {
            net.instances.insert(name.into(), Instance::of("R"));
        }
        let index = InstanceIndex::new(&net);
        for (i, name) in net.instances.keys().enumerate() {
            assert_eq!(index.position(name), Some(i));
        }
        assert_eq!(index.position("d"), None);
    }
}
