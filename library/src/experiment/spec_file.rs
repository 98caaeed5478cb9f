//! A sweep spec as a RON file: read (the version checked first, errors with the file, line and
//! column), written pretty, loaded from a path.

use std::path::Path;

use hase_engine::FilePlace;
use serde::Deserialize;

use super::error::{Place, SpecError, SpecProblem};
use super::spec::{SPEC_SCHEMA_VERSION, SweepSpec};

/// Only the version field, read first so that a version mismatch is reported before schema errors.
#[derive(Deserialize)]
struct VersionProbe {
    schema_version: u32,
}

fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Parse a spec from RON text; `origin` names the file in errors (with line and column).
pub fn spec_from_ron(text: &str, origin: &str) -> Result<SweepSpec, SpecError> {
    if let Ok(probe) = ron_options().from_str::<VersionProbe>(text)
        && (probe.schema_version == 0 || probe.schema_version > SPEC_SCHEMA_VERSION)
    {
        return Err(SpecError::at(
            Place::file(origin, 1, 1),
            SpecProblem::SchemaVersion { version: probe.schema_version, latest: SPEC_SCHEMA_VERSION },
        ));
    }
    let mut spec: SweepSpec = ron_options()
        .from_str(text)
        .map_err(|e| SpecError::at(Place::file(origin, e.span.start.line, e.span.start.col), e.code))?;
    spec.schema_version = SPEC_SCHEMA_VERSION;
    Ok(spec)
}

/// Render a spec as pretty RON (what `--save-spec`, the GUI and the store write).
pub fn spec_to_ron(spec: &SweepSpec) -> String {
    let config = ron::ser::PrettyConfig::new().depth_limit(4).indentor("  ".to_string()).struct_names(false);
    // Every field is a plain string, number, list or enum: serialisation cannot fail.
    ron::ser::to_string_pretty(spec, config).unwrap_or_default()
}

/// Read a spec file.
pub fn load_spec(path: &Path) -> Result<SweepSpec, SpecError> {
    let shown = path.display().to_string();
    let text = hase_engine::limits::read_text_input(path)
        .map_err(|e| SpecError::at(Place::File(FilePlace::file(shown.clone())), e))?;
    spec_from_ron(&text, &shown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::spec::{Combination, DEFAULT_METRICS, ProjectSource, VariableSpec};

    fn sample() -> SweepSpec {
        let mut spec = SweepSpec::new(ProjectSource::File("p.ron".into()));
        spec.variables.push(VariableSpec {
            target: "workload.message_bytes".into(),
            values: "1K..1M *2".into(),
            name: None,
        });
        spec.constraint = Some("workload.message_bytes > 2048".into());
        spec.traces = Some(2);
        spec.shuffle_ties = true;
        spec.combination = Combination::Groups(vec![vec!["a".into(), "b".into()]]);
        spec
    }

    #[test]
    fn round_trips_through_ron() {
        let spec = sample();
        let text = spec_to_ron(&spec);
        assert_eq!(spec_from_ron(&text, "s.ron").unwrap(), spec, "{text}");
    }

    #[test]
    fn short_hand_fields_take_their_defaults() {
        let text = r#"(schema_version: 1, project: File("x.ron"), variables: [(target: "algorithm", values: "ring")], constraint: "1 < 2")"#;
        let spec = spec_from_ron(text, "s.ron").unwrap();
        assert_eq!((spec.repetitions, spec.seed, &spec.combination), (1, 1, &Combination::Cross));
        assert_eq!(spec.constraint.as_deref(), Some("1 < 2"));
        assert_eq!(spec.metric_names(), DEFAULT_METRICS);
    }

    #[test]
    fn syntax_errors_and_new_versions_name_the_place() {
        let err = spec_from_ron(
            "(\n  schema_version: 1,\n  project: File(\"x\"),\n  variables: [oops],\n)",
            "s.ron",
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("s.ron:4:"), "{err}");
        let newer = spec_to_ron(&sample()).replace("schema_version: 1", "schema_version: 7");
        let err = spec_from_ron(&newer, "s.ron").unwrap_err().to_string();
        assert!(err.contains("version 7") && err.contains("update hase"), "{err}");
    }
}
