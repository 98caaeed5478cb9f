//! Workflow tests of the project library in the GUI (a sled store in a temporary directory,
//! opened and used on worker threads): save and reopen equal, open an earlier version from the
//! browser, the recovery offer after an unclean exit, autosave and its discard, and the message
//! when another process holds the database.

use super::wait_for;
use std::time::Duration;

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use hase_engine::model::{Instance, Pos, Project};
use hase_library::import::simgrid::LatencyModel;
use hase_library::store::ProjectStore;

use super::{harness_on, settle};
use crate::actions::AppAction;
use crate::app::{App, StartOptions};
use hase_editor::command::EditCommand;
use hase_editor::document::NetworkId;
use hase_editor::project_store::{LibraryLocation, LibraryStatus};

fn app_in(dir: &std::path::Path) -> App {
    App::new(StartOptions { library: LibraryLocation::Dir(dir.to_path_buf()), ..StartOptions::default() })
}

/// Step frames until `done` holds (worker threads report through the task channel).
fn library_open(app: &App) -> bool {
    matches!(app.library.status, LibraryStatus::Open(_))
}

fn add_processor(h: &mut Harness<'_, App>, name: &str) {
    assert!(h.state_mut().editor.run(EditCommand::AddInstance {
        net: NetworkId::Top,
        name: name.into(),
        instance: Instance::of("Processor"),
        pos: Pos::new(0.0, 900.0),
        displayed: std::collections::BTreeMap::new(),
    }));
    settle(h);
}

#[test]
fn save_then_reopen_equal_and_open_an_earlier_version() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness_on(app_in(dir.path()));
    wait_for(&mut h, "the library to open", library_open);
    let name = h.state().editor.doc.project.name.clone();
    assert_eq!(name, "Allreduce on a fat tree");
    add_processor(&mut h, "extra0");
    assert_eq!(h.state().title(), format!("{name} * — hase"));
    // The first save of a project not in the library asks its name; Enter confirms it.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    settle(&mut h);
    assert!(h.query_by_label("Save to the library").is_some(), "the first Ctrl+S asks a name");
    assert!(h.state().editor.is_dirty(), "nothing is saved before the name is confirmed");
    h.key_press(Key::Enter);
    wait_for(&mut h, "the first save", |app| !app.editor.is_dirty());
    assert!(h.state().windows.save_as.is_none());
    assert_eq!(h.state().title(), format!("{name} — hase"));
    let first = h.state().editor.doc.project.clone();
    add_processor(&mut h, "extra1");
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    wait_for(&mut h, "the second save", |app| !app.editor.is_dirty());
    let second = h.state().editor.doc.project.clone();
    assert_eq!(h.state().library.version, Some((name.clone(), 2)));

    // Start afresh, then open the newest version from the browser: equal to what was saved.
    h.state_mut().perform(&egui::Context::default(), AppAction::NewProject);
    settle(&mut h);
    assert_eq!(h.state().editor.doc.project.name, "untitled");
    let ctx = h.ctx.clone();
    h.state_mut().perform(&ctx, AppAction::Open);
    wait_for(&mut h, "the project list", |app| app.windows.browser.list.is_some());
    assert!(h.query_by_label_contains("Database: ").is_some());
    h.get_by_label(&name).click();
    wait_for(&mut h, "the history", |app| app.windows.browser.history.is_some());
    assert!(h.query_by_label("Open v1").is_some() && h.query_by_label("Open v2").is_some());
    h.get_by_label("Open").click();
    wait_for(&mut h, "the newest version", |app| app.editor.doc.project.name == name);
    assert_eq!(h.state().editor.doc.project, second, "the reopened project equals the saved one");
    assert!(!h.state().editor.is_dirty());

    // An earlier version, from the history list.
    h.state_mut().perform(&ctx, AppAction::Open);
    wait_for(&mut h, "the history again", |app| app.windows.browser.history.is_some());
    h.get_by_label("Open v1").click();
    wait_for(&mut h, "version 1", |app| app.library.version == Some((name.clone(), 1)));
    assert_eq!(h.state().editor.doc.project, first);
    assert!(!h.state().editor.doc.project.network.instances.contains_key("extra1"));
}

