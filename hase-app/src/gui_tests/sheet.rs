//! Workflow tests of the data-sheet parameter: choose a built-in sheet from its menu, open the
//! viewer on a built-in sheet and on a sheet file beside the project, and read the calculator.

use egui::Modifiers;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use hase_engine::model::ParamValue;
use hase_entities::netmodel::datasheet::{
    self, Band, DataForm, Equation, FunctionFit, MeasuredPoint, StartupForm,
};

use super::{harness_on, settle};
use crate::app::{App, StartOptions};

fn select_net0() -> Harness<'static, App> {
    let mut app = App::new(StartOptions::default());
    app.editor.replace_project(hase_editor::fixtures::demo_project(), None);
    let mut h = harness_on(app);
    let at = {
        let app = h.state();
        app.canvas.screen_pos_of(&app.editor, "net0").unwrap()
    };
    h.hover_at(at);
    h.step();
    h.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.step();
    h.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    settle(&mut h);
    assert!(h.state().editor.selection.instances.contains("net0"));
    h
}

fn sheet_value(h: &Harness<'_, App>) -> Option<ParamValue> {
    h.state().editor.doc.project.network.instances["net0"].params.get("sheet").cloned()
}

#[test]
fn choose_a_built_in_sheet_from_the_menu_and_view_it() {
    let mut h = select_net0();
    h.get_by_label("Built-in").click();
    settle(&mut h);
    h.get_by_label("network_of_workstations").click();
    settle(&mut h);
    assert_eq!(sheet_value(&h), Some(ParamValue::Text("network_of_workstations".into())));

    h.get_by_label("View…").click();
    settle(&mut h);
    let viewer = &h.state().windows.sheet_viewer;
    assert!(viewer.open && viewer.source == "network_of_workstations");
    assert!(h.query_by_label_contains("8 Sun SPARCstation 5 workstations").is_some());

    // The calculator: bcast over 8 processes of 1 KiB = 2000 + 700·64 + 1·8·256 µs on every band.
    let viewer = &mut h.state_mut().windows.sheet_viewer;
    viewer.function = "bcast".into();
    viewer.procs = 8;
    viewer.size_text = "1K".into();
    settle(&mut h);
    assert!(
        h.query_by_label_contains("min 48848.000 µs   avg 48848.000 µs   max 48848.000 µs").is_some(),
        "the calculator shows the sheet's times"
    );
    h.state_mut().windows.sheet_viewer.size_text = "lots".into();
    settle(&mut h);
    assert!(h.query_by_label_contains("lots").is_some(), "a size that does not read is explained");
}

/// A small fitted-looking sheet with measured points at p = 2 and 4.
fn fitted_sheet() -> datasheet::DataSheet {
    let avg = Equation {
        constant_us: 5.0,
        startup_coeff: 1.0,
        startup: StartupForm::P,
        data_coeff: 0.01,
        data: DataForm::D,
    };
    let band = Band {
        min: Equation { constant_us: 4.0, ..avg },
        avg,
        max: Equation { constant_us: 7.0, ..avg },
        goodness_of_fit: Some(0.5),
        fit: None,
    };
    let measured = [2u32, 4]
        .iter()
        .flat_map(|p| {
            [0u64, 1024, 65_536].map(|d| {
                let t = avg.eval(f64::from(*p), d as f64, datasheet::LogBase::Two);
                MeasuredPoint {
                    procs: *p,
                    bytes: d,
                    min_us: t - 1.0,
                    avg_us: t,
                    max_us: t + 2.0,
                    err_us: 0.1,
                    repeats: 5,
                }
            })
        })
        .collect();
    let mut fit = FunctionFit::single(band);
    fit.measured = measured;
    datasheet::DataSheet {
        name: "mine".into(),
        machine: "test machine".into(),
        element_bytes: 1,
        small_limit_elements: u64::MAX,
        log_base: datasheet::LogBase::Two,
        functions: [("bcast".to_string(), fit)].into_iter().collect(),
        notes: vec![],
        origin: String::new(),
    }
}

#[test]
fn a_sheet_file_beside_the_project_opens_in_the_viewer() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mine.ron"), datasheet::to_ron(&fitted_sheet()).unwrap()).unwrap();
    let mut h = select_net0();
    h.state_mut().editor.file = Some(dir.path().join("project.ron"));
    // The path field keeps room for a path beside its buttons (they sit under it).
    let (field, view) = (h.get_by_label("sheet").rect(), h.get_by_label("View…").rect());
    assert!(field.width() >= 80.0 && view.top() >= field.bottom(), "field {field:?}, View… {view:?}");
    // Typed into the field as a user would, then viewed.
    h.get_by_label("sheet").focus();
    settle(&mut h);
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("sheet").type_text("mine.ron");
    h.key_press(egui::Key::Enter);
    settle(&mut h);
    assert_eq!(sheet_value(&h), Some(ParamValue::Text("mine.ron".into())));
    h.get_by_label("View…").click();
    settle(&mut h);
    let viewer = &h.state().windows.sheet_viewer;
    assert!(
        matches!(&viewer.sheet, Some(Ok(s)) if s.name == "mine"),
        "{:?}",
        viewer.sheet.as_ref().map(|s| s.as_ref().err())
    );
    // It starts on the sheet's function at its largest measured process count.
    assert_eq!((viewer.function.as_str(), viewer.procs), ("bcast", 4));
    // 1 KiB at p = 4: min 4 + 4 + 10.24, avg 5 + 4 + 10.24, max 7 + 4 + 10.24.
    assert!(h.query_by_label_contains("min 18.240 µs   avg 19.240 µs   max 21.240 µs").is_some());

    // A missing file is reported in the window, not a crash.
    h.state_mut().windows.sheet_viewer.open("gone.ron", dir.path());
    settle(&mut h);
    assert!(h.query_by_label_contains("Cannot read the sheet: no built-in data sheet `gone.ron`").is_some());
}
