//! What a topology family is: the [`Family`] descriptor each family file implements (its name and
//! `--dims` syntax, size checks, closed-form counts, plan and layout, the routing rule it uses, GUI
//! label and docs line), the closed-form [`TopologyCounts`] it reports, and the small helpers the
//! descriptors share for reading dimensions.
//!
//! A descriptor sees a topology only as its canonical dimensions: the numbers `--dims` is read into
//! and a generator recipe stores (`[4, 4]` for a 4×4 torus, the processor count of an omega network).

use hase_engine::model::{DownChoice, Routing, UpChoice};
use serde::{Deserialize, Serialize};

use crate::error::TemplateError;
use crate::plan::Plan;

/// Sizes of a topology, from closed forms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopologyCounts {
    /// Routers or switches.
    pub switches: u64,
    /// Processors.
    pub endpoints: u64,
    /// Links between two switches.
    pub switch_links: u64,
    /// Links between a processor and a switch (two per processor on an omega network).
    pub endpoint_links: u64,
}

impl TopologyCounts {
    /// All links.
    pub fn links(&self) -> u64 {
        self.switch_links + self.endpoint_links
    }
}

/// The words a family is known by and shown with.
#[derive(Debug)]
pub struct FamilyInfo {
    /// Template name, as `hase new --template` takes it and generator recipes store it
    /// (`torus2d`).
    pub name: &'static str,
    /// Other names accepted for it, lower case with `_` between words (`torus`, `2d_torus`).
    pub aliases: &'static [&'static str],
    /// Menu text in the GUI (`2D torus`).
    pub title: &'static str,
    /// What `--dims` means (`XxY: columns x rows, e.g. 4x4`).
    pub dims_help: &'static str,
    /// Dimensions the GUI offers when the family is picked (`4x4`).
    pub example_dims: &'static str,
    /// Start of the names the editor gives the instances it inserts (`torus` → `torus1_r_0_0`).
    pub short_name: &'static str,
    /// One line for the documentation: what the family is and which routing rule it uses.
    pub docs: &'static str,
}

/// A topology family. Every `dims` argument holds canonical dimensions (see the module
/// documentation), already checked by [`Family::read_dims`] and [`Family::check`] unless a method
/// says otherwise; sizes saturate rather than overflow.
pub(crate) trait Family: Sync {
    /// Its names, help and labels.
    fn info(&self) -> &FamilyInfo;

    /// Canonical dimensions from the numbers typed after `--dims`, or why they do not fit the
    /// family's syntax (a shorthand is expanded here).
    fn read_dims(&self, dims: &[u32]) -> Result<Vec<u32>, TemplateError>;

    /// The family's own size rules, checked before the limits every template shares (at least two
    /// processors, at most [`crate::MAX_ENDPOINTS`], switch radices a port index can address).
    /// `dims` have the right length but are otherwise unchecked. None by default.
    fn check(&self, _dims: &[u32]) -> Result<(), TemplateError> {
        Ok(())
    }

    /// Switches, processors and links, without generating anything.
    fn counts(&self, dims: &[u32]) -> TopologyCounts;

    /// Ports each switch needs (positions `0..n`; see `hase_engine::model::routing`).
    fn switch_ports(&self, dims: &[u32]) -> u32;

    /// True if processors need separate transmit and receive ports (`tx`, `rx`) and switches
    /// receive on ports 0 and 1 and send on 2 and 3.
    fn split_endpoints(&self) -> bool {
        false
    }

    /// The routing rule of the generated network, with the up-link choice of fat trees and the
    /// down-link choice among the parallel cables of a PGFT (families without them ignore them).
    fn routing(&self, dims: &[u32], up_choice: UpChoice, down_choice: DownChoice) -> Routing;

    /// Switches, processors, links and their drawing.
    fn plan(&self, dims: &[u32], routing: Routing) -> Plan;

    /// The dimensions as `--dims` text (`4x4`, `2,3`).
    fn dims_text(&self, dims: &[u32]) -> String {
        join(dims, "x")
    }

    /// A type name for the compound network type (`Torus2D_4x4`).
    fn type_name(&self, dims: &[u32]) -> String;

    /// A phrase for descriptions and dialogs (`4×4 2D torus`).
    fn describe(&self, dims: &[u32]) -> String;

    /// Links a packet crosses from processor `source` to processor `destination` under the
    /// family's routing rule, processor links included (a closed form the tests hold the routes to).
    fn route_links(&self, dims: &[u32], source: u32, destination: u32) -> u64;
}

/// Numbers joined by `separator` (`4x4`, `1,2`).
pub(crate) fn join(numbers: &[u32], separator: &str) -> String {
    numbers.iter().map(u32::to_string).collect::<Vec<_>>().join(separator)
}

/// Dimensions that do not make a network of the family called `template`.
pub(crate) fn dims_error(template: &'static str, reason: impl Into<String>) -> TemplateError {
    TemplateError::Dimensions { template, reason: reason.into() }
}

/// Exactly `N` numbers, or the family's `--dims` help as the reason.
pub(crate) fn exactly<const N: usize>(info: &FamilyInfo, dims: &[u32]) -> Result<[u32; N], TemplateError> {
    <[u32; N]>::try_from(dims).map_err(|_| wrong_count(info, dims))
}

/// The error for numbers that do not fit the family's `--dims` syntax.
pub(crate) fn wrong_count(info: &FamilyInfo, dims: &[u32]) -> TemplateError {
    dims_error(info.name, format!("expected {}, got {dims:?}", info.dims_help))
}

/// The dimensions of a family sized by one power-of-two processor count (`--dims 8`).
pub(crate) fn read_power_of_two(info: &FamilyInfo, dims: &[u32]) -> Result<Vec<u32>, TemplateError> {
    let [processors] = exactly(info, dims)?;
    if processors.is_power_of_two() && processors >= 2 {
        Ok(vec![processors])
    } else {
        Err(dims_error(info.name, format!("{processors} processors is not a power of two ≥ 2")))
    }
}

/// `log2` of such a family's processor count: its stages or levels (0 for fewer than 2).
pub(crate) fn log2_of_processors(dims: &[u32]) -> u32 {
    dims[0].checked_ilog2().unwrap_or(0)
}
