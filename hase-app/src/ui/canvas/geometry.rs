//! Canvas geometry: the scene built from one network (nodes, ports, links, rebuilt when the document
//! changes), where each port sits on its node's sides (facing the peer it is linked to), and hit
//! testing. Everything here is in canvas units and needs no UI.

use std::collections::BTreeMap;

use egui::{Pos2, Rect, Vec2};
use hase_engine::model::{AbstractionLevel, Direction, ParamDisplay};

use hase_editor::document::{Document, NetworkId};

/// Side of an entity's body square, in canvas units.
pub const NODE_SIZE: f32 = 64.0;
/// Radius of a port marker, in canvas units.
pub const PORT_RADIUS: f32 = 4.5;
/// Room under a body for the name and displayed parameters.
pub const LABEL_ROOM: f32 = 48.0;

/// A side of an entity's body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum BodySide {
    /// Upper edge.
    Top,
    /// Right edge.
    Right,
    /// Lower edge.
    Bottom,
    /// Left edge.
    Left,
}

impl BodySide {
    /// Unit vector pointing out of the body.
    pub fn outward(self) -> Vec2 {
        match self {
            BodySide::Top => Vec2::new(0.0, -1.0),
            BodySide::Right => Vec2::new(1.0, 0.0),
            BodySide::Bottom => Vec2::new(0.0, 1.0),
            BodySide::Left => Vec2::new(-1.0, 0.0),
        }
    }
}

/// One port of a node.
#[derive(Clone, Debug)]
pub struct PortInfo {
    /// Expanded port name.
    pub name: String,
    /// Direction.
    pub direction: Direction,
    /// Link type.
    pub link_type: String,
    /// Index of the link attached, if any.
    pub link: Option<usize>,
    /// True if a compound type exports it (inner networks only).
    pub exported: bool,
}

/// One instance as the canvas shows it.
#[derive(Clone, Debug)]
pub struct NodeInfo {
    /// Instance name.
    pub name: String,
    /// Type name.
    pub type_name: String,
    /// Palette category of the type.
    pub category: String,
    /// Icon asset name.
    pub icon: Option<String>,
    /// True for compound types (they open on double-click and show a level badge).
    pub compound: bool,
    /// Abstraction level.
    pub level: AbstractionLevel,
    /// Displayed parameters, already formatted.
    pub labels: Vec<String>,
    /// Stored centre.
    pub pos: Pos2,
    /// Ports in declaration order.
    pub ports: Vec<PortInfo>,
    /// Index of the first port in the flat port arrays.
    pub first_port: usize,
}

/// One link as the canvas shows it.
#[derive(Clone, Debug)]
pub struct LinkShape {
    /// `Link::key`.
    pub key: String,
    /// (node, port) of end `a`.
    pub a: (usize, usize),
    /// (node, port) of end `b`.
    pub b: (usize, usize),
    /// Link type of end `a`.
    pub link_type: String,
    /// Corner points.
    pub corners: Vec<Pos2>,
}

/// The drawable model of one network.
#[derive(Clone, Debug, Default)]
pub struct CanvasScene {
    /// Nodes sorted by name.
    pub nodes: Vec<NodeInfo>,
    /// Links whose ends both exist.
    pub links: Vec<LinkShape>,
    /// Name → index into `nodes`.
    pub by_name: BTreeMap<String, usize>,
    /// Total number of ports.
    pub port_count: usize,
}

fn to_pos2(p: hase_engine::model::Pos) -> Pos2 {
    Pos2::new(p.x, p.y)
}

