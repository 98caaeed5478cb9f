//! The expansion budget of a platform file's internal entities (`<!ENTITY name "value">` in the
//! DOCTYPE), checked on the text before the XML parser expands anything: a 290 KB file whose one
//! 200,000-character entity is referenced 30,000 times would otherwise expand to gigabytes. The
//! expanded size is each entity's value length (with the entities it names, expanded) times its
//! references, summed.

use std::collections::BTreeMap;

/// Bytes the internal entities of one platform file may expand to, all references together.
pub(super) const MAX_EXPANDED_ENTITY_BYTES: u64 = 16 << 20;

/// How deep entities may name other entities before the budget treats them as unbounded.
const MAX_ENTITY_NESTING: usize = 8;

/// Internal entities whose references expand past [`MAX_EXPANDED_ENTITY_BYTES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct OverBudget {
    /// The entity contributing most.
    pub entity: String,
    /// Bytes all references would expand to (saturating).
    pub expanded_bytes: u64,
}

/// Check the expansion of the internal entities declared in `text`'s DOCTYPE.
pub(super) fn check_entity_budget(text: &str) -> Result<(), OverBudget> {
    let Some((declarations, body_start)) = internal_subset(text) else {
        return Ok(());
    };
    let values = declared_entities(declarations);
    if values.is_empty() {
        return Ok(());
    }
    let references = count_references(&text[body_start..], &values);
    let mut total: u64 = 0;
    let mut largest: Option<(u64, &str)> = None;
    for (name, count) in &references {
        let each = expanded_length(name, &values, 0);
        let bytes = each.saturating_mul(*count);
        total = total.saturating_add(bytes);
        if largest.is_none_or(|(most, _)| bytes > most) {
            largest = Some((bytes, name));
        }
    }
    match largest {
        Some((_, name)) if total > MAX_EXPANDED_ENTITY_BYTES => {
            Err(OverBudget { entity: name.to_string(), expanded_bytes: total })
        }
        _ => Ok(()),
    }
}

/// The text between `<!DOCTYPE … [` and its `]`, and where the document after it starts.
fn internal_subset(text: &str) -> Option<(&str, usize)> {
    let doctype = text.find("<!DOCTYPE")?;
    let rest = &text[doctype..];
    let open = rest.find('[')?;
    // A DOCTYPE without an internal subset closes before any `[`.
    if rest.find('>').is_some_and(|close| close < open) {
        return None;
    }
    let inner_start = doctype + open + 1;
    let inner_len = text[inner_start..].find(']')?;
    Some((&text[inner_start..inner_start + inner_len], inner_start + inner_len))
}

/// `name → value` of every internal general entity (parameter and external ones are skipped).
fn declared_entities(subset: &str) -> BTreeMap<&str, &str> {
    let mut values = BTreeMap::new();
    let mut rest = subset;
    while let Some(at) = rest.find("<!ENTITY") {
        rest = rest[at + "<!ENTITY".len()..].trim_start();
        if rest.starts_with('%') {
            continue;
        }
        let name_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let name = &rest[..name_end];
        rest = rest[name_end..].trim_start();
        let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        let Some(value_len) = rest[1..].find(quote) else {
            break;
        };
        values.insert(name, &rest[1..=value_len]);
        rest = &rest[1 + value_len..];
    }
    values
}

/// How often each declared entity is referenced (`&name;`) in `body`.
fn count_references<'a>(body: &str, values: &BTreeMap<&'a str, &str>) -> BTreeMap<&'a str, u64> {
    let mut counts = BTreeMap::new();
    for (name, _) in references_in(body) {
        if let Some((&declared, _)) = values.get_key_value(name) {
            *counts.entry(declared).or_insert(0) += 1;
        }
    }
    counts
}

/// The `&name;` references of `text`, with their positions.
fn references_in(text: &str) -> impl Iterator<Item = (&str, usize)> {
    text.match_indices('&').filter_map(move |(at, _)| {
        let after = &text[at + 1..];
        let end = after.find(';')?;
        let name = &after[..end];
        let plain = !name.is_empty() && !name.starts_with('#') && !name.contains(char::is_whitespace);
        plain.then_some((name, at))
    })
}

/// The length of `name`'s value with the entities it references expanded (saturating; deeper than
/// [`MAX_ENTITY_NESTING`] counts as unbounded).
fn expanded_length(name: &str, values: &BTreeMap<&str, &str>, depth: usize) -> u64 {
    if depth > MAX_ENTITY_NESTING {
        return u64::MAX;
    }
    let Some(value) = values.get(name) else {
        return name.len() as u64 + 2;
    };
    let mut length = value.len() as u64;
    for (inner, _) in references_in(value) {
        if values.contains_key(inner) {
            length = length.saturating_add(expanded_length(inner, values, depth + 1));
        }
    }
    length
}

#[cfg(test)]
mod tests {
    use super::*;

    fn platform(value_len: usize, references: usize) -> String {
        let value = "x".repeat(value_len);
        let body = "<host id=\"h\" speed=\"1Gf\"><prop id=\"a\" value=\"&big;\"/></host>".repeat(references);
        format!(
            "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\" [\n\
             <!ENTITY big \"{value}\">\n]>\n<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">{body}</zone></platform>"
        )
    }

    #[test]
    fn one_large_entity_referenced_many_times_is_over_budget() {
        let err = check_entity_budget(&platform(200_000, 30_000)).unwrap_err();
        assert_eq!(err, OverBudget { entity: "big".into(), expanded_bytes: 6_000_000_000 });
    }

    #[test]
    fn small_entities_and_plain_doctypes_pass() {
        assert!(check_entity_budget(&platform(100, 1000)).is_ok());
        let plain = "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<platform/>";
        assert!(check_entity_budget(plain).is_ok());
        assert!(check_entity_budget("<platform>&amp; &#38; & ;</platform>").is_ok());
    }

    #[test]
    fn entities_naming_entities_count_their_expansion() {
        let text = "<!DOCTYPE p [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]>";
        let values = declared_entities(internal_subset(text).unwrap().0);
        assert_eq!(expanded_length("b", &values, 0), 30 + 100);
        let looping = "<!DOCTYPE p [<!ENTITY a \"&b;\"><!ENTITY b \"&a;\">]><p>&a;</p>";
        assert!(check_entity_budget(looping).is_err(), "a loop is unbounded");
    }
}
