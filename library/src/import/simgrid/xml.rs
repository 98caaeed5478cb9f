//! Reading a SimGrid platform file (format 4.x) into what hase imports: one cluster, or the hosts,
//! routers, links and routes of explicit zones. Elements that would change the network and that
//! hase does not model are refused with their line; properties and configuration become notes.

use hase_engine::time::SimTime;
use hase_engine::units::{parse_flop_rate, parse_rate, parse_time};
use roxmltree::{Document, Node, ParsingOptions};

use hase_engine::FilePlace;
use hase_engine::limits::{MAX_PATH_BYTES, printable_error, quote, short_error};
use hase_engine::model::instance_name_for_host;

use super::entity_budget::{MAX_EXPANDED_ENTITY_BYTES, check_entity_budget};
use super::error::{ClusterParamError, ImportError};
use super::imported::Note;
use super::lines::LineIndex;

/// Largest platform file read (bytes).
pub const MAX_PLATFORM_BYTES: usize = 64 << 20;
/// Most XML nodes a platform file may have.
const MAX_NODES: u32 = 4_000_000;
/// Deepest nesting of zones read (SimGrid platforms nest a handful).
const MAX_ZONE_DEPTH: usize = 256;
/// Most hosts a cluster may expand to (as many as a template generates).
const MAX_HOSTS: usize = hase_templates::MAX_ENDPOINTS as usize;

/// What the file describes.
pub(super) enum Platform {
    /// One cluster.
    Cluster(Cluster),
    /// Hosts, routers, links and routes.
    Explicit(Explicit),
}

/// The file read, with its notes.
pub(super) struct Read {
    pub platform: Platform,
    pub notes: Vec<Note>,
}

/// A cluster's topology.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum ClusterTopology {
    /// Every host on a private link to one switch (the backbone, if any, in `Cluster::backbone`).
    Flat,
    /// `FAT_TREE`: PGFT vectors.
    FatTree { down: Vec<u32>, up: Vec<u32>, parallel: Vec<u32> },
    /// `TORUS`: extents.
    Torus(Vec<u32>),
    /// `DRAGONFLY`: groups, blue links, chassis, black links, routers, green links, nodes.
    Dragonfly([u32; 7]),
}

/// A `<cluster>`.
pub(super) struct Cluster {
    pub id: String,
    pub line: u32,
    pub hosts: Vec<String>,
    pub flops_per_s: f64,
    pub bandwidth: u64,
    pub latency: SimTime,
    pub topology: ClusterTopology,
    /// Backbone bandwidth and latency of a flat cluster.
    pub backbone: Option<(Option<u64>, SimTime)>,
    /// Bandwidth of each host's limiter link.
    pub limiter: Option<u64>,
    /// The cluster's sharing policy as written.
    pub sharing: Option<String>,
}

/// A `<host>`.
pub(super) struct Host {
    pub id: String,
    pub line: u32,
    pub flops_per_s: f64,
}

/// A `<link>`.
pub(super) struct LinkSpec {
    pub id: String,
    pub line: u32,
    pub bandwidth: u64,
    pub latency: SimTime,
}

/// A `<route>`: the links between two hosts or routers, in order.
pub(super) struct RouteSpec {
    pub src: String,
    pub dst: String,
    pub links: Vec<String>,
    pub line: u32,
}

/// Explicit zones.
#[derive(Default)]
pub(super) struct Explicit {
    pub hosts: Vec<Host>,
    pub routers: Vec<(String, u32)>,
    pub links: Vec<LinkSpec>,
    pub routes: Vec<RouteSpec>,
}

struct Reader<'a> {
    lines: LineIndex,
    file: &'a str,
    notes: Vec<Note>,
    cluster: Option<Cluster>,
    explicit: Explicit,
}