impl CanvasScene {
    /// Build the scene of network `net` (empty if it does not exist).
    pub fn build(doc: &Document, net: &NetworkId) -> CanvasScene {
        let mut scene = CanvasScene::default();
        let Some(network) = doc.network(net) else {
            return scene;
        };
        let layout = doc.layout(net);
        let exports = match net {
            NetworkId::Type(t) => {
                doc.project.types.get(t).and_then(|t| t.compound.as_ref()).map(|c| &c.exports)
            }
            NetworkId::Top => None,
        };
        for (name, inst) in &network.instances {
            let ty = doc.entity_type(&inst.type_name);
            let ports: Vec<PortInfo> = ty
                .map(|t| t.concrete_ports(&inst.params))
                .unwrap_or_default()
                .into_iter()
                .map(|p| PortInfo {
                    exported: exports.is_some_and(|e| {
                        e.iter().any(|e| e.inner.instance == *name && e.inner.port == p.name)
                    }),
                    name: p.name,
                    direction: p.direction,
                    link_type: p.link_type,
                    link: None,
                })
                .collect();
            let labels = layout
                .displayed
                .get(name)
                .map(|shown| {
                    shown
                        .iter()
                        .filter_map(|(param, how)| {
                            let value = ty?.value_of(&inst.params, param)?.display();
                            match how {
                                ParamDisplay::Hidden => None,
                                ParamDisplay::Value => Some(value),
                                ParamDisplay::NameValue => Some(format!("{param} = {value}")),
                            }
                        })
                        .collect()
                })
                .unwrap_or_default();
            scene.by_name.insert(name.clone(), scene.nodes.len());
            scene.nodes.push(NodeInfo {
                name: name.clone(),
                type_name: inst.type_name.clone(),
                category: ty.map(|t| t.category.clone()).unwrap_or_default(),
                icon: ty.and_then(|t| t.icon.clone()),
                compound: ty.is_some_and(hase_engine::model::EntityType::is_compound),
                level: inst.level,
                labels,
                pos: to_pos2(layout.positions.get(name).copied().unwrap_or_default()),
                first_port: scene.port_count,
                ports,
            });
            scene.port_count += scene.nodes.last().map_or(0, |n| n.ports.len());
        }
        for link in &network.links {
            let end = |r: &hase_engine::model::PortRef| {
                let node = *scene.by_name.get(&r.instance)?;
                let port = scene.nodes[node].ports.iter().position(|p| p.name == r.port)?;
                Some((node, port))
            };
            let (Some(a), Some(b)) = (end(&link.a), end(&link.b)) else {
                continue;
            };
            let index = scene.links.len();
            scene.nodes[a.0].ports[a.1].link = Some(index);
            scene.nodes[b.0].ports[b.1].link = Some(index);
            scene.links.push(LinkShape {
                key: link.key(),
                link_type: scene.nodes[a.0].ports[a.1].link_type.clone(),
                a,
                b,
                corners: layout
                    .corners
                    .get(&link.key())
                    .map(|c| c.iter().copied().map(to_pos2).collect())
                    .unwrap_or_default(),
            });
        }
        scene
    }

    /// Bounding box of every node with its label room, in canvas units.
    pub fn bounds(&self, positions: &[Pos2]) -> Option<Rect> {
        let mut it = positions.iter();
        let first = it.next()?;
        let mut r = node_extent(*first);
        for p in it {
            r = r.union(node_extent(*p));
        }
        Some(r)
    }

    /// The other end (node, port) of the link at `(node, port)`, if linked.
    pub fn peer(&self, node: usize, port: usize) -> Option<(usize, usize)> {
        let link = &self.links[self.nodes[node].ports[port].link?];
        Some(if link.a == (node, port) { link.b } else { link.a })
    }
}

/// The body square of a node centred at `centre`.
pub fn body(centre: Pos2) -> Rect {
    Rect::from_center_size(centre, Vec2::splat(NODE_SIZE))
}

/// The body plus the label area under it.
pub fn node_extent(centre: Pos2) -> Rect {
    let b = body(centre);
    Rect::from_min_max(b.min - Vec2::splat(PORT_RADIUS), Pos2::new(b.max.x, b.max.y + LABEL_ROOM))
}

fn side_towards(d: Vec2) -> Option<BodySide> {
    if d.length_sq() < 1e-6 {
        None
    } else if d.x.abs() > d.y.abs() {
        Some(if d.x > 0.0 { BodySide::Right } else { BodySide::Left })
    } else {
        Some(if d.y > 0.0 { BodySide::Bottom } else { BodySide::Top })
    }
}

/// Where every port sits this frame: position (canvas units) and side, indexed by
/// `node.first_port + port`. Buffers are kept between frames to avoid allocation.
#[derive(Clone, Debug, Default)]
pub struct PortLayout {
    /// Port centres.
    pub pos: Vec<Pos2>,
    /// Port sides.
    pub side: Vec<BodySide>,
    /// Bounding box of each link's points (canvas units), for culling without walking them.
    pub link_bounds: Vec<Rect>,
    /// Every link's points (canvas units), link after link: what [`PortLayout::link_points`]
    /// gives, read from one array (a large network's far view walks every link each frame).
    link_path: Vec<Pos2>,
    /// Where each link's points start in `link_path` (one more entry than links).
    link_path_start: Vec<u32>,
    scratch: Vec<(BodySide, bool, f32, usize)>,
}

impl PortLayout {
    /// Lay out the ports of every node at `positions` (node centres).
    pub fn compute(&mut self, scene: &CanvasScene, positions: &[Pos2]) {
        self.pos.clear();
        self.side.clear();
        self.pos.resize(scene.port_count, Pos2::ZERO);
        self.side.resize(scene.port_count, BodySide::Top);
        for (n, node) in scene.nodes.iter().enumerate() {
            self.layout_node(scene, positions, n, node);
        }
        let mut points = Vec::new();
        self.link_bounds.clear();
        self.link_path.clear();
        self.link_path_start.clear();
        for link in &scene.links {
            self.link_points(scene, link, &mut points);
            self.link_bounds.push(Rect::from_points(&points));
            self.link_path_start.push(self.link_path.len() as u32);
            self.link_path.extend_from_slice(&points);
        }
        self.link_path_start.push(self.link_path.len() as u32);
    }

