//! Routers and switches: the forwarding behaviour and (with the templates) the routing rules.

pub mod switch;
