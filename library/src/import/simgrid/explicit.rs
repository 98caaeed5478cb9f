//! Explicit platforms: hosts, routers, links and routes. Each route is a chain of links from its
//! source to its destination; consecutive links meet at a switch, so the routes together give
//! every link two ends (points where routes join are merged). Each point becomes a hase router, each
//! host a processor on an ideal link to its own point's router, each link a hase link; packets follow
//! shortest paths, and a route longer than hase's shortest path between its ends is noted.

use std::collections::BTreeMap;

use hase_engine::model::{
    Instance, Link, ParamValue, PortRef, Pos, Project, Routing, instance_name_for_host,
};

use super::xml::Explicit;
use hase_engine::FilePlace;
use hase_engine::limits::{MAX_PATH_BYTES, quote};

use super::error::ImportError;
use super::imported::{Imported, Note};
use super::shortest::{RouteEnds, shorter_paths};
use super::simgrid_like::{processor_params, router_params};

/// Union-find over the points of the platform.
struct Points(Vec<usize>);

impl Points {
    fn find(&mut self, mut x: usize) -> usize {
        while self.0[x] != x {
            self.0[x] = self.0[self.0[x]];
            x = self.0[x];
        }
        x
    }
    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b)] = a.min(b);
        }
    }
}

/// The platform as a project named `name`.
pub(super) fn build(e: &Explicit, name: &str, file: &str) -> Result<Imported, ImportError> {
    let at =
        |line: u32, message: String| ImportError::At { place: FilePlace::line(file, line as usize), message };
    let too_long = |line: u32, element: &'static str, id: &str, name: &str| ImportError::EntityNameTooLong {
        place: FilePlace::line(file, line as usize),
        element,
        id: quote(id),
        name: quote(name),
        bytes: name.len(),
        limit: MAX_PATH_BYTES,
    };
    let mut notes = Vec::new();
    // Points: hosts, then routers, then two ends per link.
    let (nh, nr) = (e.hosts.len(), e.routers.len());
    let mut ids: BTreeMap<&str, (usize, u32)> = BTreeMap::new();
    for (i, h) in e.hosts.iter().enumerate() {
        if ids.insert(&h.id, (i, h.line)).is_some() {
            return Err(at(h.line, format!("host id `{}` is used twice", h.id)));
        }
    }
    for (i, (id, line)) in e.routers.iter().enumerate() {
        if ids.insert(id, (nh + i, *line)).is_some() {
            return Err(at(*line, format!("router id `{id}` is already a host or router id")));
        }
    }
    let mut link_index: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, l) in e.links.iter().enumerate() {
        if link_index.insert(&l.id, i).is_some() {
            return Err(at(l.line, format!("link id `{}` is used twice", l.id)));
        }
    }
    let end = |link: usize, side: usize| nh + nr + 2 * link + side;
    let mut points = Points((0..nh + nr + 2 * e.links.len()).collect());
    let mut used = vec![false; e.links.len()];
    let mut routed = vec![false; nh];
    for r in &e.routes {
        let point = |id: &str| {
            ids.get(id)
                .map(|(p, _)| *p)
                .ok_or_else(|| at(r.line, format!("route end `{id}` is not a host or router")))
        };
        let (src, dst) = (point(&r.src)?, point(&r.dst)?);
        let mut cur = src;
        for id in &r.links {
            let l = *link_index
                .get(id.as_str())
                .ok_or_else(|| at(r.line, format!("route {} → {}: no link `{id}`", r.src, r.dst)))?;
            used[l] = true;
            // Enter by the end already joined to where we are, else by end 0.
            let (enter, exit) = if points.find(cur) == points.find(end(l, 1)) {
                (end(l, 1), end(l, 0))
            } else {
                (end(l, 0), end(l, 1))
            };
            points.union(cur, enter);
            cur = exit;
        }
        points.union(cur, dst);
        for p in [src, dst].into_iter().filter(|p| *p < nh) {
            routed[p] = true;
        }
    }
    // Each class of points is one router; a class holds at most one host.
    let mut class_host: BTreeMap<usize, usize> = BTreeMap::new();
    for h in 0..nh {
        let c = points.find(h);
        if let Some(other) = class_host.insert(c, h) {
            return Err(at(
                e.hosts[h].line,
                format!(
                    "the routes make hosts `{}` and `{}` one point (a route between them needs a link)",
                    e.hosts[other].id, e.hosts[h].id
                ),
            ));
        }
    }
    for (l, link) in e.links.iter().enumerate() {
        if !used[l] {
            notes.push(Note { line: link.line, text: format!("link {} is in no route: left out", link.id) });
        } else if points.find(end(l, 0)) == points.find(end(l, 1)) {
            return Err(at(link.line, format!("the routes make link `{}` join a point to itself", link.id)));
        }
    }
    for (_, host) in e.hosts.iter().enumerate().filter(|(h, _)| !routed[*h]) {
        notes.push(Note {
            line: host.line,
            text: format!("host {} is in no route: it can reach no other host", host.id),
        });
    }
    // Router names: after their host or <router>, else r0, r1, ….
    let mut router_of: BTreeMap<usize, String> = BTreeMap::new();
    let mut taken: BTreeMap<String, u32> = BTreeMap::new();
    for (h, host) in e.hosts.iter().enumerate() {
        let processor = instance_name_for_host(&host.id);
        let router = format!("sw_{processor}");
        if router.len() > MAX_PATH_BYTES {
            return Err(too_long(host.line, "host", &host.id, &router));
        }
        for n in [&processor, &router] {
            if taken.insert(n.clone(), host.line).is_some() {
                return Err(at(
                    host.line,
                    format!("host `{}` would be named `{n}`, like another entity", host.id),
                ));
            }
        }
        router_of.insert(points.find(h), router);
    }
    for (i, (id, line)) in e.routers.iter().enumerate() {
        let c = points.find(nh + i);
        if router_of.contains_key(&c) {
            continue;
        }
        let n = instance_name_for_host(id);
        if n.len() > MAX_PATH_BYTES {
            return Err(too_long(*line, "router", id, &n));
        }
        if taken.insert(n.clone(), *line).is_some() {
            return Err(at(*line, format!("router `{id}` would be named `{n}`, like another entity")));
        }
        router_of.insert(c, n);
    }
    let mut project = Project::new(name);
    let mut links: Vec<(usize, usize, usize)> = Vec::new();
    // Anonymous routers take the lowest free name of r0, r1, …: names are only ever taken, so the
    // search goes on from the last one given.
    let mut anonymous = 0_usize;
    for (l, _) in e.links.iter().enumerate().filter(|(l, _)| used[*l]) {
        let (a, b) = (points.find(end(l, 0)), points.find(end(l, 1)));
        for c in [a, b] {
            if let std::collections::btree_map::Entry::Vacant(slot) = router_of.entry(c) {
                let name = loop {
                    let name = format!("r{anonymous}");
                    anonymous += 1;
                    if !taken.contains_key(&name) {
                        break name;
                    }
                };
                taken.insert(name.clone(), 0);
                slot.insert(name);
            }
        }
        links.push((l, a, b));
    }
    // Ports: 0 to the processor (routers of hosts), then one per link.
    let mut next_port: BTreeMap<usize, u32> = BTreeMap::new();
    for h in 0..nh {
        next_port.insert(points.find(h), 1);
    }
    let mut port = |class: usize| {
        let p = next_port.entry(class).or_insert(0);
        *p += 1;
        format!("p{}", *p - 1)
    };
    for (h, host) in e.hosts.iter().enumerate() {
        let processor = instance_name_for_host(&host.id);
        let mut inst = Instance::of("Processor");
        inst.params.insert("rank".into(), ParamValue::Int(h as i64));
        for (k, v) in processor_params(host.flops_per_s) {
            inst.params.insert(k.into(), v);
        }
        project.network.instances.insert(processor.clone(), inst);
        let router = &router_of[&points.find(h)];
        project.network.links.push(Link::new(
            PortRef::new(&processor, "net"),
            PortRef::new(router, "p0"),
            hase_engine::SimTime::ZERO,
            0,
        ));
        project.layout.top.positions.insert(processor, Pos::new(h as f32 * 160.0, 220.0));
    }
    for (l, a, b) in &links {
        let spec = &e.links[*l];
        let (pa, pb) = (port(*a), port(*b));
        project.network.links.push(Link::new(
            PortRef::new(&router_of[a], &pa),
            PortRef::new(&router_of[b], &pb),
            spec.latency,
            spec.bandwidth,
        ));
    }
    for (i, (class, router)) in router_of.iter().enumerate() {
        let mut inst = Instance::of("Router");
        let radix = next_port.get(class).copied().unwrap_or(1).max(1);
        inst.params.insert("radix".into(), ParamValue::Int(i64::from(radix)));
        for (k, v) in router_params() {
            inst.params.insert(k.into(), v);
        }
        project.network.instances.insert(router.clone(), inst);
        let x = class_host.get(class).map_or((nh + i) as f32 * 160.0, |h| *h as f32 * 160.0);
        let y = if class_host.contains_key(class) { 80.0 } else { -80.0 };
        project.layout.top.positions.insert(router.clone(), Pos::new(x, y));
    }
    project.network.routing = Routing::ShortestPath;
    // A route longer than the shortest path between its ends is not what hase will follow.
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); nh + nr + 2 * e.links.len()];
    for (_, a, b) in &links {
        neighbours[*a].push(*b);
        neighbours[*b].push(*a);
    }
    let ends: Vec<RouteEnds> = e
        .routes
        .iter()
        .map(|r| RouteEnds {
            from: points.find(ids[r.src.as_str()].0),
            to: points.find(ids[r.dst.as_str()].0),
            links: r.links.len(),
        })
        .collect();
    for (r, shortest) in e.routes.iter().zip(shorter_paths(&neighbours, &ends)) {
        if let Some(shortest) = shortest {
            notes.push(Note {
                line: r.line,
                text: format!(
                    "route {} → {} has {} links; hase follows a shortest path of {shortest}",
                    r.src,
                    r.dst,
                    r.links.len(),
                ),
            });
        }
    }
    project.description = format!(
        "Imported from the SimGrid platform {file}: {} hosts, {} links, {} routes, shortest-path routing.",
        nh,
        links.len(),
        e.routes.len()
    );
    let summary = format!("{} hosts, {} links, {} routes (explicit)", nh, links.len(), e.routes.len());
    Ok(Imported { project, notes, hosts: e.hosts.iter().map(|h| h.id.clone()).collect(), summary })
}
