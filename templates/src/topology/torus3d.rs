//! A 3D torus: routers on an X × Y × Z grid with wrap-around links in every dimension (`--template
//! torus3d`). Routing, counts and drawing are the grid families' (`crate::grid`).

use crate::family::FamilyInfo;
use crate::grid::GridFamily;

/// The `torus3d` family.
pub(crate) const TORUS3D: GridFamily = GridFamily {
    info: FamilyInfo {
        name: "torus3d",
        aliases: &["torus_3d", "3d_torus"],
        title: "3D torus",
        dims_help: "XxYxZ, e.g. 4x4x4",
        example_dims: "4x4x2",
        short_name: "torus3d",
        docs: "`torus3d`: an X × Y × Z grid with wrap-around links; dimension-order routing the shorter \
               way round.",
    },
    extents: 3,
    wrap: true,
    circle: false,
    type_prefix: "Torus3D",
    noun: "3D torus",
};
