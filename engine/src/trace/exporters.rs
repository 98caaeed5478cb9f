//! The trace exporters, one file each (`chrome`, `paraver`, `otf2`, `vcd`, `fst`), registered in one list. Adding a
//! format is its file (with its `EXPORTER`) and one line here; `hase trace export --format` takes
//! its choices and their help from this list.

use super::exporter::Exporter;
use super::{chrome, fst, otf2, paraver, vcd};

/// Every export format, in the order `--format` lists them.
pub const EXPORTERS: &[Exporter] =
    &[chrome::EXPORTER, paraver::EXPORTER, otf2::EXPORTER, vcd::EXPORTER, fst::EXPORTER];

/// The exporter called `name`.
pub fn exporter(name: &str) -> Option<&'static Exporter> {
    EXPORTERS.iter().find(|e| e.name == name)
}
