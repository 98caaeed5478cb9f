//! Which routes of an explicit platform are longer than a shortest path between their ends, found
//! with few graph searches: routes are grouped by an end they share (the end shared by most routes
//! first), and one breadth-first search from that end answers its whole group, stopping once every
//! other end of the group is reached or no shorter path is left to find. A star's routes to its
//! centre take one search; a Full routing of `n` hosts at most `n`.

use std::collections::BTreeMap;

/// A route between points `from` and `to` (either order: links carry both directions) crossing
/// `links` links.
#[derive(Clone, Copy, Debug)]
pub(super) struct RouteEnds {
    pub from: usize,
    pub to: usize,
    pub links: usize,
}

/// For each route, the links on a shortest path between its ends if that is fewer than the route's
/// own, else `None`. `neighbours[p]` are the points one link from point `p`.
pub(super) fn shorter_paths(neighbours: &[Vec<usize>], routes: &[RouteEnds]) -> Vec<Option<usize>> {
    let mut by_end: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (r, route) in routes.iter().enumerate() {
        by_end.entry(route.from).or_default().push(r);
        if route.to != route.from {
            by_end.entry(route.to).or_default().push(r);
        }
    }
    let mut ends: Vec<(usize, usize)> = by_end.iter().map(|(end, rs)| (*end, rs.len())).collect();
    ends.sort_by_key(|(end, count)| (std::cmp::Reverse(*count), *end));
    let mut answered = vec![false; routes.len()];
    let mut shorter = vec![None; routes.len()];
    let mut search = Search::new(neighbours.len());
    for (end, _) in ends {
        let group: Vec<usize> = by_end[&end].iter().copied().filter(|r| !answered[*r]).collect();
        let Some(deepest) = group.iter().map(|r| routes[*r].links.saturating_sub(1)).max() else {
            continue;
        };
        let other = |r: usize| if routes[r].from == end { routes[r].to } else { routes[r].from };
        search.run(neighbours, end, deepest, group.iter().map(|r| other(*r)));
        for r in group {
            answered[r] = true;
            shorter[r] = search.distance(other(r)).filter(|d| *d < routes[r].links);
        }
    }
    shorter
}

/// A breadth-first search whose buffers are reused from one start to the next.
struct Search {
    /// Links from the start to each point reached, `usize::MAX` elsewhere.
    distance: Vec<usize>,
    reached: Vec<usize>,
}

impl Search {
    fn new(points: usize) -> Self {
        Self { distance: vec![usize::MAX; points], reached: Vec::new() }
    }

    /// Distances from `start`, up to `depth` links, until every point of `targets` is reached.
    fn run(
        &mut self,
        neighbours: &[Vec<usize>],
        start: usize,
        depth: usize,
        targets: impl Iterator<Item = usize>,
    ) {
        for p in self.reached.drain(..) {
            self.distance[p] = usize::MAX;
        }
        let mut waiting: std::collections::BTreeSet<usize> = targets.collect();
        self.distance[start] = 0;
        self.reached.push(start);
        let mut next = 0;
        while next < self.reached.len() && !waiting.is_empty() {
            let x = self.reached[next];
            next += 1;
            waiting.remove(&x);
            let d = self.distance[x];
            if d >= depth {
                continue;
            }
            for &y in &neighbours[x] {
                if self.distance[y] == usize::MAX {
                    self.distance[y] = d + 1;
                    self.reached.push(y);
                }
            }
        }
    }

    fn distance(&self, point: usize) -> Option<usize> {
        Some(self.distance[point]).filter(|d| *d != usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64;

    use super::*;

    /// Links on a shortest path from `s` to `d`, one whole search.
    fn hops(neighbours: &[Vec<usize>], s: usize, d: usize) -> Option<usize> {
        let mut distance = vec![usize::MAX; neighbours.len()];
        distance[s] = 0;
        let mut queue = std::collections::VecDeque::from([s]);
        while let Some(x) = queue.pop_front() {
            for &y in &neighbours[x] {
                if distance[y] == usize::MAX {
                    distance[y] = distance[x] + 1;
                    queue.push_back(y);
                }
            }
        }
        Some(distance[d]).filter(|h| *h != usize::MAX)
    }

    #[test]
    fn grouped_bounded_searches_find_what_one_search_per_route_finds() {
        let mut rng = Pcg64::seed_from_u64(32);
        for graph in 0..200 {
            let points = rng.random_range(1..40);
            let mut neighbours = vec![Vec::new(); points];
            for _ in 0..rng.random_range(0..2 * points) {
                let (a, b) = (rng.random_range(0..points), rng.random_range(0..points));
                neighbours[a].push(b);
                neighbours[b].push(a);
            }
            let routes: Vec<RouteEnds> = (0..rng.random_range(1..60))
                .map(|_| RouteEnds {
                    from: rng.random_range(0..points),
                    to: rng.random_range(0..points),
                    links: rng.random_range(1..8),
                })
                .collect();
            let found = shorter_paths(&neighbours, &routes);
            for (route, found) in routes.iter().zip(found) {
                let expected = hops(&neighbours, route.from, route.to).filter(|h| *h < route.links);
                assert_eq!(found, expected, "graph {graph}: {route:?}");
            }
        }
    }
}
