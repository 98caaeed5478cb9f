//! Importers of other tools' descriptions into hase projects: SimGrid platform files.

pub mod simgrid;
