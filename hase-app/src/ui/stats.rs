//! The Statistics tab: the run's summary (outcome, makespan, events, wall time, events per second),
//! a sortable table of entities with their time per state as a stacked bar, and a sortable table
//! of link directions by utilisation.

use std::fmt::Write as _;

use egui::{CornerRadius, Rect, RichText, Sense, Ui, vec2};
use hase_engine::kernel::Partitioning;
use hase_engine::stats::{EntityStats, RunStats};
use hase_engine::time::SimTime;

use crate::theme::{Palette, ReplayColours};
use hase_editor::run::FinishedRun;
use hase_editor::session::SessionCommand;
use hase_editor::session::stats_order::{
    EntityColumn, LinkColumn, StatsOrder, sent, sorted_entities, sorted_links,
};

/// A column heading with the sort arrow; true when clicked.
fn header<C: PartialEq + Copy>(ui: &mut Ui, text: &str, column: C, sort: (C, bool)) -> bool {
    let arrow = if sort.0 == column { if sort.1 { " ▼" } else { " ▲" } } else { "" };
    let mut job = egui::text::LayoutJob::default();
    RichText::new(text).strong().append_to(
        &mut job,
        ui.style(),
        egui::FontSelection::Default,
        egui::Align::Center,
    );
    RichText::new(arrow).monospace().append_to(
        &mut job,
        ui.style(),
        egui::FontSelection::Default,
        egui::Align::Center,
    );
    ui.add(egui::Button::new(job).frame(false)).clicked()
}

/// One-line summary of a run. A run spread over threads says so, and so does one that could not
/// be cut (with why); a run on one thread because one was asked for, or chosen for a small model,
/// goes without saying.
pub fn summary_line(s: &RunStats, partitioning: Option<&Partitioning>) -> String {
    let mut line = format!(
        "{} · makespan {} · {} events in {:.3} s ({:.2} M events/s)",
        s.outcome,
        crate::ui::time_text::figure(SimTime(s.makespan_ps)),
        s.events,
        s.wall_time_s,
        s.events_per_s / 1e6
    );
    if let Some(partitioning) = partitioning.filter(|p| !p.is_one_thread()) {
        let _ = write!(line, " · {partitioning}");
    }
    line
}

/// What the Statistics tab shows.
pub struct StatsContext<'a> {
    /// The run (a hint is shown when there is none).
    pub run: Option<&'a FinishedRun>,
    /// The tables' sort order.
    pub order: &'a StatsOrder,
    /// Replay colours.
    pub colours: &'a ReplayColours,
    /// Editor colours.
    pub palette: &'a Palette,
}

/// Show the tab; returns the sort changes asked for.
pub fn show(ui: &mut Ui, cx: &StatsContext<'_>) -> Vec<SessionCommand> {
    let StatsContext { run, order, colours, palette } = *cx;
    let mut commands = Vec::new();
    let Some(run) = run else {
        ui.add_space(12.0);
        ui.vertical_centered(|ui| ui.weak("Run a simulation (Simulate > Run, F5) to see statistics."));
        ui.allocate_rect(ui.available_rect_before_wrap(), egui::Sense::hover());
        return commands;
    };
    let s = &run.stats;
    ui.horizontal(|ui| {
        let colour = match s.outcome.as_str() {
            "completed" | "reached-until" => palette.accent,
            "deadlock" => palette.error,
            _ => palette.warning,
        };
        ui.label(RichText::new(&run.label).strong());
        ui.label(RichText::new(&s.outcome).color(colour).strong());
        ui.label(format!("makespan {}", crate::ui::time_text::figure(SimTime(s.makespan_ps))));
        ui.separator();
        ui.label(format!("{} events", s.events));
        ui.label(format!("wall {:.3} s", s.wall_time_s));
        ui.label(format!("{:.2} M events/s", s.events_per_s / 1e6));
        ui.separator();
        ui.label(format!("seed {} · level {}", s.seed, run.settings.level));
        if s.dropped_messages > 0 {
            ui.label(RichText::new(format!("{} dropped messages", s.dropped_messages)).color(palette.error));
        }
    });
    ui.separator();
    let makespan = s.makespan_ps.max(1);
    ui.columns(2, |cols| {
        entity_table(&mut cols[0], s, makespan, *order, colours, &mut commands);
        link_table(&mut cols[1], s, *order, (colours, palette), &mut commands);
    });
    commands
}

