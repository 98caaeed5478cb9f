//! MPI rank numbering of a flat model: which processor entity is rank `r`, and the reverse.
//!
//! Processors are the entities whose behaviour is `catalogue::PROCESSOR`. A `rank` parameter `≥ 0`
//! is used as given; `-1` (or no `rank` parameter at all) means "number me automatically": such
//! processors take the ranks after the largest explicit one, in entity order. The result must be
//! exactly `0..n` — a rank given twice or a rank nobody has is an error naming the processors.

use hase_engine::elaborate::{EntityId, FlatModel};
use hase_engine::model::ParamValue;

use crate::catalogue::PROCESSOR;

/// Why ranks could not be assigned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RankAssignmentError {
    /// Two processors claim the same rank.
    #[error("rank {rank} is given to both `{first}` and `{second}`")]
    Duplicate {
        /// The rank.
        rank: u32,
        /// Path of the processor first in entity order.
        first: String,
        /// Path of the other processor.
        second: String,
    },
    /// Ranks do not start at 0.
    #[error(
        "rank 0 is unused: the lowest rank is {lowest} (`{path}`); ranks must be numbered 0, 1, 2, … without gaps"
    )]
    NoRankZero {
        /// The lowest rank given.
        lowest: u32,
        /// Its processor.
        path: String,
    },
    /// A rank between two used ranks is missing.
    #[error(
        "rank {missing} is unused: ranks jump from {below} (`{below_path}`) to {above} (`{above_path}`); ranks must be numbered 0, 1, 2, … without gaps"
    )]
    Gap {
        /// The first missing rank.
        missing: u32,
        /// The rank just below the gap.
        below: u32,
        /// Its processor.
        below_path: String,
        /// The rank just above the gap.
        above: u32,
        /// Its processor.
        above_path: String,
    },
    /// The `rank` parameter holds something other than -1 or a non-negative 32-bit integer.
    #[error("`{path}`: parameter `rank` must be -1 (automatic) or a rank from 0 to 4294967295, got {value}")]
    BadValue {
        /// The processor.
        path: String,
        /// The value found, as text.
        value: String,
    },
}

/// The rank numbering: rank → processor entity and entity → rank.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RankMap {
    /// Processor entity of each rank.
    by_rank: Vec<EntityId>,
    /// Rank of each entity (`None` for non-processors), indexed by entity id.
    by_entity: Vec<Option<u32>>,
}

impl RankMap {
    /// Number of ranks.
    pub fn len(&self) -> usize {
        self.by_rank.len()
    }
    /// True if the model has no processors.
    pub fn is_empty(&self) -> bool {
        self.by_rank.is_empty()
    }
    /// The processor entity holding `rank`.
    pub fn processor(&self, rank: u32) -> Option<EntityId> {
        self.by_rank.get(rank as usize).copied()
    }
    /// The rank of `entity`, if it is a processor.
    pub fn rank_of(&self, entity: EntityId) -> Option<u32> {
        self.by_entity.get(entity as usize).copied().flatten()
    }
    /// `(rank, processor)` pairs in rank order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, EntityId)> + '_ {
        self.by_rank.iter().enumerate().map(|(r, e)| (r as u32, *e))
    }
}

/// The explicit rank of a processor, `None` for automatic numbering.
fn explicit_rank(model: &FlatModel, id: EntityId) -> Result<Option<u32>, RankAssignmentError> {
    let e = model.entity(id);
    let bad = |value: String| RankAssignmentError::BadValue { path: e.path.clone(), value };
    match e.params.get("rank") {
        None | Some(ParamValue::Int(-1)) => Ok(None),
        Some(ParamValue::Int(v)) => u32::try_from(*v).map(Some).map_err(|_| bad(v.to_string())),
        Some(other) => Err(bad(other.display())),
    }
}

