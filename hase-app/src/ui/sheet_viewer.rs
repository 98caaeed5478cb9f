//! The data-sheet viewer, opened from a network model's `sheet` parameter (View…): the sheet's
//! name and provenance, a plot of t against d for a chosen function and process count — the
//! fitted curve, its min–max band and the measured points — and a calculator (function, p, d →
//! min/avg/max). State apart from drawing: [`SheetViewer::open`] loads the sheet, the window only
//! reads it.

use std::path::Path;

use egui::{RichText, Ui};
use egui_plot::{FilledArea, GridMark, Legend, Line, Plot, PlotPoints, Points};
use hase_entities::netmodel::datasheet::{self, DataSheet, DataSheetError, Estimate};

use crate::theme::Palette;

/// Sizes plotted without measurements: 1 B … 1 MiB.
const DEFAULT_MAX_BYTES: f64 = 1_048_576.0;

/// The viewer's state.
#[derive(Default)]
pub struct SheetViewer {
    /// Shown.
    pub open: bool,
    /// The `sheet` value it was opened for (a built-in name or a path).
    pub source: String,
    /// The sheet, or why it could not be read.
    pub sheet: Option<Result<DataSheet, DataSheetError>>,
    /// Function plotted and calculated.
    pub function: String,
    /// Process count plotted and calculated.
    pub procs: u32,
    /// Calculator: the message size as typed (`64K`).
    pub size_text: String,
}

/// The calculator's answer: min, avg and max in µs, or why not.
pub type Calculation = Result<[f64; 3], CalculationError>;

/// Why the calculator has no answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CalculationError {
    /// No sheet is open.
    #[error("no sheet")]
    NoSheet,
    /// The size typed is not a size.
    #[error("cannot read `{0}` as a size (e.g. 0, 512, 64K, 1M)")]
    Size(String),
    /// The sheet has no figure for this function, process count or size.
    #[error(transparent)]
    Sheet(#[from] DataSheetError),
}

impl SheetViewer {
    /// Open the viewer on a `sheet` parameter value, resolving a path against `base_dir` (the
    /// project's directory), as the simulator does.
    pub fn open(&mut self, source: &str, base_dir: &Path) {
        let sheet = datasheet::load(source, base_dir);
        if let Ok(s) = &sheet {
            if !s.functions.contains_key(&self.function) {
                self.function = s.functions.keys().next().cloned().unwrap_or_default();
            }
            let measured = s.functions.get(&self.function).and_then(|f| f.measured.last()).map(|m| m.procs);
            self.procs = measured.unwrap_or(if self.procs == 0 { 4 } else { self.procs });
        }
        if self.size_text.is_empty() {
            self.size_text = "1K".into();
        }
        self.source = source.to_string();
        self.sheet = Some(sheet);
        self.open = true;
    }

    /// min/avg/max of the chosen function for the chosen p and the typed size.
    pub fn calculate(&self) -> Calculation {
        let Some(Ok(sheet)) = &self.sheet else { return Err(CalculationError::NoSheet) };
        let bytes = hase_engine::units::parse_size(&self.size_text)
            .map_err(|_| CalculationError::Size(self.size_text.trim().to_string()))?;
        let mut out = [0.0; 3];
        for (slot, e) in out.iter_mut().zip([Estimate::Min, Estimate::Avg, Estimate::Max]) {
            *slot = sheet.time_us(&self.function, self.procs, bytes, e)?.max(0.0);
        }
        Ok(out)
    }

    /// Show the window (if open).
    pub fn show(&mut self, ctx: &egui::Context, palette: &Palette) {
        if !self.open {
            return;
        }
        let mut open = self.open;
        egui::Window::new("Data sheet")
            .open(&mut open)
            .default_size([620.0, 520.0])
            .resizable(true)
            .show(ctx, |ui| self.contents(ui, palette));
        self.open = open;
    }

