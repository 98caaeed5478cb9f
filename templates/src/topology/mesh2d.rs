//! A 2D mesh: routers on an X × Y grid, one processor on each (`--template mesh2d`). Routing, counts
//! and drawing are the grid families' (`crate::grid`).

use crate::family::FamilyInfo;
use crate::grid::GridFamily;

/// The `mesh2d` family.
pub(crate) const MESH2D: GridFamily = GridFamily {
    info: FamilyInfo {
        name: "mesh2d",
        aliases: &["mesh", "mesh_2d", "2d_mesh"],
        title: "2D mesh",
        dims_help: "XxY: columns x rows, e.g. 4x4",
        example_dims: "4x4",
        short_name: "mesh",
        docs: "`mesh2d`: routers on an X × Y grid with a processor each; dimension-order (XY) routing.",
    },
    extents: 2,
    wrap: false,
    circle: false,
    type_prefix: "Mesh2D",
    noun: "2D mesh",
};
