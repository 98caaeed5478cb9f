//! Routers and switches: how a packet's output port is chosen (`routing`), the links a packet's
//! route crosses, walked outside a run (`route_walk`), and the forwarding behaviour itself —
//! switching, buffers, back-pressure (`switch`).

pub mod route_walk;
pub mod routing;
pub mod switch;

#[cfg(test)]
mod output_sharing_tests;
