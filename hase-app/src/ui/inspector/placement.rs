//! The rank placement in the inspector: with nothing selected, which processors the workload's ranks
//! run on (every processor, the first N, or a list of processor ranks or instance paths, edited as
//! text); with one processor selected, which MPI rank it runs. Changes are one `SetPlacement` command.

use egui::{RichText, Ui};
use hase_engine::model::{ParamValue, Placement};

use super::asked::{Asked, Outcome};
use crate::theme::Palette;
use hase_editor::command::EditCommand;
use hase_editor::state::{Editor, EditorCommand};

/// Field buffer of the placement editor.
#[derive(Default)]
pub struct PlacementEditor {
    /// The count or list as typed, and the placement it was typed for.
    text: Option<(Placement, String)>,
    error: Option<String>,
    /// A placement asked for in the last frame (its refusal is shown under the field).
    asked: Option<Asked<()>>,
}

fn kind_word(p: &Placement) -> &'static str {
    match p {
        Placement::All => "every processor",
        Placement::First(_) => "the first N",
        Placement::Ranks(_) | Placement::Hosts(_) => "these processors",
    }
}

fn as_text(p: &Placement) -> String {
    match p {
        Placement::All => String::new(),
        Placement::First(n) => n.to_string(),
        Placement::Ranks(r) => r.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "),
        Placement::Hosts(h) => h.join(", "),
    }
}

impl PlacementEditor {
    /// Show the placement section of the workload editor; returns the placement asked for.
    pub fn show(&mut self, ui: &mut Ui, editor: &Editor, palette: &Palette) -> Option<EditorCommand> {
        if let Some(Outcome::Refused((), reason)) = self.asked.take().map(|asked| asked.outcome(editor)) {
            self.error = Some(reason);
        }
        let current = editor.doc.project.placement.clone();
        if self.text.as_ref().is_none_or(|(p, _)| *p != current) {
            self.text = Some((current.clone(), as_text(&current)));
        }
        let mut next = None;
        ui.horizontal(|ui| {
            let label = ui
                .label("Placement")
                .on_hover_text("Which processors run the workload's ranks: MPI rank i on the i-th one listed")
                .id;
            egui::ComboBox::from_id_salt("placement-kind")
                .selected_text(kind_word(&current))
                .width(150.0)
                .show_ui(ui, |ui| {
                    let ranks = as_text(&current).split(',').count().max(1) as u32;
                    for choice in [Placement::All, Placement::First(ranks), Placement::Ranks(vec![0])] {
                        let same = kind_word(&choice) == kind_word(&current);
                        if ui.selectable_label(same, kind_word(&choice)).clicked() && !same {
                            next = Some(choice);
                        }
                    }
                })
                .response
                .labelled_by(label);
        });
        if !current.is_all() {
            if let Some((_, text)) = self.text.as_mut() {
                let first = matches!(current, Placement::First(_));
                let (word, hint) = if first { ("N", "8") } else { ("Processors", "0, 4, 8-11 or p3, p0") };
                let response = ui
                    .horizontal(|ui| {
                        let label = ui.label(word).id;
                        ui.add(
                            egui::TextEdit::singleline(text)
                                .desired_width(220.0)
                                .hint_text(hint)
                                .id_salt("placement-text"),
                        )
                        .labelled_by(label)
                        .on_hover_text("Enter to apply")
                    })
                    .inner;
                if response.lost_focus() && *text != as_text(&current) {
                    let read = if first {
                        text.trim()
                            .parse::<u32>()
                            .map(Placement::First)
                            .map_err(|_| PlacementInputError::NotACount(text.trim().to_string()))
                    } else {
                        Placement::parse_list(text).map_err(PlacementInputError::List)
                    };
                    match read {
                        Ok(p) => next = Some(p),
                        Err(e) => self.error = Some(e.to_string()),
                    }
                }
            }
            ui.weak(format!("Ranks run on {}; the others stay idle.", current.describe()));
        }
        let asked = next.map(|placement| {
            self.error = None;
            self.asked = Some(Asked::new(editor, ()));
            EditorCommand::Edit(EditCommand::SetPlacement { placement })
        });
        if let Some(e) = &self.error {
            ui.label(RichText::new(e).color(palette.error).small());
        }
        asked
    }
}

/// Why the placement typed was not taken.
#[derive(Debug, thiserror::Error)]
enum PlacementInputError {
    /// "First N" with something else than a count.
    #[error("`{0}` is not a number of processors")]
    NotACount(String),
    /// The processor list does not read (the model's reason).
    #[error(transparent)]
    List(hase_engine::model::PlacementError),
}

/// What MPI rank the processor `name` of the top-level network runs under the project's placement,
/// as a sentence; `None` if it is not a processor with an explicit rank.
pub fn processor_rank_text(editor: &Editor, name: &str) -> Option<String> {
    let inst = editor.doc.project.network.instances.get(name)?;
    let ty = editor.doc.entity_type(&inst.type_name)?;
    if ty.behaviour.as_deref() != Some(hase_entities::catalogue::PROCESSOR) {
        return None;
    }
    let rank = match ty.value_of(&inst.params, "rank") {
        Some(ParamValue::Int(r)) if *r >= 0 => *r as u32,
        _ => return None,
    };
    let placement = &editor.doc.project.placement;
    let mpi = match placement {
        Placement::All => Some(rank),
        Placement::First(n) => (rank < *n).then_some(rank),
        Placement::Ranks(list) => list.iter().position(|r| *r == rank).map(|i| i as u32),
        Placement::Hosts(hosts) => hosts.iter().position(|h| h == name).map(|i| i as u32),
    };
    Some(match mpi {
        Some(m) => format!("Runs MPI rank {m} of the workload (processor rank {rank})."),
        None => format!("Not used by the workload (processor rank {rank}): it stays idle."),
    })
}