    /// The points link `l` is drawn through as laid out (what [`PortLayout::link_points`] gives);
    /// empty for a link the layout does not have.
    pub fn link_path(&self, l: usize) -> &[Pos2] {
        match (self.link_path_start.get(l), self.link_path_start.get(l + 1)) {
            (Some(&a), Some(&b)) => &self.link_path[a as usize..b as usize],
            _ => &[],
        }
    }

    /// True if link `l`'s bounding box meets `visible` (canvas units).
    pub fn link_in_view(&self, l: usize, visible: Rect) -> bool {
        self.link_bounds.get(l).is_some_and(|b| b.intersects(visible))
    }

    fn layout_node(&mut self, scene: &CanvasScene, positions: &[Pos2], n: usize, node: &NodeInfo) {
        let centre = positions[n];
        self.scratch.clear();
        let mut free_counts = [0usize; 4];
        for (i, port) in node.ports.iter().enumerate() {
            let towards = port.link.and_then(|l| {
                let link = &scene.links[l];
                let (target, corner) = if link.a == (n, i) {
                    (positions[link.b.0], link.corners.first())
                } else {
                    (positions[link.a.0], link.corners.last())
                };
                let aim = corner.copied().unwrap_or(target);
                side_towards(aim - centre).map(|s| (s, aim))
            });
            if let Some((side, aim)) = towards {
                let along = if matches!(side, BodySide::Top | BodySide::Bottom) { aim.x } else { aim.y };
                self.scratch.push((side, true, along, i));
                free_counts[side as usize] += 1;
            }
        }
        for (i, port) in node.ports.iter().enumerate() {
            if self.scratch.iter().any(|s| s.3 == i) {
                continue;
            }
            let side = match port.direction {
                Direction::In => BodySide::Left,
                Direction::Out => BodySide::Right,
                Direction::InOut => {
                    // The emptiest side, preferring bottom, top, right, left.
                    [BodySide::Bottom, BodySide::Top, BodySide::Right, BodySide::Left]
                        .into_iter()
                        .min_by_key(|s| free_counts[*s as usize])
                        .unwrap_or(BodySide::Bottom)
                }
            };
            free_counts[side as usize] += 1;
            self.scratch.push((side, false, i as f32, i));
        }
        // Linked ports ordered by where their peers are (fewer crossings), then free ports.
        self.scratch
            .sort_by(|a, b| (a.0, !a.1).cmp(&(b.0, !b.1)).then(a.2.total_cmp(&b.2)).then(a.3.cmp(&b.3)));
        let half = NODE_SIZE / 2.0;
        let mut j = 0;
        while j < self.scratch.len() {
            let side = self.scratch[j].0;
            let k = self.scratch[j..].iter().take_while(|s| s.0 == side).count();
            for (rank, entry) in self.scratch[j..j + k].iter().enumerate() {
                let t = (rank as f32 + 1.0) / (k as f32 + 1.0) * NODE_SIZE - half;
                let offset = match side {
                    BodySide::Top => Vec2::new(t, -half),
                    BodySide::Bottom => Vec2::new(t, half),
                    BodySide::Left => Vec2::new(-half, t),
                    BodySide::Right => Vec2::new(half, t),
                };
                let index = node.first_port + entry.3;
                self.pos[index] = centre + offset;
                self.side[index] = side;
            }
            j += k;
        }
    }

    /// The points a link is drawn through: its two port positions with the corners between.
    pub fn link_points(&self, scene: &CanvasScene, link: &LinkShape, out: &mut Vec<Pos2>) {
        out.clear();
        out.push(self.pos[scene.nodes[link.a.0].first_port + link.a.1]);
        out.extend(link.corners.iter().copied());
        out.push(self.pos[scene.nodes[link.b.0].first_port + link.b.1]);
    }
}

/// What is under a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    /// A port: (node, port).
    Port(usize, usize),
    /// A corner point of a link: (link, corner index).
    Corner(usize, usize),
    /// An entity body.
    Node(usize),
    /// A link.
    Link(usize),
}

/// Distance from `p` to the segment `a`–`b`.
pub fn segment_distance(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = if ab.length_sq() > 0.0 { ((p - a).dot(ab) / ab.length_sq()).clamp(0.0, 1.0) } else { 0.0 };
    (a + ab * t - p).length()
}

