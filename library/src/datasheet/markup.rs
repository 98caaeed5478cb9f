//! Escaping text for the data-sheet report's HTML and its SVG charts.

/// `&`, `<` and `>` as entities: text inside an element.
pub(super) fn escape_text(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Also `"` as an entity: text that may stand inside a quoted attribute.
pub(super) fn escape_attribute(text: &str) -> String {
    escape_text(text).replace('"', "&quot;")
}
