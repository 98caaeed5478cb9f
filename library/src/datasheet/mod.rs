//! Making MPI data sheets from measurements (seed `002`, chapter 3): raw benchmark rows are
//! summarised into one point per (function, process count, size), each function is fitted with
//! the thesis's equation forms by weighted least squares, and the sheet is written as RON that
//! every data-sheet model reads. `show` prints a sheet (text or JSON) and `report` renders it as a
//! self-contained HTML page with a plot per function; both, and `fit`, give the sheet's `review`
//! (its weaknesses and composed checks).
//!
//! Fitted sheets count d in bytes (`element_bytes: 1`) and use log₂ p. See `docs/datasheets.md`.

mod error;
pub mod forms;
pub mod function;
pub mod lsq;
mod markup;
pub mod raw;
pub mod report;
pub mod review;
pub mod show;
mod svg;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use hase_entities::netmodel::datasheet::DataSheet;

use forms::{FIT_LOG_BASE, FunctionClass};
use raw::{Centre, RawData};

pub use error::{FunctionReason, RawReason, SheetError};

/// What `hase datasheet fit` is asked for.
#[derive(Clone, Debug, Default)]
pub struct SheetOptions {
    /// Sheet name (the network model's `sheet` parameter may also name the file).
    pub name: String,
    /// Split small/large messages here (bytes ≤ split are small); `None` finds one per function.
    pub split_bytes: Option<u64>,
}

/// Make a sheet from `raw`: every function's equations fitted to its measurements.
pub fn make_sheet(raw: &RawData, options: &SheetOptions) -> Result<DataSheet, SheetError> {
    // Repeats timed in a loop are batch means already: their median drops interrupted batches.
    let looped = raw.note("timing") == Some("loop");
    let points = raw::summarise(&raw.rows, |f| match FunctionClass::of(f) {
        _ if looped => Centre::Median,
        FunctionClass::PointToPoint => Centre::MedianOfMeans,
        _ => Centre::Mean,
    });
    let mut functions = BTreeMap::new();
    for (name, points) in &points {
        functions.insert(name.clone(), function::fit_function(name, points, options.split_bytes)?);
    }
    let machine = raw.note("machine").unwrap_or("(not recorded)").to_string();
    let mut notes: Vec<String> = raw.notes.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    notes.push(
        "Fitted by `hase datasheet fit`: weighted least squares of c + s·startup(p) + k·data(p, d), the form \
         with the smallest χ² kept; d in bytes, log base 2, times in µs; min/max bands fitted through the \
         fastest/slowest repeats."
            .into(),
    );
    Ok(DataSheet {
        name: options.name.clone(),
        machine,
        element_bytes: 1,
        small_limit_elements: u64::MAX,
        log_base: FIT_LOG_BASE,
        functions,
        notes,
        origin: String::new(),
    })
}
