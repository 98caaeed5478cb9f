//! A generated topology before any component is slotted in: switch positions with their topology
//! parameters, processors by rank, links by port position, and the drawing (positions, corners).
//! Each family's descriptor builds a `Plan`; `build.rs` turns it into a network for a chosen
//! component.

use hase_engine::model::{ParamValue, Pos, Routing};

/// Grid pitch between neighbouring routers, in canvas units.
pub(crate) const PITCH: f32 = 140.0;
/// Vertical distance between the lines of a drawing whose processors send and receive on separate
/// ports (the omega network): one processor per line, with room under its body for its name (the
/// editor draws a 64-unit body and the name below it).
pub(crate) const LINE: f32 = 110.0;
/// Where a processor sits beside its router on a grid: up and to the right, clear of the router's
/// 64-unit body (66 units right) yet nearer its own router than any neighbour (less than half a
/// pitch along each axis), with its name between the two rows.
pub(crate) fn processor_beside(router: Pos) -> Pos {
    Pos::new(router.x + 66.0, router.y - 60.0)
}

/// Which way a switch port must carry traffic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PortNeed {
    /// Both ways.
    InOut,
    /// Into the switch.
    Receive,
    /// Out of the switch.
    Send,
}

/// Which processor port a link uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// `net`, both ways.
    Net,
    /// `tx`, processor to switch.
    Tx,
    /// `rx`, switch to processor.
    Rx,
}

impl Role {
    /// The processor's port name.
    pub(crate) fn port(self) -> &'static str {
        match self {
            Role::Net => "net",
            Role::Tx => "tx",
            Role::Rx => "rx",
        }
    }
    /// The outer port of a compound network for rank `rank`.
    pub(crate) fn outer_port(self, rank: usize) -> String {
        match self {
            Role::Net => format!("p{rank}"),
            Role::Tx => format!("tx{rank}"),
            Role::Rx => format!("rx{rank}"),
        }
    }
}

/// One switch position.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SwitchNode {
    /// Instance name (`r_3_1`, `s_l1_2`).
    pub name: String,
    /// Parameters the routing rule reads (`coord`, `stage`, `level`, `index`).
    pub params: Vec<(&'static str, ParamValue)>,
    /// Centre on the canvas.
    pub pos: Pos,
}

/// A link between two switch ports `(switch, port position)`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SwitchLink {
    /// First end.
    pub a: (usize, u16),
    /// Second end.
    pub b: (usize, u16),
    /// Corner points of the drawn line, from `a` to `b`.
    pub corners: Vec<Pos>,
    /// Cables the link stands for: its bandwidth is this many times the template's (SimGrid's
    /// dragonfly link counts).
    pub width: u32,
}

/// A link between processor `rank` and a switch port.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct EndpointLink {
    /// The processor's rank.
    pub rank: usize,
    /// Which processor port.
    pub role: Role,
    /// The switch and port position.
    pub switch: (usize, u16),
    /// Corner points of the drawn line, from the processor to the switch.
    pub corners: Vec<Pos>,
}

/// A topology ready to be materialised.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Plan {
    /// What each switch port position must carry.
    pub port_needs: Vec<PortNeed>,
    /// Switches.
    pub switches: Vec<SwitchNode>,
    /// Processor positions, indexed by rank (named `p{rank}`).
    pub endpoints: Vec<Pos>,
    /// Switch-to-switch links.
    pub switch_links: Vec<SwitchLink>,
    /// Processor-to-switch links.
    pub endpoint_links: Vec<EndpointLink>,
    /// The routing rule.
    pub routing: Routing,
}

impl Plan {
    /// An empty plan whose switches have `ports` bidirectional ports.
    pub(crate) fn new(ports: u32, routing: Routing) -> Self {
        Plan {
            port_needs: vec![PortNeed::InOut; ports as usize],
            switches: Vec::new(),
            endpoints: Vec::new(),
            switch_links: Vec::new(),
            endpoint_links: Vec::new(),
            routing,
        }
    }
    /// Add a switch; returns its index.
    pub(crate) fn switch(
        &mut self,
        name: String,
        params: Vec<(&'static str, ParamValue)>,
        pos: Pos,
    ) -> usize {
        self.switches.push(SwitchNode { name, params, pos });
        self.switches.len() - 1
    }
    /// Link two switch ports.
    pub(crate) fn link(&mut self, a: (usize, u16), b: (usize, u16), corners: Vec<Pos>) {
        self.link_wide(a, b, corners, 1);
    }
    /// Link two switch ports with a link standing for `width` cables.
    pub(crate) fn link_wide(&mut self, a: (usize, u16), b: (usize, u16), corners: Vec<Pos>, width: u32) {
        self.switch_links.push(SwitchLink { a, b, corners, width });
    }
    /// Link processor `rank` to a switch port.
    pub(crate) fn attach(&mut self, rank: usize, role: Role, switch: (usize, u16), corners: Vec<Pos>) {
        self.endpoint_links.push(EndpointLink { rank, role, switch, corners });
    }
    /// The processor name of `rank`.
    pub(crate) fn endpoint_name(rank: usize) -> String {
        format!("p{rank}")
    }
}

/// A corner that bows the straight line from `a` to `b` sideways by `bow` canvas units (to the
/// left of the direction of travel), so links that would run over other icons stay visible.
pub(crate) fn bow(a: Pos, b: Pos, bow: f32) -> Vec<Pos> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    vec![Pos::new(f32::midpoint(a.x, b.x) + dy / len * bow, f32::midpoint(a.y, b.y) - dx / len * bow)]
}