/// Elements refused, with what to do instead.
fn unsupported_reason(element: &str) -> Option<&'static str> {
    Some(match element {
        "zoneRoute" | "ASroute" | "bypassRoute" | "bypassZoneRoute" | "bypassASroute" => {
            "routes between zones: hase imports one cluster or one set of explicit routes; describe the \
             platform as one zone"
        }
        "backbone" => {
            "a zone backbone (a link shared by every host of a Cluster-routed zone) is not modelled"
        }
        "host_link" => "hosts with their own up/down links inside a Cluster-routed zone are not modelled",
        "cabinet" => "cabinets (groups of hosts sharing links) are not modelled; use a <cluster>",
        "peer" => "peers (Vivaldi coordinates) have no packet-level network to import",
        "storage" | "storage_type" | "mount" | "disk" => "storage is not modelled by hase",
        "trace" | "trace_connect" => "availability and bandwidth traces are not modelled",
        "actor" | "process" | "argument" => {
            "deployment belongs in a deployment file; hase takes its workload from --workload-trace or a \
             program"
        }
        "include" => "included files are not followed; give the whole platform in one file",
        "random" => "random values are not supported; write the values out",
        _ => return None,
    })
}

impl Reader<'_> {
    fn line(&self, node: Node<'_, '_>) -> u32 {
        self.lines.line_of(node.range().start)
    }

    fn place(&self, node: Node<'_, '_>) -> FilePlace {
        FilePlace::line(self.file, self.line(node) as usize)
    }

    fn cluster_param(
        &self,
        node: Node<'_, '_>,
        attribute: &'static str,
        text: &str,
    ) -> impl Fn(ClusterParamError) -> ImportError {
        let place = self.place(node);
        let text = text.to_string();
        move |source| ImportError::ClusterParam {
            place: place.clone(),
            attribute,
            text: quote(&text),
            source,
        }
    }

    #[expect(clippy::needless_pass_by_value, reason = "every caller builds the message with format!")]
    fn at(&self, node: Node<'_, '_>, message: String) -> ImportError {
        ImportError::At { place: self.place(node), message: printable_error(&message) }
    }

    #[expect(clippy::needless_pass_by_value, reason = "every caller builds the note with format!")]
    fn note(&mut self, node: Node<'_, '_>, text: String) {
        let line = self.line(node);
        self.notes.push(Note { line, text: printable_error(&text) });
    }

    fn required<'n>(&self, node: Node<'n, '_>, attribute: &str) -> Result<&'n str, ImportError> {
        node.attribute(attribute).ok_or_else(|| {
            self.at(node, format!("<{}> needs the attribute `{attribute}`", node.tag_name().name()))
        })
    }

    fn value<T, E: std::fmt::Display>(
        &self,
        node: Node<'_, '_>,
        attribute: &str,
        text: &str,
        parse: impl Fn(&str) -> Result<T, E>,
    ) -> Result<T, ImportError> {
        parse(text).map_err(|e| {
            let (shown, reason) = (quote(text), short_error(&e.to_string()));
            self.at(node, format!("attribute {attribute}=\"{shown}\": {reason}"))
        })
    }

    /// A latency: SimGrid reads a bare number as seconds.
    fn latency(&self, node: Node<'_, '_>, attribute: &str, text: &str) -> Result<SimTime, ImportError> {
        let bare = !text.trim().is_empty() && !text.chars().any(char::is_alphabetic);
        let with_unit = if bare { format!("{}s", text.trim()) } else { text.to_string() };
        self.value(node, attribute, text, |_| parse_time(&with_unit))
    }

    /// A speed: the first of a comma-separated list of power states.
    fn speed(&mut self, node: Node<'_, '_>) -> Result<f64, ImportError> {
        let text = self.required(node, "speed")?;
        let first = text.split(',').next().unwrap_or(text).trim();
        if first.len() < text.trim().len() {
            let (shown, first_shown) = (quote(text), quote(first));
            self.note(
                node,
                format!("speed=\"{shown}\": several power states; hase uses the first, {first_shown}"),
            );
        }
        let speed = self.value(node, "speed", first, parse_flop_rate)?;
        if speed < 1.0 {
            return Err(self.at(node, format!("speed=\"{text}\" is below 1 flop/s")));
        }
        if let Some(core) = node.attribute("core").filter(|c| c.trim() != "1") {
            self.note(node, format!("core=\"{core}\": a hase processor runs one rank on one core"));
        }
        Ok(speed)
    }

    fn walk(&mut self, node: Node<'_, '_>, depth: usize) -> Result<(), ImportError> {
        if depth > MAX_ZONE_DEPTH {
            return Err(ImportError::TooDeep { place: self.place(node), depth, limit: MAX_ZONE_DEPTH });
        }
        for child in node.children().filter(Node::is_element) {
            let name = child.tag_name().name();
            if let Some(reason) = unsupported_reason(name) {
                return Err(ImportError::Unsupported {
                    place: self.place(child),
                    element: quote(name),
                    reason: reason.into(),
                });
            }
            if let Some(id) = child.attribute("id").filter(|id| id.len() > MAX_PATH_BYTES) {
                return Err(ImportError::IdTooLong {
                    place: self.place(child),
                    element: quote(name),
                    id: quote(id),
                    bytes: id.len(),
                    limit: MAX_PATH_BYTES,
                });
            }
            match name {
                "zone" | "AS" => {
                    if let Some(r) = child.attribute("routing")
                        && !matches!(r, "Full" | "Floyd" | "Dijkstra" | "DijkstraCache" | "Cluster" | "None")
                    {
                        self.note(
                            child,
                            format!("routing=\"{r}\": hase routes explicit platforms by shortest path"),
                        );
                    }
                    self.walk(child, depth + 1)?;
                }
                "cluster" => self.cluster(child)?,
                "host" => self.host(child)?,
                "router" => {
                    let id = self.required(child, "id")?.to_string();
                    let line = self.line(child);
                    self.explicit.routers.push((id, line));
                }
                "link" => self.link(child)?,
                "route" => self.route(child)?,
                "prop" => {
                    let id = child.attribute("id").unwrap_or("?");
                    self.note(child, format!("property `{id}` ignored"));
                }
                "config" => self
                    .note(child, "<config> ignored: give SimGrid options on SimGrid's command line".into()),
                other => {
                    return Err(ImportError::Unsupported {
                        place: self.place(child),
                        element: quote(other),
                        reason: "not a SimGrid platform element hase knows".into(),
                    });
                }
            }
        }
        Ok(())
    }

    fn host(&mut self, node: Node<'_, '_>) -> Result<(), ImportError> {
        let id = self.required(node, "id")?.to_string();
        let flops_per_s = self.speed(node)?;
        for child in node.children().filter(Node::is_element) {
            match child.tag_name().name() {
                "prop" => self.note(
                    child,
                    format!("host {id}: property `{}` ignored", child.attribute("id").unwrap_or("?")),
                ),
                other => {
                    return Err(ImportError::Unsupported {
                        place: self.place(child),
                        element: quote(other),
                        reason: unsupported_reason(other)
                            .unwrap_or("hase imports a host's speed only")
                            .into(),
                    });
                }
            }
        }
        let line = self.line(node);
        self.explicit.hosts.push(Host { id, line, flops_per_s });
        Ok(())
    }

    fn link(&mut self, node: Node<'_, '_>) -> Result<(), ImportError> {
        let id = self.required(node, "id")?.to_string();
        let bw = self.required(node, "bandwidth")?;
        let bandwidth = self.value(node, "bandwidth", bw, parse_rate)?;
        let latency = match node.attribute("latency") {
            Some(l) => self.latency(node, "latency", l)?,
            None => SimTime::ZERO,
        };
        match node.attribute("sharing_policy").unwrap_or("SHARED") {
            "SPLITDUPLEX" => {}
            "SHARED" => self.note(
                node,
                format!("link {id} is SHARED (both directions share {bw}); a hase link carries each direction at full bandwidth"),
            ),
            "FATPIPE" => self.note(
                node,
                format!("link {id} is a FATPIPE (no sharing); a hase link serialises the packets it carries"),
            ),
            other => self.note(node, format!("link {id}: sharing policy {other} read as SPLITDUPLEX")),
        }
        let line = self.line(node);
        self.explicit.links.push(LinkSpec { id, line, bandwidth, latency });
        Ok(())
    }

    fn route(&mut self, node: Node<'_, '_>) -> Result<(), ImportError> {
        let src = self.required(node, "src")?.to_string();
        let dst = self.required(node, "dst")?.to_string();
        let mut links = Vec::new();
        for child in node.children().filter(Node::is_element) {
            match child.tag_name().name() {
                "link_ctn" => links.push(self.required(child, "id")?.to_string()),
                other => {
                    return Err(ImportError::Unsupported {
                        place: self.place(child),
                        element: quote(other),
                        reason: "a route lists <link_ctn> elements only".into(),
                    });
                }
            }
        }
        if links.is_empty() {
            return Err(self.at(node, format!("route {src} → {dst} has no <link_ctn>")));
        }
        if node.attribute("symmetrical").is_some_and(|s| s.eq_ignore_ascii_case("no")) {
            self.note(
                node,
                format!("route {src} → {dst} is not symmetrical; hase links carry both directions, routed by shortest path"),
            );
        }
        let line = self.line(node);
        self.explicit.routes.push(RouteSpec { src, dst, links, line });
        Ok(())
    }

    fn cluster(&mut self, node: Node<'_, '_>) -> Result<(), ImportError> {
        if let Some(first) = &self.cluster {
            return Err(ImportError::Unsupported {
                place: self.place(node),
                element: "cluster".into(),
                reason: format!(
                    "a second cluster (the first, `{}`, is at line {}): hase imports one",
                    first.id, first.line
                ),
            });
        }

        for a in node.attributes() {
            if !KNOWN_CLUSTER_ATTRIBUTES.contains(&a.name()) {
                self.note(node, format!("cluster attribute `{}` ignored", a.name()));
            }
        }
        for a in ["availability_file", "state_file"] {
            if node.attribute(a).is_some() {
                self.note(node, format!("{a}: availability and state traces are not modelled"));
            }
        }
        let id = self.required(node, "id")?.to_string();
        let radical = self.required(node, "radical")?;
        let numbers = radical_numbers(radical).map_err(self.cluster_param(node, "radical", radical))?;
        let (prefix, suffix) =
            (node.attribute("prefix").unwrap_or(""), node.attribute("suffix").unwrap_or(""));
        // The longest entity name is checked before any host is named: a long prefix times many
        // hosts is more than any memory.
        if let Some(longest) = numbers.iter().max().map(|n| format!("{prefix}{n}{suffix}")) {
            let entity = instance_name_for_host(&longest);
            if entity.len() > MAX_PATH_BYTES {
                return Err(ImportError::EntityNameTooLong {
                    place: self.place(node),
                    element: "cluster",
                    id: quote(&longest),
                    name: quote(&entity),
                    bytes: entity.len(),
                    limit: MAX_PATH_BYTES,
                });
            }
        }
        let hosts = numbers.iter().map(|n| format!("{prefix}{n}{suffix}")).collect();
        let flops_per_s = self.speed(node)?;
        let bw = self.required(node, "bw")?;
        let bandwidth = self.value(node, "bw", bw, parse_rate)?;
        let lat = self.required(node, "lat")?;
        let latency = self.latency(node, "lat", lat)?;
        let params = node.attribute("topo_parameters").unwrap_or("");
        let topology = match node.attribute("topology").unwrap_or("FLAT") {
            "FLAT" => ClusterTopology::Flat,
            "FAT_TREE" => fat_tree(params).map_err(self.cluster_param(node, "topo_parameters", params))?,
            "TORUS" => ClusterTopology::Torus(numbers_in(params, ',').map_err(self.cluster_param(
                node,
                "topo_parameters",
                params,
            ))?),
            "DRAGONFLY" => dragonfly(params).map_err(self.cluster_param(node, "topo_parameters", params))?,
            other => {
                return Err(ImportError::Unsupported {
                    place: self.place(node),
                    element: "cluster".into(),
                    reason: format!(
                        "topology \"{}\": hase imports FLAT, FAT_TREE, TORUS and DRAGONFLY",
                        quote(other)
                    ),
                });
            }
        };
        let backbone = match (node.attribute("bb_bw"), node.attribute("bb_lat")) {
            (None, None) => None,
            (bw, lat) => {
                let bw = bw.map(|b| self.value(node, "bb_bw", b, parse_rate)).transpose()?;
                let lat = lat.map(|l| self.latency(node, "bb_lat", l)).transpose()?.unwrap_or_default();
                Some((bw, lat))
            }
        };
        let limiter = node
            .attribute("limiter_link")
            .map(|l| self.value(node, "limiter_link", l, parse_rate))
            .transpose()?;
        if node.attribute("loopback_bw").is_some() || node.attribute("loopback_lat").is_some() {
            self.note(
                node,
                "loopback links: a hase processor delivers messages to itself without the network".into(),
            );
        }
        if node.attribute("router_id").is_some() {
            self.note(node, "router_id: the cluster's gateway leads nowhere in a one-cluster import".into());
        }
        let sharing = node.attribute("sharing_policy").map(str::to_string);
        if node.children().any(|c| c.is_element() && c.tag_name().name() != "prop") {
            let child = node.children().find(|c| c.is_element() && c.tag_name().name() != "prop");
            if let Some(child) = child {
                return Err(ImportError::Unsupported {
                    place: self.place(child),
                    element: child.tag_name().name().into(),
                    reason: "a cluster holds <prop> elements only".into(),
                });
            }
        }
        for p in node.children().filter(Node::is_element) {
            self.note(p, format!("cluster property `{}` ignored", p.attribute("id").unwrap_or("?")));
        }
        let line = self.line(node);
        self.cluster = Some(Cluster {
            id,
            line,
            hosts,
            flops_per_s,
            bandwidth,
            latency,
            topology,
            backbone,
            limiter,
            sharing,
        });
        Ok(())
    }
}

