//! Where an imported project pays a route's latency: on each link, packet by packet (hase's packet
//! model, the default), or once per message at the sending network interface (SimGrid's flow
//! model, `--latency flow`).

/// Where a message pays its route's latency in the imported project.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LatencyModel {
    /// Each link carries the platform's latency, paid by every packet as it crosses the link
    /// (hase's packet model).
    #[default]
    Links,
    /// Links carry no latency; the network interface holds each message for its whole route's
    /// latency before its first packet leaves, and interfaces and routers share links in inverse
    /// proportion to route latency (SimGrid's flow model and its max-min sharing). Clusters only.
    Flow,
}

impl LatencyModel {
    /// Every model's name (`--latency`), the default first.
    pub const NAMES: [&'static str; 2] = ["links", "flow"];

    /// The model a name names.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "links" => Some(LatencyModel::Links),
            "flow" => Some(LatencyModel::Flow),
            _ => None,
        }
    }
}
