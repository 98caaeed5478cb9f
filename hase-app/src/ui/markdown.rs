//! The shipped documents' Markdown, rendered for Help ▸ Documentation: read once into blocks
//! (headings, paragraphs and list items with their marker and depth, code blocks, tables, rules;
//! text spans strong, emphasised, in code or linked) with pulldown-cmark, then drawn with egui's
//! own widgets and fonts. A paragraph is one wrapped label; a click on its linked words opens the
//! link: another shipped document in Help, or a web address in the browser.

use std::sync::Arc;

use egui::text::{LayoutJob, TextFormat};
use egui::{Align, Color32, FontId, Label, RichText, Sense, Stroke, Ui};
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// A run of text with one style.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Span {
    /// The text.
    pub text: String,
    /// Bold.
    pub strong: bool,
    /// Italic.
    pub emphasis: bool,
    /// Inline code.
    pub code: bool,
    /// Where it links to.
    pub link: Option<String>,
}

impl Span {
    fn same_style(&self, other: &Span) -> bool {
        (self.strong, self.emphasis, self.code, &self.link)
            == (other.strong, other.emphasis, other.code, &other.link)
    }
}

/// One block of a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// A heading.
    Heading {
        /// 1 (largest) to 6.
        level: u8,
        /// Its text.
        spans: Vec<Span>,
    },
    /// A paragraph, or a list item's text.
    Paragraph {
        /// Its text.
        spans: Vec<Span>,
        /// Lists it is inside of.
        depth: usize,
        /// Its item's marker (`•`, `3.`) when it starts the item.
        marker: Option<String>,
        /// Inside a block quote.
        quote: bool,
    },
    /// A fenced or indented code block.
    Code {
        /// Its lines.
        text: String,
        /// Lists it is inside of.
        depth: usize,
    },
    /// A table.
    Table {
        /// The header's cells.
        header: Vec<Vec<Span>>,
        /// Rows of cells.
        rows: Vec<Vec<Vec<Span>>>,
    },
    /// A thematic break.
    Rule,
}

/// What the reader is inside of while it reads the events.
#[derive(Default)]
struct Reader {
    blocks: Vec<Block>,
    spans: Vec<Span>,
    strong: usize,
    emphasis: usize,
    link: Option<String>,
    code: Option<String>,
    /// The next number of each open list (`None`: bulleted).
    lists: Vec<Option<u64>>,
    marker: Option<String>,
    quote: usize,
    table: Option<TableReader>,
}

#[derive(Default)]
struct TableReader {
    header: Vec<Vec<Span>>,
    rows: Vec<Vec<Vec<Span>>>,
    row: Vec<Vec<Span>>,
}

impl Reader {
    fn text(&mut self, text: &str, code: bool) {
        let span = Span {
            text: text.to_string(),
            strong: self.strong > 0,
            emphasis: self.emphasis > 0,
            code,
            link: self.link.clone(),
        };
        match self.spans.last_mut() {
            Some(last) if last.same_style(&span) => last.text.push_str(text),
            _ => self.spans.push(span),
        }
    }

    /// The text read so far as a paragraph (with the item's marker if it is the item's first).
    fn flush(&mut self) {
        if self.spans.iter().all(|s| s.text.trim().is_empty()) {
            self.spans.clear();
            return;
        }
        let spans = std::mem::take(&mut self.spans);
        let (depth, marker, quote) = (self.lists.len(), self.marker.take(), self.quote > 0);
        self.blocks.push(Block::Paragraph { spans, depth, marker, quote });
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph | Tag::Heading { .. } => self.flush(),
            Tag::BlockQuote(_) => {
                self.flush();
                self.quote += 1;
            }
            Tag::CodeBlock(_) => {
                self.flush();
                self.code = Some(String::new());
            }
            Tag::List(first) => {
                self.flush();
                self.lists.push(first);
            }
            Tag::Item => {
                self.flush();
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        *n += 1;
                        format!("{}.", *n - 1)
                    }
                    _ => "•".to_string(),
                };
                self.marker = Some(marker);
            }
            Tag::Table(_) => {
                self.flush();
                self.table = Some(TableReader::default());
            }
            Tag::Emphasis => self.emphasis += 1,
            Tag::Strong => self.strong += 1,
            Tag::Link { dest_url, .. } => self.link = Some(dest_url.to_string()),
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::Item => self.flush(),
            TagEnd::Heading(level) => {
                let level = match level {
                    HeadingLevel::H1 => 1,
                    HeadingLevel::H2 => 2,
                    HeadingLevel::H3 => 3,
                    HeadingLevel::H4 => 4,
                    HeadingLevel::H5 => 5,
                    HeadingLevel::H6 => 6,
                };
                self.blocks.push(Block::Heading { level, spans: std::mem::take(&mut self.spans) });
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.quote = self.quote.saturating_sub(1);
            }
            TagEnd::CodeBlock => {
                let text = self.code.take().unwrap_or_default();
                let text = text.strip_suffix('\n').unwrap_or(&text).to_string();
                self.blocks.push(Block::Code { text, depth: self.lists.len() });
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
            }
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.spans);
                if let Some(t) = &mut self.table {
                    t.row.push(cell);
                }
            }
            TagEnd::TableHead => {
                if let Some(t) = &mut self.table {
                    t.header = std::mem::take(&mut t.row);
                }
            }
            TagEnd::TableRow => {
                if let Some(t) = &mut self.table {
                    let row = std::mem::take(&mut t.row);
                    t.rows.push(row);
                }
            }
            TagEnd::Table => {
                if let Some(t) = self.table.take() {
                    self.blocks.push(Block::Table { header: t.header, rows: t.rows });
                }
            }
            TagEnd::Emphasis => self.emphasis = self.emphasis.saturating_sub(1),
            TagEnd::Strong => self.strong = self.strong.saturating_sub(1),
            TagEnd::Link => self.link = None,
            _ => {}
        }
    }
}