fn entity_table(
    ui: &mut Ui,
    s: &RunStats,
    makespan: u64,
    order: StatsOrder,
    colours: &ReplayColours,
    commands: &mut Vec<SessionCommand>,
) {
    ui.label(RichText::new("Entities: time per state").strong());
    let rows = sorted_entities(s, order.entities.0, order.entities.1);
    let row_h = 18.0;
    egui::Grid::new("stats-entity-head").num_columns(4).min_col_width(60.0).show(ui, |ui| {
        for (text, column) in [
            ("entity", EntityColumn::Name),
            ("type", EntityColumn::Type),
            ("busy", EntityColumn::Busy),
            ("sent", EntityColumn::Sent),
        ] {
            if header(ui, text, column, order.entities) {
                commands.push(SessionCommand::SortEntities(column));
            }
        }
        ui.end_row();
    });
    egui::ScrollArea::vertical().id_salt("stats-entities").auto_shrink([false, false]).show_rows(
        ui,
        row_h,
        rows.len(),
        |ui, range| {
            for (name, e) in &rows[range] {
                ui.horizontal(|ui| {
                    ui.add_sized([140.0, row_h], egui::Label::new(name.as_str()).truncate());
                    ui.add_sized(
                        [90.0, row_h],
                        egui::Label::new(RichText::new(&*e.type_name).weak()).truncate(),
                    );
                    ui.add_sized([48.0, row_h], egui::Label::new(format!("{:.1}%", e.busy_fraction * 100.0)));
                    ui.add_sized([44.0, row_h], egui::Label::new(sent(e).to_string()));
                    let (rect, response) = ui.allocate_exact_size(
                        vec2(ui.available_width().max(60.0), row_h - 4.0),
                        Sense::hover(),
                    );
                    stacked_bar(ui, rect, e, makespan, colours);
                    response.on_hover_text(
                        e.state_time_ps
                            .iter()
                            .filter(|(_, t)| **t > 0)
                            .map(|(k, t)| {
                                format!(
                                    "{k}: {} ({:.1}%)",
                                    crate::ui::time_text::figure(SimTime(*t)),
                                    *t as f64 * 100.0 / makespan as f64
                                )
                            })
                            .collect::<Vec<_>>()
                            .join("\n"),
                    );
                });
            }
        },
    );
}

fn stacked_bar(ui: &Ui, rect: Rect, e: &EntityStats, makespan: u64, colours: &ReplayColours) {
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, CornerRadius::same(2), colours.ruler);
    let mut x = rect.min.x;
    for (state, t) in &e.state_time_ps {
        let w = rect.width() * (*t as f64 / makespan as f64) as f32;
        if w <= 0.0 {
            continue;
        }
        let seg =
            Rect::from_min_max(egui::pos2(x, rect.min.y), egui::pos2((x + w).min(rect.max.x), rect.max.y));
        painter.rect_filled(seg, CornerRadius::ZERO, colours.state(state));
        x += w;
    }
}

fn link_table(
    ui: &mut Ui,
    s: &RunStats,
    order: StatsOrder,
    (colours, palette): (&ReplayColours, &Palette),
    commands: &mut Vec<SessionCommand>,
) {
    ui.label(RichText::new("Links: utilisation per direction").strong());
    let rows = sorted_links(s, order.links.0, order.links.1);
    let row_h = 18.0;
    egui::Grid::new("stats-link-head").num_columns(4).min_col_width(60.0).show(ui, |ui| {
        for (text, column) in [
            ("link", LinkColumn::Name),
            ("utilisation", LinkColumn::Utilisation),
            ("msgs", LinkColumn::Messages),
            ("bytes", LinkColumn::Bytes),
        ] {
            if header(ui, text, column, order.links) {
                commands.push(SessionCommand::SortLinks(column));
            }
        }
        ui.end_row();
    });
    egui::ScrollArea::vertical().id_salt("stats-links").auto_shrink([false, false]).show_rows(
        ui,
        row_h,
        rows.len(),
        |ui, range| {
            for (name, l) in &rows[range] {
                ui.horizontal(|ui| {
                    ui.add_sized([200.0, row_h], egui::Label::new(name.as_str()).truncate());
                    let (rect, _) = ui.allocate_exact_size(vec2(90.0, row_h - 4.0), Sense::hover());
                    let painter = ui.painter_at(rect);
                    painter.rect_filled(rect, CornerRadius::same(2), colours.ruler);
                    let u = l.utilisation.clamp(0.0, 1.0) as f32;
                    let fill = Rect::from_min_size(rect.min, vec2(rect.width() * u, rect.height()));
                    painter.rect_filled(fill, CornerRadius::same(2), colours.load(u));
                    ui.add_sized([48.0, row_h], egui::Label::new(format!("{:.1}%", l.utilisation * 100.0)));
                    ui.add_sized([50.0, row_h], egui::Label::new(l.msgs.to_string()));
                    ui.label(RichText::new(format!("{} B", l.bytes)).color(palette.text_dim));
                });
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use hase_engine::kernel::OnePartition;

    use super::*;

    #[test]
    fn the_summary_says_how_a_run_was_spread_over_threads_only_when_it_matters() {
        let stats = RunStats { events: 1_000, makespan_ps: 2_000_000, ..RunStats::default() };
        let plain = summary_line(&stats, None);
        assert!(plain.contains("1000 events"), "{plain}");
        let one = Partitioning::One(OnePartition::OneThread);
        assert_eq!(summary_line(&stats, Some(&one)), plain);
        let split = Partitioning::Split { partitions: 2, lookahead_ps: 5_000 };
        assert_eq!(
            summary_line(&stats, Some(&split)),
            format!("{plain} · 2 partitions on 2 threads, windows of 5 ns")
        );
        let uncut = Partitioning::One(OnePartition::NoCut);
        assert!(
            summary_line(&stats, Some(&uncut))
                .ends_with("one partition: no link of positive latency can be cut")
        );
    }
}