#[test]
fn recovery_is_offered_after_an_unclean_exit() {
    let dir = tempfile::tempdir().unwrap();
    let mut lost = Project::new("lost work");
    lost.description = "edited, autosaved, never saved".into();
    lost.network.instances.insert("p0".into(), Instance::of("Processor"));
    {
        // A session that autosaved and then died.
        let store = ProjectStore::open(dir.path()).unwrap();
        store.autosave(&lost).unwrap();
    }
    let mut h = harness_on(app_in(dir.path()));
    wait_for(&mut h, "the recovery offer", |app| !app.library.recovery.is_empty());
    assert!(h.query_by_label("Recover unsaved work?").is_some());
    assert!(h.query_by_label_contains("never saved to the library").is_some());
    h.get_by_label("Restore").click();
    settle(&mut h);
    let app = h.state();
    assert_eq!(app.editor.doc.project.name, "lost work");
    assert_eq!(app.editor.doc.project.description, lost.description);
    assert!(app.editor.doc.project.network.instances.contains_key("p0"));
    assert!(app.editor.is_dirty(), "restored work is still unsaved");
    assert_eq!(app.title(), "lost work * — hase");
    // Saving it (its first save to the library: named, Enter confirms) clears the recovery record.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    settle(&mut h);
    h.key_press(Key::Enter);
    wait_for(&mut h, "the save", |app| !app.editor.is_dirty());
    let store = h.state().library.store().unwrap().clone();
    assert_eq!(store.recovery_for("lost work").unwrap(), None);
}

#[test]
fn autosave_writes_the_recovery_slot_and_discarding_on_quit_drops_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness_on(app_in(dir.path()));
    wait_for(&mut h, "the library to open", library_open);
    h.state_mut().library.interval = Duration::ZERO;
    add_processor(&mut h, "extra0");
    let store = h.state().library.store().unwrap().clone();
    let name = h.state().editor.doc.project.name.clone();
    wait_for(&mut h, "the autosave", |_| store.recovery_for(&name).unwrap().is_some());
    let autosaved = store.recovery_for(&name).unwrap().unwrap();
    assert!(autosaved.project.network.instances.contains_key("extra0"));
    assert_eq!(autosaved.based_on_version, None);
    // Quit, discarding the changes: the autosave goes too (it would be offered as lost work).
    h.state_mut().library.interval = Duration::from_hours(1);
    let ctx = h.ctx.clone();
    h.state_mut().perform(&ctx, AppAction::Quit);
    settle(&mut h);
    h.get_by_label("Discard changes").click();
    wait_for(&mut h, "the autosave to be dropped", |_| store.recovery_for(&name).unwrap().is_none());
}

#[test]
fn a_database_in_use_is_explained_and_ron_files_still_work() {
    let dir = tempfile::tempdir().unwrap();
    let _other_window = ProjectStore::open(dir.path()).unwrap();
    let mut h = harness_on(app_in(dir.path()));
    wait_for(&mut h, "the failure", |app| app.library.failure_dialog.is_some());
    assert!(h.query_by_label("The project library cannot be opened").is_some());
    assert!(h.query_all_by_label_contains("is in use by another hase instance").next().is_some());
    assert!(h.query_by_label("Open a RON file…").is_some());
    h.get_by_label("Continue without the library").click();
    settle(&mut h);
    let app = h.state();
    assert!(app.library.failure_dialog.is_none());
    assert!(matches!(app.library.status, LibraryStatus::Unavailable(_)));
    assert!(app.library.why_unavailable().unwrap().contains("in use"));
    // The editor goes on: edits work, and Save writes the RON file the project came from.
    let path = dir.path().join("design.ron");
    h.state_mut().editor.file = Some(path.clone());
    add_processor(&mut h, "extra0");
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    wait_for(&mut h, "the RON save", |app| !app.editor.is_dirty());
    let saved = hase_library::generated::load_project(&path).unwrap();
    assert_eq!(saved, h.state().editor.doc.project);
}

#[test]
fn export_then_import_ron_through_the_file_dialogs() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness_on(app_in(dir.path()));
    wait_for(&mut h, "the library to open", library_open);
    let ctx = h.ctx.clone();
    // The user picks a file in the Export dialog (rfd runs on a thread; its answer is this).
    let file = dir.path().join("exported");
    let chosen = |purpose, path: &std::path::Path| hase_editor::tasks::TaskOutput::FileDialogClosed {
        request: hase_editor::tasks::FileRequest::project(purpose, vec!["ron".into()]),
        path: Some(path.to_path_buf()),
        shown: true,
    };
    let purpose = hase_editor::tasks::FilePurpose::ExportRon { file_name: "x.ron".into() };
    h.state_mut().task_finished(&ctx, chosen(purpose, &file));
    let written = file.with_extension("ron");
    wait_for(&mut h, "the export", |_| written.exists());
    let exported = hase_library::generated::load_project(&written).unwrap();
    assert_eq!(exported, h.state().editor.doc.project);

    // Edit the file outside, then import it: stored in the library and opened.
    let mut outside = exported.clone();
    outside.name = "from a file".into();
    hase_engine::model::save_project(&outside, &written).unwrap();
    h.state_mut().task_finished(&ctx, chosen(hase_editor::tasks::FilePurpose::ImportRon, &written));
    wait_for(&mut h, "the import", |app| app.editor.doc.project.name == "from a file");
    assert_eq!(h.state().editor.doc.project, outside);
    assert_eq!(h.state().library.version, Some(("from a file".into(), 1)));
    let store = h.state().library.store().unwrap().clone();
    assert_eq!(store.load("from a file").unwrap().project, outside);
}

