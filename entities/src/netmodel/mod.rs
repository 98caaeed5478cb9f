//! Behavioural network models: a whole network as one entity with the same ports as its detailed
//! structure — the hop-count (contention-free) model and the MPI data-sheet model (fitted equations
//! per MPI function, see `datasheet`; the network behaviour that uses them is `sheet`).

pub mod datasheet;
pub mod hop;
pub mod paths;
pub mod sheet;
