//! A ring: a line of routers closed into a circle, one processor on each (`--template ring`). Routing,
//! counts and drawing are the grid families' (`crate::grid`).

use crate::family::FamilyInfo;
use crate::grid::GridFamily;

/// The `ring` family.
pub(crate) const RING: GridFamily = GridFamily {
    info: FamilyInfo {
        name: "ring",
        aliases: &[],
        title: "Ring",
        dims_help: "N: number of nodes, e.g. 8",
        example_dims: "8",
        short_name: "ring",
        docs: "`ring`: N routers in a circle with a processor each; dimension-order routing the shorter \
               way round.",
    },
    extents: 1,
    wrap: true,
    circle: true,
    type_prefix: "Ring",
    noun: "ring",
};
