//! Links a packet crosses between two processors: breadth-first distances on the flat model's
//! link graph (routes in the built-in topologies are shortest paths), from a sample of senders.

use hase_engine::elaborate::EntityId;
use hase_engine::elaborate::FlatModel;

/// Adjacency lists of the flat model: for each entity, the entities one link away.
pub struct LinkGraph {
    neighbours: Vec<Vec<u32>>,
}

impl LinkGraph {
    /// The graph of `model`'s links (both directions, whatever the link's allowed directions).
    pub fn of(model: &FlatModel) -> Self {
        let mut neighbours = vec![Vec::new(); model.entities.len()];
        for link in &model.links {
            let [a, b] = link.ends;
            if a.entity != b.entity {
                neighbours[a.entity as usize].push(b.entity);
                neighbours[b.entity as usize].push(a.entity);
            }
        }
        LinkGraph { neighbours }
    }

    /// Links from `from` to every entity (`u32::MAX` where unreachable).
    pub fn distances_from(&self, from: EntityId) -> Vec<u32> {
        let mut distance = vec![u32::MAX; self.neighbours.len()];
        let Some(start) = distance.get_mut(from as usize) else {
            return distance;
        };
        *start = 0;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(at) = queue.pop_front() {
            let next = distance[at as usize] + 1;
            for &n in &self.neighbours[at as usize] {
                if distance[n as usize] == u32::MAX {
                    distance[n as usize] = next;
                    queue.push_back(n);
                }
            }
        }
        distance
    }
}
