//! End-to-end tests live in `tests/` of this crate.
