//! hase-library: catalogue and persistence.

pub mod store;
