//! Where trace things appear on the canvas. The canvas shows one network (the top level or an
//! opened compound); a trace entity whose path is that network's prefix plus a node name is that
//! node, one deeper inside a closed compound node is summarised on it, anything else is off
//! screen. A trace link maps to the canvas link joining the two nodes (matched by port name when
//! both ends are plain nodes); links inside one node map to nothing.

use crate::ui::canvas::geometry::CanvasScene;
use hase_editor::replay::Replay;

/// Trace-to-canvas correspondence for one scene and one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SceneMap {
    /// Canvas node of each trace entity.
    pub node_of_entity: Vec<Option<usize>>,
    /// True if the entity is the node itself (not inside it).
    pub direct: Vec<bool>,
    /// Trace entities shown by each canvas node.
    pub entities_of_node: Vec<Vec<u32>>,
    /// Canvas link of each trace link.
    pub link_of_trace_link: Vec<Option<usize>>,
    /// Trace links drawn as each canvas link.
    pub trace_links_of_link: Vec<Vec<u32>>,
    /// Where each entity's ports start in `link_of_port` (one more entry than entities).
    port_base: Vec<u32>,
    /// The canvas link leaving each (entity, port), and whether it leaves from the link's `a`
    /// end: what [`SceneMap::flight_link`] answers for every message on the wire, looked up by
    /// index instead of searching the replay's port map.
    link_of_port: Vec<Option<(u32, bool)>>,
    /// Which build of the cache this is (0 outside a cache): what is worked out from the map
    /// can be kept while it stays.
    pub build: u64,
}

/// The path prefix of a network opened through `instances` (`["net0"]` → `net0/`).
pub fn prefix_of(instances: &[String]) -> String {
    instances.iter().fold(String::new(), |mut out, i| {
        out.push_str(i);
        out.push('/');
        out
    })
}

impl SceneMap {
    /// Map `replay` onto `scene`, the network at `prefix`.
    pub fn build(replay: &Replay, scene: &CanvasScene, prefix: &str) -> SceneMap {
        let entities = &replay.header.entities;
        let mut map = SceneMap {
            node_of_entity: vec![None; entities.len()],
            direct: vec![false; entities.len()],
            entities_of_node: vec![Vec::new(); scene.nodes.len()],
            link_of_trace_link: vec![None; replay.header.links.len()],
            trace_links_of_link: vec![Vec::new(); scene.links.len()],
            port_base: Vec::with_capacity(entities.len() + 1),
            link_of_port: Vec::new(),
            build: 0,
        };
        for (e, info) in entities.iter().enumerate() {
            let Some(rest) = info.path.strip_prefix(prefix) else { continue };
            let first = rest.split('/').next().unwrap_or(rest);
            if let Some(&node) = scene.by_name.get(first) {
                map.node_of_entity[e] = Some(node);
                map.direct[e] = first.len() == rest.len();
                map.entities_of_node[node].push(e as u32);
            }
        }
        for (l, link) in replay.header.links.iter().enumerate() {
            let ends = [link.a, link.b];
            let nodes = ends.map(|(e, _)| map.node_of_entity.get(e as usize).copied().flatten());
            let (Some(na), Some(nb)) = (nodes[0], nodes[1]) else { continue };
            if na == nb {
                continue;
            }
            let port_name = |(e, p): (u32, u16)| {
                entities.get(e as usize).and_then(|i| i.ports.get(usize::from(p))).map(String::as_str)
            };
            // A plain node's port names its canvas link directly.
            let by_port = ends.iter().zip(nodes).find_map(|(&end, node)| {
                if !map.direct[end.0 as usize] {
                    return None;
                }
                let name = port_name(end)?;
                let n = node?;
                let port = scene.nodes[n].ports.iter().find(|p| p.name == name)?;
                let candidate = port.link?;
                let sl = &scene.links[candidate];
                ((sl.a.0 == na && sl.b.0 == nb) || (sl.a.0 == nb && sl.b.0 == na)).then_some(candidate)
            });
            let found = by_port.or_else(|| {
                scene
                    .links
                    .iter()
                    .position(|sl| (sl.a.0 == na && sl.b.0 == nb) || (sl.a.0 == nb && sl.b.0 == na))
            });
            if let Some(sl) = found {
                map.link_of_trace_link[l] = Some(sl);
                map.trace_links_of_link[sl].push(l as u32);
            }
        }
        map.index_ports(replay, scene);
        map
    }

    /// Fill the per-port table [`SceneMap::flight_link`] reads.
    fn index_ports(&mut self, replay: &Replay, scene: &CanvasScene) {
        let mut next = 0u32;
        for info in &replay.header.entities {
            self.port_base.push(next);
            next += info.ports.len() as u32;
        }
        self.port_base.push(next);
        self.link_of_port = vec![None; next as usize];
        for (&(e, p), &trace_link) in &replay.link_of_port {
            let (Some(&base), Some(node)) =
                (self.port_base.get(e as usize), self.node_of_entity.get(e as usize).copied().flatten())
            else {
                continue;
            };
            let Some(sl) = self.link_of_trace_link.get(trace_link as usize).copied().flatten() else {
                continue;
            };
            if let Some(slot) = self.link_of_port.get_mut((base + u32::from(p)) as usize) {
                *slot = Some((sl as u32, scene.links[sl].a.0 == node));
            }
        }
    }

