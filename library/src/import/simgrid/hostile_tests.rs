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

fn explicit(body: &str) -> String {
    format!(
        "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n{body}\n</zone>\n</platform>\n"
    )
}

fn refusal(text: &str) -> ImportError {
    import_simgrid(text, "names.xml", &ImportOptions::default()).unwrap_err()
}

#[test]
fn a_host_name_longer_than_validation_allows_is_refused_with_its_line() {
    let long = "h".repeat(4_097);
    let err = refusal(&explicit(&format!(
        "<host id=\"a\" speed=\"1Gf\"/>\n<host id=\"{long}\" speed=\"1Gf\"/>\n<link id=\"l\" bandwidth=\"1GBps\"/>\n\
         <route src=\"a\" dst=\"{long}\"><link_ctn id=\"l\"/></route>"
    )));
    assert!(matches!(err, ImportError::IdTooLong { bytes: 4_097, limit: 4_096, .. }), "{err}");
    let message = err.to_string();
    assert!(message.starts_with("names.xml:5: <host> id `hhhh"), "{message}");
    assert!(message.ends_with("of 4097 bytes is longer than the 4096-byte limit for names"), "{message}");
    assert!(message.len() < 200, "{message}");
}

#[test]
fn links_zones_and_routers_with_long_ids_are_refused_too() {
    // XML refuses control characters in attributes: a long id of two-byte characters.
    let long = "x\u{e9}".repeat(2_000);
    for (element, body) in [
        ("link", format!("<host id=\"a\" speed=\"1Gf\"/><link id=\"{long}\" bandwidth=\"1GBps\"/>")),
        ("zone", format!("<zone id=\"{long}\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>")),
        ("router", format!("<host id=\"a\" speed=\"1Gf\"/><router id=\"{long}\"/>")),
    ] {
        let err = refusal(&explicit(&body));
        let message = err.to_string();
        assert!(matches!(err, ImportError::IdTooLong { bytes: 6_000, .. }), "{element}: {message}");
        assert!(message.starts_with(&format!("names.xml:4: <{element}> id `x\u{e9}x\u{e9}")), "{message}");
        assert!(message.contains("\u{e9}…` of 6000 bytes") && message.len() < 250, "{message}");
    }
}

#[test]
fn a_host_whose_switch_name_would_be_too_long_is_refused_and_one_just_short_imports() {
    // A host's processor is named after it (with an `h` before a digit), its switch `sw_` + that.
    let fits = "x".repeat(4_093);
    let imported = import_simgrid(
        &explicit(&format!(
            "<host id=\"a\" speed=\"1Gf\"/><host id=\"{fits}\" speed=\"1Gf\"/><link id=\"l\" bandwidth=\"1GBps\"/>\
             <route src=\"a\" dst=\"{fits}\"><link_ctn id=\"l\"/></route>"
        )),
        "names.xml",
        &ImportOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let registry = crate::catalogue::registry_for(&imported.project);
    hase_engine::validate::validate_project(&imported.project, &registry).unwrap_or_else(|e| panic!("{e}"));
    let over = format!("9{}", "x".repeat(4_092));
    let err = refusal(&explicit(&format!(
        "<host id=\"a\" speed=\"1Gf\"/>\n<host id=\"{over}\" speed=\"1Gf\"/><link id=\"l\" bandwidth=\"1GBps\"/>\
         <route src=\"a\" dst=\"{over}\"><link_ctn id=\"l\"/></route>"
    )));
    assert!(matches!(err, ImportError::EntityNameTooLong { element: "host", bytes: 4_097, .. }), "{err}");
    assert!(err.to_string().starts_with("names.xml:5: <host> `9xxx"), "{err}");
}

#[test]
fn a_cluster_whose_host_names_would_be_too_long_is_refused_before_naming_them() {
    let prefix = "n".repeat(4_092);
    let text = format!(
        "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<cluster id=\"c\" prefix=\"{prefix}\" radical=\"0-99999\" \
         speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/>\n</platform>\n"
    );
    let err = refusal(&text);
    assert!(matches!(err, ImportError::EntityNameTooLong { element: "cluster", bytes: 4_097, .. }), "{err}");
    assert!(err.to_string().starts_with("names.xml:3: <cluster> `nnnn"), "{err}");
}

#[test]
fn a_radical_up_to_the_largest_number_is_refused_as_too_many_hosts() {
    for radical in ["0-18446744073709551615", "0,0-18446744073709551615", "0-3,1-18446744073709551615"] {
        let text = format!(
            "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<cluster id=\"c\" prefix=\"h\" suffix=\"\" \
             radical=\"{radical}\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/>\n</platform>\n"
        );
        let err = refusal(&text);
        assert!(
            matches!(err, ImportError::ClusterParam { source: ClusterParamError::TooManyHosts { .. }, .. }),
            "{radical}: {err}"
        );
        assert!(err.to_string().starts_with("names.xml:3:"), "{err}");
    }
}