/// The blocks of the Markdown `text` (CommonMark with tables and strikethrough).
pub fn blocks(text: &str) -> Vec<Block> {
    let mut r = Reader::default();
    for event in Parser::new_ext(text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        match event {
            Event::Start(tag) => r.start(tag),
            Event::End(tag) => r.end(tag),
            Event::Text(t) => match &mut r.code {
                Some(code) => code.push_str(&t),
                None => r.text(&t, false),
            },
            // Inline code, and HTML shown as written.
            Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => r.text(&t, true),
            Event::SoftBreak => r.text(" ", false),
            Event::HardBreak => r.text("\n", false),
            Event::Rule => {
                r.flush();
                r.blocks.push(Block::Rule);
            }
            _ => {}
        }
    }
    r.flush();
    r.blocks
}

/// What a click on a link asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkClicked {
    /// A web address (`http…`, `mailto:`).
    Web(String),
    /// A path relative to the document (`docs/analysis.md`, `analysis.md#phases`).
    Relative(String),
}

/// Draw `blocks` in `ui` (already in a scroll area); returns the link clicked, if any.
pub fn show(ui: &mut Ui, blocks: &Arc<Vec<Block>>) -> Option<LinkClicked> {
    let mut clicked = None;
    for block in blocks.iter() {
        match block {
            Block::Heading { level, spans } => {
                ui.add_space(if *level <= 2 { 10.0 } else { 6.0 });
                let size = match level {
                    1 => 22.0,
                    2 => 18.0,
                    3 => 15.5,
                    _ => 14.0,
                };
                let text: String = spans.iter().map(|s| s.text.as_str()).collect();
                ui.label(RichText::new(text).size(size).strong());
                ui.add_space(2.0);
            }
            Block::Paragraph { spans, depth, marker, quote } => {
                ui.horizontal_top(|ui| {
                    ui.add_space(18.0 * *depth as f32 + if *quote { 12.0 } else { 0.0 });
                    if let Some(marker) = marker {
                        ui.add_sized([16.0, 16.0], Label::new(marker.as_str()));
                    } else if *depth > 0 {
                        ui.add_space(16.0 + ui.spacing().item_spacing.x);
                    }
                    clicked = clicked.take().or_else(|| paragraph(ui, spans, *quote));
                });
                ui.add_space(4.0);
            }
            Block::Code { text, depth } => {
                ui.horizontal_top(|ui| {
                    ui.add_space(18.0 * *depth as f32);
                    egui::Frame::new()
                        .fill(ui.visuals().extreme_bg_color)
                        .inner_margin(6.0)
                        .corner_radius(4.0)
                        .show(ui, |ui| {
                            egui::ScrollArea::horizontal().id_salt(text.as_ptr()).show(ui, |ui| {
                                ui.add(Label::new(RichText::new(text).monospace()).extend().selectable(true));
                            });
                        });
                });
                ui.add_space(4.0);
            }
            Block::Table { header, rows } => {
                egui::ScrollArea::horizontal().id_salt(header.as_ptr()).show(ui, |ui| {
                    egui::Grid::new(header.as_ptr()).striped(true).spacing([12.0, 4.0]).show(ui, |ui| {
                        for cell in header {
                            let text: String = cell.iter().map(|s| s.text.as_str()).collect();
                            ui.label(RichText::new(text).strong());
                        }
                        ui.end_row();
                        for row in rows {
                            for cell in row {
                                clicked = clicked.take().or_else(|| paragraph(ui, cell, false));
                            }
                            ui.end_row();
                        }
                    });
                });
                ui.add_space(6.0);
            }
            Block::Rule => {
                ui.separator();
            }
        }
    }
    clicked
}

