//! The `hase` binary (placeholder until the CLI lands).

fn main() {}