/// Cluster attributes hase reads (or notes).
const KNOWN_CLUSTER_ATTRIBUTES: [&str; 20] = [
    "id",
    "prefix",
    "suffix",
    "radical",
    "speed",
    "core",
    "bw",
    "lat",
    "sharing_policy",
    "topology",
    "topo_parameters",
    "bb_bw",
    "bb_lat",
    "bb_sharing_policy",
    "router_id",
    "limiter_link",
    "loopback_bw",
    "loopback_lat",
    "availability_file",
    "state_file",
];

/// `0-15`, `0-3,8,10-11` → the numbers in order.
fn radical_numbers(text: &str) -> Result<Vec<u64>, ClusterParamError> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim) {
        let bad = || ClusterParamError::Radical { part: part.to_string() };
        let (lo, hi) = if let Some((a, b)) = part.split_once('-') {
            (a.trim().parse::<u64>().map_err(|_| bad())?, b.trim().parse::<u64>().map_err(|_| bad())?)
        } else {
            let v = part.parse::<u64>().map_err(|_| bad())?;
            (v, v)
        };
        if hi < lo {
            return Err(bad());
        }
        // Saturating: a range as wide as `0-18446744073709551615` must be refused, not wrap.
        let count = (hi - lo).saturating_add(1);
        if (out.len() as u64).saturating_add(count) > MAX_HOSTS as u64 {
            return Err(ClusterParamError::TooManyHosts { limit: MAX_HOSTS });
        }
        out.extend(lo..=hi);
    }
    Ok(out)
}

