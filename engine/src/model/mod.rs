//! The document model: entity types, instances, links, compounds, layout, workload, rank placement
//! and run settings, with RON (de)serialisation and schema versions.

pub mod atomic;
pub mod generator;
pub mod layout;
pub mod lookup;
pub mod network;
pub mod params;
pub mod placement;
pub mod project;
pub mod registry;
pub mod routing;
pub mod schema;
pub mod types;

pub use generator::{GeneratorRecipe, RecipeLink};
pub use layout::{NetworkLayout, ParamDisplay, Pos, ProjectLayout};
pub use lookup::{InstanceIndex, PortLists, SharedPorts};
pub use network::{AbstractionLevel, Instance, Link, Network, PortRef};
pub use params::{ParamDef, ParamError, ParamKind, ParamMap, ParamValue, UnreadableReason};
pub use placement::{Placement, PlacementError, instance_name_for_host};
pub use project::{Project, RunSettings, SCHEMA_VERSION, StreamSource, Workload};
pub use registry::TypeRegistry;
pub use routing::{DownChoice, Routing, UpChoice};
pub use schema::{
    ProjectFileError, load_project, project_from_ron, project_to_ron, save_project, write_atomic,
};
pub use types::{
    CompoundDef, ConcretePort, Direction, EntityType, PortCount, PortCountError, PortDef, PortExport,
};
