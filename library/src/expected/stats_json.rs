//! The run statistics as `hase run --stats` writes them, with the closed form's `expected` field
//! beside the measured figures (the Python package's `Run.stats` is the same text).

use hase_engine::stats::RunStats;

use super::answer::Expected;
use super::no_closed_form::NoClosedForm;

/// The statistics file's `expected` field: the closed form's makespan and source, or why there
/// is none.
pub fn expected_json(expected: &Result<Expected, NoClosedForm>) -> serde_json::Value {
    match expected {
        Ok(e) => serde_json::json!({
            "makespan_ps": e.makespan.as_ps(),
            "call_ps": e.call.as_ps(),
            "calls": e.calls,
            "closed_form": e.form.to_string(),
        }),
        Err(why) => serde_json::json!({ "none": why.to_string() }),
    }
}

/// `stats` as pretty JSON with an `expected` field when `expected` is given.
pub fn stats_json_with_expected(
    stats: &RunStats,
    expected: Option<&Result<Expected, NoClosedForm>>,
) -> Result<String, serde_json::Error> {
    let mut json = serde_json::to_value(stats)?;
    if let (Some(expected), Some(fields)) = (expected, json.as_object_mut()) {
        fields.insert("expected".into(), expected_json(expected));
    }
    serde_json::to_string_pretty(&json)
}