fn numbers_in(text: &str, sep: char) -> Result<Vec<u32>, ClusterParamError> {
    text.split(sep)
        .map(|t| {
            t.trim().parse::<u32>().map_err(|_| ClusterParamError::NotWhole { text: t.trim().to_string() })
        })
        .collect()
}

/// `levels;down…;up…;parallel…`.
fn fat_tree(text: &str) -> Result<ClusterTopology, ClusterParamError> {
    let parts: Vec<&str> = text.split(';').collect();
    let [levels, down, up, parallel] = parts.as_slice() else {
        return Err(ClusterParamError::FatTreeParts);
    };
    let h = levels
        .trim()
        .parse::<usize>()
        .map_err(|_| ClusterParamError::FatTreeLevels { text: (*levels).to_string() })?;
    let (down, up, parallel) = (numbers_in(down, ',')?, numbers_in(up, ',')?, numbers_in(parallel, ',')?);
    if h == 0 || [down.len(), up.len(), parallel.len()] != [h; 3] {
        return Err(ClusterParamError::FatTreeCounts { levels: h });
    }
    Ok(ClusterTopology::FatTree { down, up, parallel })
}

/// `groups,links;chassis,links;routers,links;nodes`.
fn dragonfly(text: &str) -> Result<ClusterTopology, ClusterParamError> {
    let parts: Vec<&str> = text.split(';').collect();
    let err = || ClusterParamError::Dragonfly;
    let [groups, chassis, routers, nodes] = parts.as_slice() else { return Err(err()) };
    let pair = |text: &str| match numbers_in(text, ',')?.as_slice() {
        [count, links] => Ok((*count, *links)),
        _ => Err(err()),
    };
    let ((groups, blue), (chassis, black), (routers, green)) =
        (pair(groups)?, pair(chassis)?, pair(routers)?);
    let nodes = nodes.trim().parse::<u32>().map_err(|_| err())?;
    Ok(ClusterTopology::Dragonfly([groups, blue, chassis, black, routers, green, nodes]))
}

