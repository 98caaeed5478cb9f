//! Expected times from a data sheet. When the network runs at its `datasheet` level
//! (`hase_entities::netmodel::sheet`), the model releases every rank of a collective at the last
//! entry plus the sheet's t(p, d), whatever the links' latencies, so all ranks leave each call
//! together and the calls of a loop add up: calls × (t(p, d) + compute). t comes from the sheet's
//! own evaluation, [`DataSheet::collective_time`], the one the model calls.

use std::path::Path;
use std::sync::Arc;

use hase_engine::elaborate::FlatModel;
use hase_engine::model::{AbstractionLevel, Project};
use hase_engine::time::SimTime;
use hase_entities::catalogue::{NETWORK_MODEL, PROCESSOR, ROUTER};
use hase_entities::mpi::kind::CollectiveKind;
use hase_entities::netmodel::datasheet::{self, DataSheet, Estimate};
use hase_entities::netmodel::sheet::sheet_and_band;

use super::no_closed_form::NoClosedForm;

/// The data sheet a whole network runs on.
#[derive(Clone, Debug)]
pub struct SheetNetwork {
    /// The sheet.
    pub sheet: Arc<DataSheet>,
    /// The `sheet` parameter as set (a built-in name or a file).
    pub name: String,
    /// The band's name (`avg`).
    pub band: String,
    /// The band.
    pub estimate: Estimate,
    /// Ranks: the processors attached to it.
    pub processes: u32,
}

/// True if `project` may run on a data sheet: a top-level instance is at its behavioural level or
/// is a network model (only then is the design elaborated to find out).
pub fn may_run_on_a_sheet(project: &Project) -> bool {
    project.network.instances.values().any(|i| i.level == AbstractionLevel::Behavioural)
        || project.network.instances.values().any(|i| {
            project.types.get(&i.type_name).is_some_and(|t| t.behaviour.as_deref() == Some(NETWORK_MODEL))
                || i.params.get("model").and_then(|v| v.as_text()) == Some("datasheet")
        })
}

/// The data sheet `model` runs its whole network on, if it does: one `datasheet` network model
/// and no routers or other network models. A sheet file is read relative to `base_dir`.
pub fn sheet_network(model: &FlatModel, base_dir: &Path) -> Result<Option<SheetNetwork>, NoClosedForm> {
    let models = model.entities.iter().filter(|e| &**e.behaviour() == NETWORK_MODEL).count();
    let sheets: Vec<_> = model.entities.iter().filter_map(sheet_and_band).collect();
    let [(name, band)] = sheets.as_slice() else {
        return if sheets.is_empty() { Ok(None) } else { Err(NoClosedForm::BehaviouralNetwork) };
    };
    if models > 1 || model.entities.iter().any(|e| &**e.behaviour() == ROUTER) {
        return Err(NoClosedForm::BehaviouralNetwork);
    }
    let (name, band) = (name.to_string(), band.to_string());
    let sheet = datasheet::load(&name, base_dir).map_err(|e| NoClosedForm::Sheet(Arc::new(e)))?;
    let estimate = Estimate::from_name(&band).ok_or_else(|| NoClosedForm::UnknownBand(band.clone()))?;
    let processes = model.entities.iter().filter(|e| &**e.behaviour() == PROCESSOR).count() as u32;
    Ok(Some(SheetNetwork { sheet: Arc::new(sheet), name, band, estimate, processes }))
}

impl SheetNetwork {
    /// One call of `operation` with `bytes` per rank on this sheet: t(p, d).
    pub fn call_time(&self, operation: &str, bytes: u64) -> Result<SimTime, NoClosedForm> {
        let kind = CollectiveKind::from_name(operation).ok_or_else(|| NoClosedForm::Collective {
            operation: operation.to_string(),
            algorithm: String::new(),
            topology: "data-sheet".into(),
        })?;
        self.sheet
            .collective_time(kind, self.processes, bytes, self.estimate)
            .map_err(|e| NoClosedForm::Sheet(Arc::new(e)))
    }

    /// The network as the expected line names it (`8 ranks on the cray_t3d sheet, band avg`).
    pub fn describe(&self) -> String {
        format!("{} ranks on the {} data sheet, band {}", self.processes, self.name, self.band)
    }
}
