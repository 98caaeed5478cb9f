//! Renaming instances of a project's top-level network (processors after their SimGrid hosts):
//! instances, link ends (kept in key order, corners turned with them), positions and displays.

use std::collections::BTreeMap;

use hase_engine::model::{Link, Project};

/// Rename every instance `from` to `map[from]` (names not in the map stay).
pub(super) fn rename_instances(project: &mut Project, map: &BTreeMap<String, String>) {
    let net = &mut project.network;
    let layout = &mut project.layout.top;
    let renamed = |name: &str| map.get(name).cloned().unwrap_or_else(|| name.to_string());
    net.instances = std::mem::take(&mut net.instances).into_iter().map(|(k, v)| (renamed(&k), v)).collect();
    layout.positions =
        std::mem::take(&mut layout.positions).into_iter().map(|(k, v)| (renamed(&k), v)).collect();
    layout.displayed =
        std::mem::take(&mut layout.displayed).into_iter().map(|(k, v)| (renamed(&k), v)).collect();
    let mut corners = BTreeMap::new();
    for link in &mut net.links {
        let old_key = link.key();
        let mut new = Link::new(link.a.clone(), link.b.clone(), link.latency, link.bandwidth_bytes_per_s);
        new.a.instance = renamed(&link.a.instance);
        new.b.instance = renamed(&link.b.instance);
        // Corners run from the first end of the key to the second: turn them if the order flips.
        let flipped = (link.a <= link.b) != (new.a <= new.b);
        if new.b < new.a {
            std::mem::swap(&mut new.a, &mut new.b);
        }
        if let Some(mut points) = layout.corners.remove(&old_key) {
            if flipped {
                points.reverse();
            }
            corners.insert(new.key(), points);
        }
        *link = new;
    }
    layout.corners = corners;
}

#[cfg(test)]
mod tests {
    use hase_engine::model::{Instance, PortRef, Pos};

    use super::*;

    #[test]
    fn links_positions_and_corners_follow_the_names() {
        let mut p = Project::new("r");
        for n in ["p0", "s0"] {
            p.network.instances.insert(n.into(), Instance::of("X"));
            p.layout.top.positions.insert(n.into(), Pos::new(0.0, 0.0));
        }
        let link =
            Link::new(PortRef::new("p0", "net"), PortRef::new("s0", "p0"), hase_engine::SimTime::ZERO, 0);
        p.layout.top.corners.insert(link.key(), vec![Pos::new(1.0, 0.0), Pos::new(2.0, 0.0)]);
        p.network.links.push(link);
        rename_instances(&mut p, &BTreeMap::from([("p0".to_string(), "zeta".to_string())]));
        assert!(p.network.instances.contains_key("zeta") && p.layout.top.positions.contains_key("zeta"));
        let l = &p.network.links[0];
        assert_eq!((l.a.instance.as_str(), l.b.instance.as_str()), ("s0", "zeta"));
        assert_eq!(p.layout.top.corners[&l.key()], vec![Pos::new(2.0, 0.0), Pos::new(1.0, 0.0)]);
    }
}
