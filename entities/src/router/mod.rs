//! Routers and switches: how a packet's output port is chosen (`routing`) and the forwarding
//! behaviour itself — switching, buffers, back-pressure (`switch`).

pub mod routing;
pub mod switch;

#[cfg(test)]
mod output_sharing_tests;
