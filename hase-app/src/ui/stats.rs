//! The Statistics tab: the run's summary (outcome, makespan, events, wall time, events per second),
//! a sortable table of entities with their time per state as a stacked bar, and a sortable table
//! of link directions by utilisation.

use egui::{CornerRadius, Rect, RichText, Sense, Ui, vec2};
use hase_engine::stats::{EntityStats, LinkStats, RunStats};
use hase_engine::time::SimTime;

use crate::run::FinishedRun;
use crate::theme::{Palette, ReplayColours};

/// Columns of the entity table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EntityColumn {
    /// Path.
    #[default]
    Name,
    /// Type.
    Type,
    /// Busy fraction.
    Busy,
    /// Messages sent.
    Sent,
}

/// Columns of the link table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LinkColumn {
    /// Link direction name.
    Name,
    /// Utilisation.
    #[default]
    Utilisation,
    /// Messages.
    Messages,
    /// Bytes.
    Bytes,
}

/// Sort order of the two tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsView {
    /// Entity table column and direction.
    pub entities: (EntityColumn, bool),
    /// Link table column and direction.
    pub links: (LinkColumn, bool),
}

impl Default for StatsView {
    fn default() -> Self {
        StatsView { entities: (EntityColumn::Busy, true), links: (LinkColumn::Utilisation, true) }
    }
}

fn sent(e: &EntityStats) -> u64 {
    e.ports.values().map(|p| p.sent_msgs).sum()
}

/// Entities sorted by `column` (`descending` reverses), ties by name.
pub fn sorted_entities(
    stats: &RunStats,
    column: EntityColumn,
    descending: bool,
) -> Vec<(&String, &EntityStats)> {
    let mut rows: Vec<_> = stats.entities.iter().collect();
    rows.sort_by(|a, b| {
        let order = match column {
            EntityColumn::Name => a.0.cmp(b.0),
            EntityColumn::Type => a.1.type_name.cmp(&b.1.type_name),
            EntityColumn::Busy => a.1.busy_fraction.total_cmp(&b.1.busy_fraction),
            EntityColumn::Sent => sent(a.1).cmp(&sent(b.1)),
        };
        let order = if descending { order.reverse() } else { order };
        order.then_with(|| a.0.cmp(b.0))
    });
    rows
}

/// Links sorted by `column`, ties by name.
pub fn sorted_links(stats: &RunStats, column: LinkColumn, descending: bool) -> Vec<(&String, &LinkStats)> {
    let mut rows: Vec<_> = stats.links.iter().collect();
    rows.sort_by(|a, b| {
        let order = match column {
            LinkColumn::Name => a.0.cmp(b.0),
            LinkColumn::Utilisation => a.1.utilisation.total_cmp(&b.1.utilisation),
            LinkColumn::Messages => a.1.msgs.cmp(&b.1.msgs),
            LinkColumn::Bytes => a.1.bytes.cmp(&b.1.bytes),
        };
        let order = if descending { order.reverse() } else { order };
        order.then_with(|| a.0.cmp(b.0))
    });
    rows
}

fn header<C: PartialEq + Copy>(ui: &mut Ui, text: &str, column: C, sort: &mut (C, bool)) {
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
    if ui.add(egui::Button::new(job).frame(false)).clicked() {
        *sort = if sort.0 == column { (column, !sort.1) } else { (column, true) };
    }
}

/// One-line summary of a run.
pub fn summary_line(s: &RunStats) -> String {
    format!(
        "{} · makespan {} · {} events in {:.3} s ({:.2} M events/s)",
        s.outcome,
        crate::ui::time_text::figure(SimTime(s.makespan_ps)),
        s.events,
        s.wall_time_s,
        s.events_per_s / 1e6
    )
}

/// Show the tab for `run` (or a hint when there is none).
pub fn show(
    ui: &mut Ui,
    run: Option<&FinishedRun>,
    view: &mut StatsView,
    colours: &ReplayColours,
    palette: &Palette,
) {
    let Some(run) = run else {
        ui.add_space(12.0);
        ui.vertical_centered(|ui| ui.weak("Run a simulation (Simulate > Run, F5) to see statistics."));
        ui.allocate_rect(ui.available_rect_before_wrap(), egui::Sense::hover());
        return;
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
        entity_table(&mut cols[0], s, makespan, view, colours);
        link_table(&mut cols[1], s, view, colours, palette);
    });
}

fn entity_table(ui: &mut Ui, s: &RunStats, makespan: u64, view: &mut StatsView, colours: &ReplayColours) {
    ui.label(RichText::new("Entities: time per state").strong());
    let rows = sorted_entities(s, view.entities.0, view.entities.1);
    let row_h = 18.0;
    egui::Grid::new("stats-entity-head").num_columns(4).min_col_width(60.0).show(ui, |ui| {
        header(ui, "entity", EntityColumn::Name, &mut view.entities);
        header(ui, "type", EntityColumn::Type, &mut view.entities);
        header(ui, "busy", EntityColumn::Busy, &mut view.entities);
        header(ui, "sent", EntityColumn::Sent, &mut view.entities);
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

fn link_table(ui: &mut Ui, s: &RunStats, view: &mut StatsView, colours: &ReplayColours, palette: &Palette) {
    ui.label(RichText::new("Links: utilisation per direction").strong());
    let rows = sorted_links(s, view.links.0, view.links.1);
    let row_h = 18.0;
    egui::Grid::new("stats-link-head").num_columns(4).min_col_width(60.0).show(ui, |ui| {
        header(ui, "link", LinkColumn::Name, &mut view.links);
        header(ui, "utilisation", LinkColumn::Utilisation, &mut view.links);
        header(ui, "msgs", LinkColumn::Messages, &mut view.links);
        header(ui, "bytes", LinkColumn::Bytes, &mut view.links);
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
    use super::*;

    #[test]
    fn tables_sort_by_the_chosen_column_with_ties_by_name() {
        let mut s = RunStats::default();
        for (name, busy) in [("b", 0.5), ("a", 0.5), ("c", 0.9)] {
            s.entities.insert(
                name.into(),
                EntityStats { busy_fraction: busy, type_name: "T".into(), ..EntityStats::default() },
            );
        }
        let names =
            |rows: Vec<(&String, &EntityStats)>| rows.into_iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(names(sorted_entities(&s, EntityColumn::Busy, true)), ["c", "a", "b"]);
        assert_eq!(names(sorted_entities(&s, EntityColumn::Busy, false)), ["a", "b", "c"]);
        assert_eq!(names(sorted_entities(&s, EntityColumn::Name, true)), ["c", "b", "a"]);
        for (name, u, msgs) in [("x", 0.2, 5), ("y", 0.7, 1)] {
            s.links.insert(name.into(), LinkStats { utilisation: u, msgs, ..LinkStats::default() });
        }
        let links =
            |rows: Vec<(&String, &LinkStats)>| rows.into_iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(links(sorted_links(&s, LinkColumn::Utilisation, true)), ["y", "x"]);
        assert_eq!(links(sorted_links(&s, LinkColumn::Messages, true)), ["x", "y"]);
    }
}
