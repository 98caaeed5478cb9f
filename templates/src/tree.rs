//! Trees with processors at the leaves: the binary tree (`k = 2`, one up link per switch) and the
//! k-ary n-tree fat tree (`k` up links). Both follow the up/down convention of
//! `hase_engine::model::routing`: level `l` holds `k^(n-1-l) · w^l` switches named `s_l{l}_{index}`,
//! with `index = S · w^l + m` for subtree `S` and replica `m`; ports `0..k` go down, `k..k+w` up;
//! rank `r` hangs on down port `r mod k` of leaf switch `r / k`; up port `k + u` of `(l, S, m)` meets
//! down port `S mod k` of `(l+1, S / k, m + u · w^l)`.
//!
//! Drawing: processors in a row at the bottom, levels above them with the root at the top; the
//! replicas of a subtree's switch are spread evenly over that subtree's processors, so a switch of
//! the binary tree sits centred over its children and a fat tree is a rectangle of switches. Levels
//! are further apart where the links between them span far, so a wide tree keeps readable slopes
//! instead of flattening into a band of nearly horizontal lines.

use hase_engine::model::{ParamValue, Pos, Routing};

use crate::plan::{PITCH, Plan, Role};

/// Horizontal distance between processors.
const LEAF: f32 = 80.0;

/// Vertical distance from a level whose subtrees span `span` processors down to the level (or the
/// processors) below it: 1.2 pitches, or a quarter of the width its links fan out over if larger.
fn gap(span: f32) -> f32 {
    (0.25 * span * LEAF).max(1.2 * PITCH)
}

/// A tree of `arity^levels` processors with `up` up links per switch below the top.
pub(crate) fn plan(arity: u32, levels: u32, up: u32, routing: Routing) -> Plan {
    let k = arity as usize;
    let w = up as usize;
    let ranks = k.pow(levels);
    let mut plan = Plan::new(arity + up, routing);
    // first[l] = index in plan.switches of switch (l, 0).
    let mut first = Vec::with_capacity(levels as usize);
    // y of each level, the top one at 0.
    let mut level_y = vec![0.0; levels as usize];
    for level in (0..levels.saturating_sub(1)).rev() {
        let span = (arity as f32).powi(level as i32 + 2);
        level_y[level as usize] = level_y[level as usize + 1] + gap(span);
    }
    for level in 0..levels {
        first.push(plan.switches.len());
        let replicas = w.pow(level);
        let span = k.pow(level + 1);
        let y = level_y[level as usize];
        for index in 0..(ranks / span) * replicas {
            let (subtree, replica) = (index / replicas, index % replicas);
            let centre =
                subtree as f32 * span as f32 + (replica as f32 + 0.5) * span as f32 / replicas as f32;
            plan.switch(
                format!("s_l{level}_{index}"),
                vec![("level", ParamValue::Int(i64::from(level))), ("index", ParamValue::Int(index as i64))],
                Pos::new((centre - 0.5) * LEAF, y),
            );
        }
    }
    let leaf_y = level_y[0] + gap(arity as f32);
    for rank in 0..ranks {
        plan.endpoints.push(Pos::new(rank as f32 * LEAF, leaf_y));
        plan.attach(rank, Role::Net, (first[0] + rank / k, (rank % k) as u16), Vec::new());
    }
    for level in 1..levels as usize {
        let (below, here) = (first[level - 1], first[level]);
        let replicas = w.pow(level as u32 - 1);
        for index in 0..here - below {
            let (subtree, replica) = (index / replicas, index % replicas);
            for u in 0..w {
                let parent = (subtree / k) * replicas * w + replica + u * replicas;
                plan.link((below + index, (k + u) as u16), (here + parent, (subtree % k) as u16), Vec::new());
            }
        }
    }
    plan
}

/// Links from processor `source` to `destination` of a tree of arity `arity`: up to the nearest
/// common ancestor at level `L` (0 = leaf switches) and down again, `2·(L+1)` with the processor links.
pub(crate) fn route_links(arity: u32, source: u32, destination: u32) -> u64 {
    let nca = (0..32)
        .find(|l| arity.checked_pow(l + 1).is_none_or(|span| source / span == destination / span))
        .unwrap_or(0);
    2 * (u64::from(nca) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_tree_of_eight_by_hand() {
        let p = plan(2, 3, 1, Routing::ShortestPath);
        let names: Vec<&str> = p.switches.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["s_l0_0", "s_l0_1", "s_l0_2", "s_l0_3", "s_l1_0", "s_l1_1", "s_l2_0"]);
        // s_l0_3 (index 3) climbs through port 2 to down port 1 of s_l1_1 (index 5).
        assert!(p.switch_links.iter().any(|l| l.a == (3, 2) && l.b == (5, 1)));
        // Parents are centred over their children.
        let x = |i: usize| p.switches[i].pos.x;
        assert!((x(5) - f32::midpoint(x(2), x(3))).abs() < 1e-3);
        assert!((x(6) - f32::midpoint(x(4), x(5))).abs() < 1e-3);
        assert!((x(0) - f32::midpoint(p.endpoints[0].x, p.endpoints[1].x)).abs() < 1e-3);
    }

    #[test]
    fn levels_move_apart_where_links_span_far() {
        let ys = |p: &Plan| {
            let y = |name: &str| p.switches.iter().find(|s| s.name == name).unwrap().pos.y;
            [y("s_l2_0"), y("s_l1_0"), y("s_l0_0"), p.endpoints[0].y]
        };
        let close = |got: [f32; 4], want: [f32; 4]| got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-3);
        // 2-ary 3-tree: every gap is the 1.2-pitch minimum (168), as in the example projects.
        let small = ys(&plan(2, 3, 2, Routing::ShortestPath));
        assert!(close(small, [0.0, 168.0, 336.0, 504.0]), "{small:?}");
        // 4-ary 3-tree: level 1 fans out over 64 processors (a quarter of 64 × 80 = 1280 below the
        // top), level 0 over 16 (320 further), the processors hang 168 below their switches.
        let wide = ys(&plan(4, 3, 4, Routing::ShortestPath));
        assert!(close(wide, [0.0, 1280.0, 1600.0, 1768.0]), "{wide:?}");
    }

    #[test]
    fn a_2_ary_3_tree_by_hand() {
        let p = plan(2, 3, 2, Routing::ShortestPath);
        assert_eq!(p.switches.len(), 12);
        // Leaf s_l0_2 (subtree 2) goes up to level-1 switches of subtree 1: indices 2 and 3.
        let ups: Vec<_> = p.switch_links.iter().filter(|l| l.a.0 == 2).map(|l| (l.a.1, l.b)).collect();
        assert_eq!(ups, [(2, (4 + 2, 0)), (3, (4 + 3, 0))]);
        // Level-1 s_l1_3 (subtree 1, replica 1) goes up to top replicas 1 and 3, down port 1.
        let ups: Vec<_> = p.switch_links.iter().filter(|l| l.a.0 == 7).map(|l| (l.a.1, l.b)).collect();
        assert_eq!(ups, [(2, (8 + 1, 1)), (3, (8 + 3, 1))]);
    }
}