/// What lies at canvas point `p`, with `tolerance` canvas units of slack. Ports win over corners,
/// corners over bodies, bodies over links; later-drawn nodes win over earlier ones.
pub fn hit_test(
    scene: &CanvasScene,
    positions: &[Pos2],
    ports: &PortLayout,
    p: Pos2,
    tolerance: f32,
    corners_of: Option<usize>,
) -> Option<Hit> {
    let port_reach = (PORT_RADIUS + tolerance).powi(2);
    let mut best: Option<(f32, Hit)> = None;
    for (n, node) in scene.nodes.iter().enumerate() {
        if !body(positions[n]).expand(PORT_RADIUS + tolerance).contains(p) {
            continue;
        }
        for i in 0..node.ports.len() {
            let d = (ports.pos[node.first_port + i] - p).length_sq();
            if d <= port_reach && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, Hit::Port(n, i)));
            }
        }
    }
    if let Some((_, hit)) = best {
        return Some(hit);
    }
    if let Some(l) = corners_of.filter(|l| *l < scene.links.len()) {
        for (c, corner) in scene.links[l].corners.iter().enumerate() {
            if (*corner - p).length() <= PORT_RADIUS + tolerance {
                return Some(Hit::Corner(l, c));
            }
        }
    }
    if let Some(n) = (0..scene.nodes.len()).rev().find(|n| body(positions[*n]).contains(p)) {
        return Some(Hit::Node(n));
    }
    let mut points = Vec::new();
    let mut nearest: Option<(f32, usize)> = None;
    for (l, link) in scene.links.iter().enumerate() {
        ports.link_points(scene, link, &mut points);
        let d = points.windows(2).map(|w| segment_distance(p, w[0], w[1])).fold(f32::INFINITY, f32::min);
        if d <= tolerance.max(3.0) && nearest.is_none_or(|(bd, _)| d < bd) {
            nearest = Some((d, l));
        }
    }
    nearest.map(|(_, l)| Hit::Link(l))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hase_editor::fixtures::demo_project;

    fn demo_scene() -> (CanvasScene, Vec<Pos2>, PortLayout) {
        let doc = Document::with_builtins(demo_project());
        let scene = CanvasScene::build(&doc, &NetworkId::Top);
        let positions: Vec<Pos2> = scene.nodes.iter().map(|n| n.pos).collect();
        let mut ports = PortLayout::default();
        ports.compute(&scene, &positions);
        (scene, positions, ports)
    }

    #[test]
    fn ports_face_their_peers_in_order() {
        let (scene, _, ports) = demo_scene();
        let r0 = &scene.nodes[scene.by_name["r0"]];
        let side = |i: usize| ports.side[r0.first_port + i];
        // p0..p3 go up to the processors above, p4 right to net0.
        assert_eq!((0..4).map(side).collect::<Vec<_>>(), vec![BodySide::Top; 4]);
        assert_eq!(side(4), BodySide::Right);
        // Sorted by the peers' x: p0 leftmost, evenly spaced across the top edge.
        let xs: Vec<f32> = (0..4).map(|i| ports.pos[r0.first_port + i].x - r0.pos.x).collect();
        let step = NODE_SIZE / 5.0;
        let expected: Vec<f32> = (1..=4).map(|k| k as f32 * step - NODE_SIZE / 2.0).collect();
        for (x, e) in xs.iter().zip(expected) {
            assert!((x - e).abs() < 1e-4, "{xs:?}");
        }
        let p0 = &scene.nodes[scene.by_name["p0"]];
        assert_eq!(ports.side[p0.first_port], BodySide::Bottom);
    }

    #[test]
    fn hit_testing_prefers_ports_then_bodies_then_links() {
        let (scene, positions, ports) = demo_scene();
        let r0 = scene.by_name["r0"];
        let port_pos = ports.pos[scene.nodes[r0].first_port + 4];
        assert_eq!(hit_test(&scene, &positions, &ports, port_pos, 2.0, None), Some(Hit::Port(r0, 4)));
        assert_eq!(hit_test(&scene, &positions, &ports, positions[r0], 2.0, None), Some(Hit::Node(r0)));
        // Half way along the r0–net0 link.
        let net0 = scene.by_name["net0"];
        let far = ports.pos[scene.nodes[net0].first_port + 4];
        let mid = port_pos + (far - port_pos) * 0.5;
        let Some(Hit::Link(l)) = hit_test(&scene, &positions, &ports, mid, 2.0, None) else { panic!() };
        assert_eq!(scene.links[l].key, "net0.p4--r0.p4");
        assert_eq!(hit_test(&scene, &positions, &ports, Pos2::new(5000.0, 0.0), 2.0, None), None);
        assert!((segment_distance(Pos2::new(0.0, 5.0), Pos2::ZERO, Pos2::new(10.0, 0.0)) - 5.0).abs() < 1e-6);
    }
}