#[test]
fn a_corrupt_database_is_explained_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = ProjectStore::open(dir.path()).unwrap();
        store.save(&Project::new("kept")).unwrap();
    }
    // The database's configuration file overwritten with bytes sled never wrote.
    let garbage: Vec<u8> = (0..100u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(dir.path().join("store.sled").join("conf"), garbage).unwrap();
    let mut h = harness_on(app_in(dir.path()));
    wait_for(&mut h, "the failure", |app| app.library.failure_dialog.is_some());
    assert!(h.query_by_label("The project library cannot be opened").is_some());
    let message = h.state().library.failure_dialog.clone().unwrap();
    assert!(message.contains("is corrupt") && message.contains("--data-dir"), "{message}");
    h.get_by_label("Continue without the library").click();
    settle(&mut h);
    add_processor(&mut h, "extra0");
    assert!(h.state().editor.doc.project.network.instances.contains_key("extra0"), "editing goes on");
}

#[test]
fn file_import_simgrid_platform_opens_the_cluster_as_an_unsaved_project() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness_on(app_in(dir.path()));
    wait_for(&mut h, "the library to open", library_open);
    // The menu offers it under File ▸ Import.
    h.get_by_label("File").click();
    settle(&mut h);
    h.get_by_label("Import").click();
    settle(&mut h);
    assert!(h.query_by_label("SimGrid platform…").is_some());
    assert!(h.query_by_label("SimGrid platform, latency per route…").is_some());
    h.key_press(Key::Escape);
    settle(&mut h);
    let platform = dir.path().join("torus.xml");
    std::fs::write(
        &platform,
        "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<cluster id=\"t\" prefix=\"n\" radical=\"0-7\" \
         speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"TORUS\" topo_parameters=\"4,2\" loopback_bw=\"1GBps\"/>\n\
         </platform>\n",
    )
    .unwrap();
    // The user picks the file in the dialog (rfd answers on its thread; this is its answer).
    let ctx = h.ctx.clone();
    let chosen = |latency| hase_editor::tasks::TaskOutput::FileDialogClosed {
        request: hase_editor::tasks::FileRequest::project(
            hase_editor::tasks::FilePurpose::ImportSimgrid(latency),
            vec!["xml".into()],
        ),
        path: Some(platform.clone()),
        shown: true,
    };
    h.state_mut().task_finished(&ctx, chosen(LatencyModel::Links));
    wait_for(&mut h, "the import", |app| app.editor.doc.project.name == "torus");
    let app = h.state();
    assert_eq!(app.editor.doc.project.network.instances.len(), 16);
    assert!(app.editor.is_dirty(), "an imported platform is a new, unsaved project");
    let log: Vec<&str> = app.editor.log.iter().map(|l| l.text.as_str()).collect();
    assert!(log.iter().any(|l| l.contains("torus.xml:3: loopback links")), "{log:?}");
    assert!(
        log.iter().any(|l| l.contains("imported") && l.contains("cluster t: TORUS 4,2, 8 hosts")),
        "{log:?}"
    );
    assert!(!app.editor.doc.project.description.contains("flow latency"));
    assert!(app.editor.doc.project.network.links.iter().any(|l| l.latency.0 > 0), "the torus links' 1 us");
    // With the latency paid per route, as SimGrid's flow model pays it: links without latency.
    h.state_mut().task_finished(&ctx, chosen(LatencyModel::Flow));
    wait_for(&mut h, "the unsaved-changes question", |app| app.pending.is_some());
    h.get_by_label("Discard changes").click();
    wait_for(&mut h, "the flow-latency import", |app| {
        app.editor.doc.project.description.contains("flow latency")
    });
    let links = &h.state().editor.doc.project.network.links;
    assert!(!links.is_empty() && links.iter().all(|l| l.latency.0 == 0), "{links:?}");
}