    fn contents(&mut self, ui: &mut Ui, palette: &Palette) {
        let sheet = match &self.sheet {
            Some(Ok(sheet)) => sheet.clone(),
            Some(Err(e)) => {
                ui.colored_label(palette.error, format!("Cannot read the sheet: {e}"));
                return;
            }
            None => return,
        };
        ui.label(RichText::new(format!("{} — {}", sheet.name, self.source)).strong());
        ui.weak(&sheet.machine);
        ui.horizontal(|ui| {
            ui.label("function");
            egui::ComboBox::from_id_salt("sheet-function").selected_text(&self.function).show_ui(ui, |ui| {
                for name in sheet.functions.keys() {
                    ui.selectable_value(&mut self.function, name.clone(), name);
                }
            });
            ui.label("processes p");
            ui.add(egui::DragValue::new(&mut self.procs).range(1..=65_536));
        });
        plot(ui, &sheet, &self.function, self.procs, palette);
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("Calculator: d =");
            ui.add(egui::TextEdit::singleline(&mut self.size_text).desired_width(80.0).id_salt("sheet-size"));
            match self.calculate() {
                Ok([min, avg, max]) => {
                    ui.label(format!("min {min:.3} µs   avg {avg:.3} µs   max {max:.3} µs"));
                }
                Err(e) => {
                    ui.colored_label(palette.error, e.to_string());
                }
            }
        });
        ui.weak(format!(
            "t({}, d) for {} with p = {}; sizes in bytes, the x axis is logarithmic",
            self.procs, self.function, self.procs
        ));
    }
}

/// x position of a size: log10 of the bytes (0 B drawn at 1 B).
fn x_of(bytes: f64) -> f64 {
    bytes.max(1.0).log10()
}

fn plot(ui: &mut Ui, sheet: &DataSheet, function: &str, procs: u32, palette: &Palette) {
    let Some(fit) = sheet.functions.get(function) else { return };
    let max_bytes = fit.measured.iter().map(|m| m.bytes as f64).fold(0.0, f64::max);
    let max_bytes = if max_bytes > 0.0 { max_bytes } else { DEFAULT_MAX_BYTES };
    let xs: Vec<f64> = (0..=120).map(|i| max_bytes.powf(f64::from(i) / 120.0)).collect();
    let at = |bytes: f64, e: Estimate| {
        sheet.time_us(function, procs, bytes.round() as u64, e).unwrap_or(0.0).max(0.0)
    };
    let lx: Vec<f64> = xs.iter().map(|b| x_of(*b)).collect();
    let lo: Vec<f64> = xs.iter().map(|b| at(*b, Estimate::Min)).collect();
    let hi: Vec<f64> = xs.iter().map(|b| at(*b, Estimate::Max)).collect();
    let avg: Vec<[f64; 2]> = xs.iter().map(|b| [x_of(*b), at(*b, Estimate::Avg)]).collect();
    let measured: Vec<[f64; 2]> =
        fit.measured.iter().filter(|m| m.procs == procs).map(|m| [x_of(m.bytes as f64), m.avg_us]).collect();
    let spread: Vec<[f64; 2]> = fit
        .measured
        .iter()
        .filter(|m| m.procs == procs)
        .flat_map(|m| [[x_of(m.bytes as f64), m.min_us], [x_of(m.bytes as f64), m.max_us]])
        .collect();
    let band = crate::theme::band_of(palette.accent);
    Plot::new("sheet-plot")
        .height(300.0)
        .legend(Legend::default())
        .x_axis_label("message size d (bytes)")
        .y_axis_label("time (µs)")
        .x_axis_formatter(|mark: GridMark, _| size_label(10f64.powf(mark.value)))
        .show(ui, |plot| {
            plot.add(FilledArea::new("min–max", &lx, &lo, &hi).fill_color(band));
            plot.line(Line::new("fitted (avg)", PlotPoints::from(avg)).color(palette.accent));
            if !measured.is_empty() {
                plot.points(
                    Points::new("measured", PlotPoints::from(measured)).color(palette.warning).radius(3.0),
                );
                plot.points(
                    Points::new("fastest / slowest", PlotPoints::from(spread))
                        .color(palette.text_dim)
                        .radius(1.5),
                );
            }
        });
}

/// `4K`, `1M`, `300` for an axis tick.
fn size_label(bytes: f64) -> String {
    let b = bytes.round();
    if b >= 1_048_576.0 {
        format!("{}M", (b / 1_048_576.0 * 10.0).round() / 10.0)
    } else if b >= 1024.0 {
        format!("{}K", (b / 1024.0 * 10.0).round() / 10.0)
    } else {
        format!("{b}")
    }
}
