//! Routers and switches: how a packet's output port is chosen (`routing`). The router behaviour
//! itself (switching, buffers, back-pressure) lives beside it.

pub mod routing;
