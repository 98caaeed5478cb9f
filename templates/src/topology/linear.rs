//! A linear array: a line of routers, one processor on each (`--template linear`). Routing, counts and
//! drawing are the grid families' (`crate::grid`).

use crate::family::FamilyInfo;
use crate::grid::GridFamily;

/// The `linear` family.
pub(crate) const LINEAR: GridFamily = GridFamily {
    info: FamilyInfo {
        name: "linear",
        aliases: &["linear_array", "line", "array"],
        title: "Linear array",
        dims_help: "N: number of nodes, e.g. 8",
        example_dims: "8",
        short_name: "lin",
        docs: "`linear`: a line of N routers with a processor each; dimension-order routing.",
    },
    extents: 1,
    wrap: false,
    circle: false,
    type_prefix: "Linear",
    noun: "linear array",
};
