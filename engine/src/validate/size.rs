//! How many simulated entities a project elaborates into, computed from the hierarchy without
//! building it (each compound type counted once), so that a design which would flatten into more
//! than [`MAX_ENTITIES`](crate::limits::MAX_ENTITIES) entities — ten levels of ten compounds nest
//! into ten billion — is refused by validation instead of exhausting memory in elaboration.

use std::collections::BTreeMap;

use crate::limits::MAX_NESTING_DEPTH;
use crate::model::{AbstractionLevel, Network, TypeRegistry};

/// Flat entities of `net` (saturating). Unknown types count as none (validation reports them);
/// nesting beyond [`MAX_NESTING_DEPTH`] (a cycle, or a chain validation refuses) counts as `u64::MAX`.
pub fn flat_entity_count(net: &Network, registry: &TypeRegistry) -> u64 {
    let mut memo = BTreeMap::new();
    count_network(net, registry, &mut memo, 0)
}

fn count_network(
    net: &Network,
    registry: &TypeRegistry,
    memo: &mut BTreeMap<String, u64>,
    depth: usize,
) -> u64 {
    if depth > MAX_NESTING_DEPTH {
        return u64::MAX;
    }
    let mut total = 0_u64;
    for inst in net.instances.values() {
        let Some(ty) = registry.get(&inst.type_name) else { continue };
        let detailed =
            ty.compound.is_some() && (inst.level == AbstractionLevel::Detailed || ty.behaviour.is_none());
        let n = match (&ty.compound, detailed) {
            (Some(compound), true) => {
                if let Some(n) = memo.get(&ty.name) {
                    *n
                } else {
                    let n = count_network(&compound.network, registry, memo, depth + 1);
                    memo.insert(ty.name.clone(), n);
                    n
                }
            }
            _ => 1,
        };
        total = total.saturating_add(n);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CompoundDef, EntityType, Instance};

    /// A type made of `fan_out` instances of `inner`.
    fn compound(name: &str, inner: &str, fan_out: usize) -> EntityType {
        let mut network = Network::default();
        for i in 0..fan_out {
            network.instances.insert(format!("i{i}"), Instance::of(inner));
        }
        EntityType {
            compound: Some(CompoundDef { network, exports: vec![] }),
            behaviour: None,
            ..EntityType::leaf(name, "Test", "b")
        }
    }

    #[test]
    fn counts_nested_compounds_without_building_them() {
        let mut registry = TypeRegistry::new([]);
        registry.insert(EntityType::leaf("L0", "Test", "b"));
        for level in 1..=12 {
            registry.insert(compound(&format!("L{level}"), &format!("L{}", level - 1), 10));
        }
        let mut top = Network::default();
        top.instances.insert("root".into(), Instance::of("L12"));
        assert_eq!(flat_entity_count(&top, &registry), 10_u64.pow(12));
        top.instances.insert("leaf".into(), Instance::of("L0"));
        assert_eq!(flat_entity_count(&top, &registry), 10_u64.pow(12) + 1);
    }

    #[test]
    fn a_cycle_counts_as_unbounded() {
        let mut registry = TypeRegistry::new([]);
        registry.insert(compound("A", "B", 1));
        registry.insert(compound("B", "A", 1));
        let mut top = Network::default();
        top.instances.insert("a".into(), Instance::of("A"));
        assert_eq!(flat_entity_count(&top, &registry), u64::MAX);
    }
}
