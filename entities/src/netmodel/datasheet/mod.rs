//! MPI data sheets: the behavioural "data-sheet" network level. A sheet gives, for each MPI
//! function, fitted equations t(p, d) = c + s·startup(p) + k·data(p, d) in microseconds, separate
//! fits for small and large messages, and min/avg/max bands (seed `002`, chapter 3; seed `000`,
//! §3). Sheets are RON files; two ship with hase and are built in: the Cray T3D sheet of the
//! thesis's appendix B and the network-of-workstations model of its chapter 4.
//!
//! See `docs/datasheets.md` for the file format and the judgement calls made in transcribing the
//! published sheets.

mod equation;
mod error;
mod mapping;
mod quality;
mod sheet;

#[cfg(test)]
mod tests;

pub use equation::{DataForm, Equation, LogBase, StartupForm};
pub use error::DataSheetError;
pub use mapping::{PointToPoint, collective_functions, point_to_point_functions};
pub use quality::{FitQuality, MeasuredPoint};
pub use sheet::{Band, DataSheet, Estimate, FunctionFit};

/// Largest sheet file read (a fitted sheet with every measured point is well under 1 MiB).
pub const MAX_SHEET_FILE_BYTES: u64 = 64 << 20;

/// Where a `sheet` parameter value points: a built-in sheet, or a file (relative values are
/// resolved against the project's directory).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SheetSource {
    /// A built-in sheet by name.
    Builtin(&'static str),
    /// A RON file: the parameter value and the path it resolved to.
    File(String, std::path::PathBuf),
}

impl SheetSource {
    /// Resolve a `sheet` parameter value: a built-in name wins; anything else is a path, relative
    /// to `base_dir` unless absolute.
    pub fn resolve(value: &str, base_dir: &std::path::Path) -> Self {
        match BUILTIN.iter().find(|(name, _, _)| *name == value) {
            Some((name, _, _)) => SheetSource::Builtin(name),
            None => SheetSource::File(value.to_string(), base_dir.join(value)),
        }
    }

    /// Read the sheet.
    pub fn load(&self) -> Result<DataSheet, DataSheetError> {
        match self {
            SheetSource::Builtin(name) => builtin(name),
            SheetSource::File(value, path) if !path.exists() => Err(DataSheetError::NotFound {
                value: value.clone(),
                path: path.display().to_string(),
                known: builtin_names().join(", "),
            }),
            SheetSource::File(_, path) => load_file(path),
        }
    }
}

/// Read a sheet from a RON file; errors name the file.
pub fn load_file(path: &std::path::Path) -> Result<DataSheet, DataSheetError> {
    let shown = path.display().to_string();
    let read = |message: String| DataSheetError::Read { path: shown.clone(), message };
    let text = hase_engine::limits::read_capped(path, MAX_SHEET_FILE_BYTES).map_err(|e| read(e.reason()))?;
    from_ron(&text, &shown)
}

/// Load the sheet a `sheet` parameter names (see [`SheetSource::resolve`]).
pub fn load(value: &str, base_dir: &std::path::Path) -> Result<DataSheet, DataSheetError> {
    SheetSource::resolve(value, base_dir).load()
}

/// The built-in sheets: name, file they were transcribed into, text.
const BUILTIN: [(&str, &str, &str); 2] = [
    (
        "cray_t3d",
        "assets/datasheets/cray_t3d.ron",
        include_str!("../../../../assets/datasheets/cray_t3d.ron"),
    ),
    (
        "network_of_workstations",
        "assets/datasheets/network_of_workstations.ron",
        include_str!("../../../../assets/datasheets/network_of_workstations.ron"),
    ),
];

/// Names of the built-in sheets.
pub fn builtin_names() -> Vec<&'static str> {
    BUILTIN.iter().map(|(name, _, _)| *name).collect()
}

/// A built-in sheet by name (`cray_t3d`, `network_of_workstations`).
pub fn builtin(name: &str) -> Result<DataSheet, DataSheetError> {
    let (_, origin, text) = BUILTIN.iter().find(|(n, _, _)| *n == name).ok_or_else(|| {
        DataSheetError::UnknownSheet { name: name.to_string(), known: builtin_names().join(", ") }
    })?;
    from_ron(text, origin)
}

/// Parse and validate a sheet from RON text; `origin` names the source in error messages.
pub fn from_ron(text: &str, origin: &str) -> Result<DataSheet, DataSheetError> {
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let mut sheet: DataSheet = options.from_str(text).map_err(|e| DataSheetError::Syntax {
        place: hase_engine::FilePlace::at(origin, e.span.start.line, e.span.start.col),
        reason: e.code,
    })?;
    sheet.origin = origin.to_string();
    sheet.validate()?;
    Ok(sheet)
}

/// The sheet as RON text that [`from_ron`] reads back to an equal sheet. Equations and measured
/// points are written one per line.
pub fn to_ron(sheet: &DataSheet) -> Result<String, DataSheetError> {
    let config = ron::ser::PrettyConfig::new()
        .extensions(ron::extensions::Extensions::IMPLICIT_SOME)
        .depth_limit(4)
        .indentor("  ".to_string());
    ron::ser::to_string_pretty(sheet, config).map_err(DataSheetError::Write)
}
