//! hase-templates: topology generators. A template turns a topology and its dimensions, plus the
//! components slotted into its switch and processor positions, into entities, links, a readable
//! layout and the routing rule the routers follow (conventions: `hase_engine::model::routing`).
//!
//! - [`Topology`]: linear array, ring, 2D mesh, 2D/3D torus, hypercube, omega, binary tree, fat tree
//!   (k-ary n-tree), SimGrid's parallel generalised fat tree and dragonfly; each a family
//!   descriptor in `topology/` registered in one list ([`families`], [`family_named`]), which
//!   gives its names and `--dims` syntax, size checks, closed-form [`TopologyCounts`], plan and
//!   layout, routing rule, GUI label and docs line.
//! - [`generate`]: a flat network; [`generate_compound`]: a compound network type whose outer ports
//!   stand where processors attach and whose behavioural level is the network model;
//!   [`template_project`]: a whole project in either form; [`compatible_components`]: which types
//!   of a registry fit a topology's positions; [`regenerate`]: a project's network again from the
//!   generator recipe it recorded, with other dimensions or another topology; [`expand`] and
//!   [`compact`]: a project whose network is stored as its recipe (with per-position overrides)
//!   and back.

mod build;
mod error;
mod family;
mod generated;
mod grid;
mod parse;
mod plan;
mod position_overrides;
mod project;
mod recipe;
mod slot;
mod spec;
mod topology;
mod tree;

#[cfg(test)]
mod checks;

pub use build::{Generated, generate, generate_compound};
pub use error::TemplateError;
pub use family::{FamilyInfo, TopologyCounts};
pub use generated::{compact, expand};
pub use parse::{MAX_ENDPOINTS, families, family_named};
pub use project::{FABRIC, ProjectForm, template_project};
pub use recipe::regenerate;
pub use slot::{Compatible, compatible_components};
pub use spec::{LinkParams, TemplateSpec};
pub use topology::Topology;
