//! Behavioural network models: the levels a network compound can be simulated at instead of its
//! inner routers and links. `datasheet` holds the MPI data sheets (fitted equations per MPI
//! function) that the data-sheet level evaluates.

pub mod datasheet;
