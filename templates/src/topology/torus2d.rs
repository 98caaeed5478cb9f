//! A 2D torus: the 2D mesh with wrap-around links in both dimensions (`--template torus2d`). Routing,
//! counts and drawing are the grid families' (`crate::grid`).

use crate::family::FamilyInfo;
use crate::grid::GridFamily;

/// The `torus2d` family.
pub(crate) const TORUS2D: GridFamily = GridFamily {
    info: FamilyInfo {
        name: "torus2d",
        aliases: &["torus", "torus_2d", "2d_torus"],
        title: "2D torus",
        dims_help: "XxY: columns x rows, e.g. 4x4",
        example_dims: "4x4",
        short_name: "torus",
        docs: "`torus2d`: an X × Y grid with wrap-around links; dimension-order routing the shorter way \
               round.",
    },
    extents: 2,
    wrap: true,
    circle: false,
    type_prefix: "Torus2D",
    noun: "2D torus",
};