/// One paragraph as a wrapped label; returns the link under a click.
fn paragraph(ui: &mut Ui, spans: &[Span], quote: bool) -> Option<LinkClicked> {
    let body = egui::TextStyle::Body.resolve(ui.style());
    let mono = egui::TextStyle::Monospace.resolve(ui.style());
    let visuals = ui.visuals();
    let (text, strong, link_colour, code_bg) =
        (visuals.text_color(), visuals.strong_text_color(), visuals.hyperlink_color, visuals.code_bg_color);
    let mut job = LayoutJob {
        wrap: egui::text::TextWrapping::wrap_at_width(ui.available_width()),
        ..LayoutJob::default()
    };
    let mut links = Vec::new();
    let mut chars = 0;
    for span in spans {
        let mut format = TextFormat {
            font_id: if span.code { FontId::new(mono.size, mono.family.clone()) } else { body.clone() },
            color: if quote {
                text.gamma_multiply(0.75)
            } else if span.strong {
                strong
            } else {
                text
            },
            italics: span.emphasis || quote,
            valign: Align::Center,
            ..TextFormat::default()
        };
        if span.code {
            format.background = code_bg;
        }
        if let Some(link) = &span.link {
            format.color = link_colour;
            format.underline = Stroke::new(1.0, link_colour);
            links.push((chars..chars + span.text.chars().count(), link.clone()));
        }
        chars += span.text.chars().count();
        job.append(&span.text, 0.0, format);
    }
    let sense = if links.is_empty() { Sense::hover() } else { Sense::click() };
    let (pos, galley, response) = Label::new(job).wrap().sense(sense).layout_in_ui(ui);
    ui.painter().galley(pos, Arc::clone(&galley), Color32::PLACEHOLDER);
    let link_at = |at: egui::Pos2| {
        let index = galley.cursor_from_pos(at - pos).index.0;
        links.iter().find(|(range, _)| range.contains(&index)).map(|(_, link)| link.clone())
    };
    if let Some(hover) = response.hover_pos()
        && let Some(link) = link_at(hover)
    {
        ui.ctx().set_cursor_icon(egui::CursorIcon::PointingHand);
        response.clone().on_hover_text(link);
    }
    if response.clicked()
        && let Some(at) = response.interact_pointer_pos()
        && let Some(link) = link_at(at)
    {
        let web = ["http://", "https://", "mailto:"].iter().any(|p| link.starts_with(p));
        return Some(if web { LinkClicked::Web(link) } else { LinkClicked::Relative(link) });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(blocks: &[Block]) -> Vec<String> {
        blocks
            .iter()
            .map(|b| match b {
                Block::Heading { level, spans } => {
                    format!("h{level} {}", spans.iter().map(|s| s.text.as_str()).collect::<String>())
                }
                Block::Paragraph { spans, depth, marker, .. } => format!(
                    "p{depth}{} {}",
                    marker.as_deref().map(|m| format!(" {m}")).unwrap_or_default(),
                    spans.iter().map(|s| s.text.as_str()).collect::<String>()
                ),
                Block::Code { text, .. } => format!("code {text}"),
                Block::Table { header, rows } => format!("table {}x{}", header.len(), rows.len()),
                Block::Rule => "rule".into(),
            })
            .collect()
    }

    #[test]
    fn headings_lists_code_tables_and_links_become_blocks() {
        let text = "# Title\n\nSome **bold** and `code`, a [link](docs/analysis.md).\n\n\
                    - one\n- two\n  1. inner\n  2. second\n\n```\nhase run x.ron\n```\n\n\
                    | a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n\n---\n";
        let b = blocks(text);
        assert_eq!(
            plain(&b),
            [
                "h1 Title",
                "p0 Some bold and code, a link.",
                "p1 • one",
                "p1 • two",
                "p2 1. inner",
                "p2 2. second",
                "code hase run x.ron",
                "table 2x2",
                "rule",
            ]
        );
        let Block::Paragraph { spans, .. } = &b[1] else { panic!("{:?}", b[1]) };
        assert!(spans.iter().any(|s| s.strong && s.text == "bold"));
        assert!(spans.iter().any(|s| s.code && s.text == "code"));
        assert!(spans.iter().any(|s| s.link.as_deref() == Some("docs/analysis.md") && s.text == "link"));
    }

    #[test]
    fn every_shipped_document_reads_without_raw_markup() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = vec![root.join("README.md")];
        files.extend(std::fs::read_dir(root.join("docs")).unwrap().map(|e| e.unwrap().path()));
        for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "md")) {
            let text = std::fs::read_to_string(file).unwrap();
            let file = file.display();
            let b = blocks(&text);
            assert!(b.iter().any(|b| matches!(b, Block::Heading { .. })), "{file} has no heading");
            // No paragraph starts with Markdown's own marks: they became headings, lists, tables.
            for block in &b {
                if let Block::Paragraph { spans, .. } = block {
                    let text: String = spans.iter().filter(|s| !s.code).map(|s| s.text.as_str()).collect();
                    for mark in ["# ", "## ", "| --- ", "```"] {
                        assert!(!text.starts_with(mark), "{file}: raw Markdown in {text:?}");
                    }
                }
            }
        }
    }
}