/// Read the whole file.
pub(super) fn read_platform(text: &str, file: &str) -> Result<Read, ImportError> {
    if text.len() > MAX_PLATFORM_BYTES {
        return Err(ImportError::TooLarge {
            file: file.into(),
            bytes: text.len(),
            limit: MAX_PLATFORM_BYTES,
        });
    }
    check_entity_budget(text).map_err(|over| ImportError::EntityExpansion {
        file: file.into(),
        entity: quote(&over.entity),
        bytes: over.expanded_bytes,
        limit: MAX_EXPANDED_ENTITY_BYTES,
    })?;
    let options = ParsingOptions { allow_dtd: true, nodes_limit: MAX_NODES, ..ParsingOptions::default() };
    let doc = Document::parse_with_options(text, options).map_err(|source| ImportError::Xml {
        place: FilePlace::at(file, source.pos().row as usize, source.pos().col as usize),
        source,
    })?;
    let root = doc.root_element();
    let mut reader = Reader {
        lines: LineIndex::new(text),
        file,
        notes: Vec::new(),
        cluster: None,
        explicit: Explicit::default(),
    };
    if root.tag_name().name() != "platform" {
        return Err(
            reader.at(root, format!("the root element is <{}>, not <platform>", root.tag_name().name()))
        );
    }
    if let Some(v) = root.attribute("version").filter(|v| !v.starts_with('4')) {
        reader.note(root, format!("platform version {v}: hase reads the 4.x format"));
    }
    reader.walk(root, 0)?;
    let Reader { notes, cluster, explicit, .. } = reader;
    let platform = match cluster {
        Some(c) if explicit.hosts.is_empty() => Platform::Cluster(c),
        Some(c) => {
            let host = &explicit.hosts[0];
            return Err(ImportError::Unsupported {
                place: FilePlace::line(file, host.line as usize),
                element: "host".into(),
                reason: format!(
                    "hosts beside the cluster `{}` (line {}): hase imports one or the other",
                    c.id, c.line
                ),
            });
        }
        None if explicit.hosts.is_empty() => return Err(ImportError::Empty { file: file.into() }),
        None => Platform::Explicit(explicit),
    };
    Ok(Read { platform, notes })
}
