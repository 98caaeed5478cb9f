//! Workflow tests of files and saving (egui_kittest): the in-app file dialog taking over where the
//! desktop has none (no XDG portal) and clearing its error once the name changes, the first Save naming the project, Enter confirming Save as,
//! the window's shortcuts waiting while a dialog is open, and the library list after Save as.

use super::wait_for;

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use super::{harness_on, settle};
use crate::app::{App, StartOptions};
use crate::file_dialog::{Backend, NO_PORTAL_NOTICE};
use hase_editor::project_store::{LibraryLocation, LibraryStatus};

fn menu(h: &mut Harness<'_, App>, top: &str, item: &str) {
    h.get_by_label(top).click();
    h.run_steps(2);
    h.get_by_label(item).click();
    h.run_steps(2);
}

fn notices(app: &App) -> usize {
    app.editor.log.iter().filter(|l| l.text == NO_PORTAL_NOTICE).count()
}

#[test]
fn without_a_desktop_portal_the_in_app_dialog_takes_over() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::new(StartOptions::default());
    // The project lives in `dir`: the dialog starts there.
    app.editor.file = Some(dir.path().join("design.ron"));
    assert_eq!(app.files.backend, Backend::Desktop);
    let mut h = harness_on(app);
    let name = h.state().editor.doc.project.name.clone();

    // Export RON…: the desktop (a stand-in without a portal) answers "nothing" at once, which is
    // not taken as a cancel: hase's own dialog opens, and the user is told why, once.
    menu(&mut h, "File", "Export RON…");
    wait_for(&mut h, "the in-app dialog", |app| app.files.is_open());
    assert_eq!(h.state().files.backend, Backend::InApp);
    assert_eq!(notices(h.state()), 1);
    assert!(h.query_by_label("Export the project (RON)").is_some());
    // Told inside the dialog, not by a toast drawn over its title.
    // (The log shows it too: counted with the dialog open and again once it is closed.)
    settle(&mut h);
    let told_with_dialog = h.query_all_by_label_contains("No desktop file dialog answered").count();
    assert!(h.state().editor.toasts.iter().all(|t| t.text != NO_PORTAL_NOTICE));
    // Ctrl+O waits while the dialog is open.
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    settle(&mut h);
    assert!(!h.state().windows.browser.open);
    // The suggested name is the project's; Save writes it in the project's folder.
    h.get_by_label("Save").click();
    let written = dir.path().join(format!("{name}.ron"));
    wait_for(&mut h, "the export", |_| written.exists());
    assert!(!h.state().files.is_open());
    let told_without_dialog = h.query_all_by_label_contains("No desktop file dialog answered").count();
    assert_eq!(told_with_dialog, told_without_dialog + 1, "the notice is shown in the dialog");
    assert_eq!(hase_library::generated::load_project(&written).unwrap(), h.state().editor.doc.project);

    // From now on the in-app dialog opens straight away, without telling again.
    menu(&mut h, "File", "Import");
    h.get_by_label("RON…").click();
    h.run_steps(2);
    wait_for(&mut h, "the second dialog", |app| app.files.is_open());
    assert!(h.query_by_label("Import a project (RON)").is_some());
    assert_eq!(h.query_all_by_label_contains("No desktop file dialog answered").count(), told_without_dialog);
    assert_eq!(notices(h.state()), 1);
    // Open with no name says what is missing; a file picked from the list clears it.
    let missing = "type a file name or pick one from the list";
    h.get_by_label("Open").click();
    settle(&mut h);
    assert!(h.query_by_label(missing).is_some());
    h.get_by_label(&format!("{name}.ron")).click();
    settle(&mut h);
    assert!(h.query_by_label(missing).is_none(), "the error is about a name no longer there");
    h.get_by_label("Cancel").click();
    settle(&mut h);
    assert!(!h.state().files.is_open());
}

fn library_app(dir: &std::path::Path) -> Harness<'static, App> {
    let app = App::new(StartOptions {
        library: LibraryLocation::Dir(dir.to_path_buf()),
        ..StartOptions::default()
    });
    let mut h = harness_on(app);
    wait_for(&mut h, "the library", |app| matches!(app.library.status, LibraryStatus::Open(_)));
    h
}

#[test]
fn save_as_with_enter_refreshes_the_library_list_and_shortcuts_wait_for_the_dialog() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = library_app(dir.path());
    // The browser is open and lists nothing yet.
    let ctx = h.ctx.clone();
    h.state_mut().perform(&ctx, crate::actions::AppAction::Open);
    wait_for(&mut h, "the empty list", |app| {
        app.windows.browser.list.as_ref().is_some_and(|l| matches!(l, Ok(v) if v.is_empty()))
    });
    // Save as (Ctrl+Shift+S), a new name typed, Enter.
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    settle(&mut h);
    assert!(h.state().windows.save_as.is_some());
    // Ctrl+N waits while the name is asked.
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    settle(&mut h);
    assert_eq!(h.state().editor.doc.project.name, "Allreduce on a fat tree");
    let field = h.get_by_label("Project name");
    field.focus();
    h.step();
    h.get_by_label("Project name").type_text(" B");
    settle(&mut h);
    h.key_press(Key::Enter);
    let name = "Allreduce on a fat tree (copy) B";
    wait_for(&mut h, "the save as", |app| app.editor.doc.project.name == name);
    // The open browser lists the new project without a manual refresh.
    wait_for(&mut h, "the list", |app| {
        app.windows
            .browser
            .list
            .as_ref()
            .is_some_and(|l| matches!(l, Ok(v) if v.iter().any(|p| p.name == name)))
    });
}
