//! Hostile platform files end with a bounded error before they cost memory or stack: an internal
//! entity expanded tens of thousands of times, zones nested twenty thousand deep.

use std::fmt::Write;

use super::*;

#[test]
fn an_entity_expanded_thirty_thousand_times_is_refused_before_parsing() {
    let value = "x".repeat(200_000);
    let mut hosts = String::new();
    for i in 0..30_000 {
        write!(hosts, "<host id=\"h{i}\" speed=\"1Gf\"><prop id=\"p\" value=\"&big;\"/></host>").unwrap();
    }
    let text = format!(
        "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\" [\n\
         <!ENTITY big \"{value}\">\n]>\n<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">{hosts}</zone></platform>\n"
    );
    let err = import_simgrid(&text, "amplified.xml", &ImportOptions::default()).unwrap_err();
    assert!(matches!(err, ImportError::EntityExpansion { bytes: 6_000_000_000, .. }), "{err}");
    let message = err.to_string();
    assert!(message.starts_with("amplified.xml: its internal entities would expand"), "{message}");
    assert!(message.contains("`&big;`") && message.len() < 200, "{message}");
}

#[test]
fn zones_nested_twenty_thousand_deep_are_refused_with_their_line() {
    let depth = 20_000;
    let mut open = String::new();
    for i in 0..depth {
        writeln!(open, "<zone id=\"z{i}\" routing=\"Full\">").unwrap();
    }
    let text = format!(
        "<?xml version='1.0'?>\n<platform version=\"4.1\">\n{open}<host id=\"h\" speed=\"1Gf\"/>{}</platform>\n",
        "</zone>".repeat(depth)
    );
    let err = import_simgrid(&text, "deep.xml", &ImportOptions::default()).unwrap_err();
    assert!(matches!(err, ImportError::TooDeep { depth: 257, limit: 256, .. }), "{err}");
    assert!(err.to_string().starts_with("deep.xml:259:"), "{err}");
}