/// Number the processors of `model`.
pub fn assign_ranks(model: &FlatModel) -> Result<RankMap, RankAssignmentError> {
    let mut explicit: Vec<(u32, EntityId)> = Vec::new();
    let mut automatic: Vec<EntityId> = Vec::new();
    for (i, e) in model.entities.iter().enumerate() {
        if &**e.behaviour() != PROCESSOR {
            continue;
        }
        let id = i as EntityId;
        match explicit_rank(model, id)? {
            Some(r) => explicit.push((r, id)),
            None => automatic.push(id),
        }
    }
    let first_auto = explicit.iter().map(|(r, _)| u64::from(*r) + 1).max().unwrap_or(0);
    let mut all = explicit;
    for (k, id) in automatic.into_iter().enumerate() {
        let rank = first_auto + k as u64;
        let rank = u32::try_from(rank).map_err(|_| RankAssignmentError::BadValue {
            path: model.entity(id).path.clone(),
            value: format!("automatic rank {rank}"),
        })?;
        all.push((rank, id));
    }
    // Sorting by (rank, entity) puts duplicates side by side, the earlier entity first.
    all.sort_unstable();
    let path = |id: EntityId| model.entity(id).path.clone();
    if let Some(w) = all.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(RankAssignmentError::Duplicate {
            rank: w[0].0,
            first: path(w[0].1),
            second: path(w[1].1),
        });
    }
    if let Some(&(lowest, id)) = all.first()
        && lowest != 0
    {
        return Err(RankAssignmentError::NoRankZero { lowest, path: path(id) });
    }
    if let Some(w) = all.windows(2).find(|w| w[1].0 != w[0].0 + 1) {
        return Err(RankAssignmentError::Gap {
            missing: w[0].0 + 1,
            below: w[0].0,
            below_path: path(w[0].1),
            above: w[1].0,
            above_path: path(w[1].1),
        });
    }
    let mut by_entity = vec![None; model.entities.len()];
    for &(rank, id) in &all {
        by_entity[id as usize] = Some(rank);
    }
    Ok(RankMap { by_rank: all.into_iter().map(|(_, id)| id).collect(), by_entity })
}

#[cfg(test)]
mod tests {

    use hase_engine::elaborate::FlatEntity;

    use super::*;

    fn entity(path: &str, behaviour: &str, rank: Option<ParamValue>) -> FlatEntity {
        let mut e = FlatEntity::new(path, behaviour, Vec::<String>::new(), "t", &[]);
        e.set_type_name("T");
        e.params = rank.map(|r| ("rank".to_string(), r)).into_iter().collect();
        e
    }

    fn model(entities: Vec<FlatEntity>) -> FlatModel {
        FlatModel { entities, ..FlatModel::default() }
    }

    fn int(v: i64) -> ParamValue {
        ParamValue::Int(v)
    }

    #[test]
    fn automatic_ranks_follow_the_explicit_ones_in_entity_order() {
        let m = model(vec![
            entity("a", PROCESSOR, Some(int(-1))),
            entity("r", crate::catalogue::ROUTER, None),
            entity("b", PROCESSOR, Some(int(1))),
            entity("c", PROCESSOR, None),
            entity("d", PROCESSOR, Some(int(0))),
        ]);
        let ranks = assign_ranks(&m).unwrap();
        // Explicit: d = 0, b = 1; automatic a and c take 2 and 3, in entity order.
        assert_eq!(ranks.len(), 4);
        assert_eq!(ranks.processor(0), Some(4));
        assert_eq!(ranks.processor(1), Some(2));
        assert_eq!(ranks.processor(2), Some(0));
        assert_eq!(ranks.processor(3), Some(3));
        assert_eq!(ranks.rank_of(1), None, "a router has no rank");
        assert_eq!(ranks.rank_of(3), Some(3));
        assert_eq!(ranks.processor(4), None);
    }

    #[test]
    fn duplicates_name_both_processors() {
        let m = model(vec![
            entity("top/p0", PROCESSOR, Some(int(0))),
            entity("top/p1", PROCESSOR, Some(int(1))),
            entity("top/q", PROCESSOR, Some(int(1))),
        ]);
        let err = assign_ranks(&m).unwrap_err();
        assert_eq!(err.to_string(), "rank 1 is given to both `top/p1` and `top/q`");
    }

    #[test]
    fn gaps_name_the_processors_either_side() {
        let m = model(vec![
            entity("p0", PROCESSOR, Some(int(0))),
            entity("p5", PROCESSOR, Some(int(5))),
            entity("auto", PROCESSOR, Some(int(-1))),
        ]);
        let err = assign_ranks(&m).unwrap_err();
        assert_eq!(
            err,
            RankAssignmentError::Gap {
                missing: 1,
                below: 0,
                below_path: "p0".into(),
                above: 5,
                above_path: "p5".into()
            }
        );
        let m = model(vec![entity("p3", PROCESSOR, Some(int(3)))]);
        assert!(assign_ranks(&m).unwrap_err().to_string().contains("`p3`"));
    }

    #[test]
    fn rejects_ranks_below_minus_one_and_non_integers() {
        let m = model(vec![entity("x/p", PROCESSOR, Some(int(-2)))]);
        assert!(matches!(assign_ranks(&m), Err(RankAssignmentError::BadValue { path, .. }) if path == "x/p"));
        let m = model(vec![entity("y", PROCESSOR, Some(ParamValue::Text("3".into())))]);
        assert!(matches!(assign_ranks(&m), Err(RankAssignmentError::BadValue { .. })));
    }

    #[test]
    fn no_processors_is_an_empty_map() {
        let ranks = assign_ranks(&model(vec![entity("r", "router", None)])).unwrap();
        assert!(ranks.is_empty());
        assert_eq!(ranks.iter().count(), 0);
    }
}