    /// The canvas link a message from entity `from` on port `port` travels, and whether it goes
    /// from the link's `a` end to its `b` end.
    pub fn flight_link(&self, from: (u32, u16)) -> Option<(usize, bool)> {
        let base = *self.port_base.get(from.0 as usize)?;
        let end = *self.port_base.get(from.0 as usize + 1)?;
        let at = base + u32::from(from.1);
        if at >= end {
            return None;
        }
        let (link, forward) = self.link_of_port.get(at as usize).copied().flatten()?;
        Some((link as usize, forward))
    }
}

#[cfg(test)]
mod tests {
    use hase_engine::time::SimTime;
    use hase_engine::trace::{EntityInfo, GroupInfo, LinkInfo, Record, Trace, TraceHeader};

    use super::*;
    use hase_editor::document::{Document, NetworkId};
    use hase_editor::fixtures::{STAR_TYPE, demo_project};

    /// A trace shaped like the demo: p0 on r0, r0 to the compound net0 (routers sw0, sw1 inside).
    fn replay_for_demo() -> Replay {
        let e = |path: &str, ports: &[&str], group| EntityInfo {
            path: path.into(),
            ports: ports.iter().map(|p| (*p).to_string()).collect(),
            states: vec!["IDLE".into(), "BUSY".into()].into(),
            group,
            ..EntityInfo::default()
        };
        let header = TraceHeader {
            entities: vec![
                e("p0", &["net"], None),
                e("r0", &["p0", "p1", "p2", "p3", "p4"], None),
                e("net0/sw0", &["p0", "p1", "p2", "p3"], Some(0)),
                e("net0/sw1", &["p0", "p1", "p2", "p3"], Some(0)),
            ],
            links: vec![
                LinkInfo { a: (0, 0), b: (1, 0) },
                LinkInfo { a: (1, 4), b: (2, 0) },
                LinkInfo { a: (2, 3), b: (3, 3) },
            ],
            groups: vec![GroupInfo { path: "net0".into(), type_name: STAR_TYPE.into(), parent: None }],
            ..TraceHeader::default()
        };
        Replay::build(&Trace {
            header,
            records: vec![Record::State { time: SimTime(0), entity: 0, state: 1 }],
        })
    }

    #[test]
    fn top_level_entities_are_nodes_and_compound_members_are_summarised() {
        let doc = Document::with_builtins(demo_project());
        let scene = CanvasScene::build(&doc, &NetworkId::Top);
        let replay = replay_for_demo();
        let map = SceneMap::build(&replay, &scene, "");
        let node = |name: &str| scene.by_name.get(name).copied();
        assert_eq!(map.node_of_entity[0], node("p0"));
        assert_eq!(map.node_of_entity[2], node("net0"));
        assert_eq!((map.direct[0], map.direct[2]), (true, false));
        assert_eq!(map.entities_of_node[node("net0").unwrap()], vec![2, 3]);
        // p0–r0 is a canvas link; r0–net0/sw0 crosses into the compound; sw0–sw1 is inside it.
        let l0 = map.link_of_trace_link[0].unwrap();
        let key = &scene.links[l0].key;
        assert!(key.contains("p0.net") && key.contains("r0.p0"), "{key}");
        assert!(map.link_of_trace_link[1].is_some());
        assert_eq!(map.link_of_trace_link[2], None);
        let (link, forward) = map.flight_link((0, 0)).unwrap();
        assert_eq!(link, l0);
        assert_eq!(forward, scene.links[l0].a.0 == node("p0").unwrap());
        // Every port of the trace answers as its trace link's canvas link, from its own node.
        for (&(e, p), &trace_link) in &replay.link_of_port {
            let direct = map.link_of_trace_link[trace_link as usize].and_then(|sl| {
                let n = map.node_of_entity[e as usize]?;
                Some((sl, scene.links[sl].a.0 == n))
            });
            assert_eq!(map.flight_link((e, p)), direct, "port ({e}, {p})");
        }
        assert_eq!(map.flight_link((0, 7)), None);
        assert_eq!(map.flight_link((99, 0)), None);
    }

    #[test]
    fn inside_the_compound_its_members_are_nodes() {
        let doc = Document::with_builtins(demo_project());
        let scene = CanvasScene::build(&doc, &NetworkId::Type(STAR_TYPE.into()));
        let replay = replay_for_demo();
        let map = SceneMap::build(&replay, &scene, &prefix_of(&["net0".to_string()]));
        assert_eq!(map.node_of_entity[0], None);
        assert_eq!(map.node_of_entity[2], scene.by_name.get("sw0").copied());
        assert!(map.direct[3]);
        assert!(map.link_of_trace_link[2].is_some());
        assert_eq!(map.link_of_trace_link[0], None);
    }
}
