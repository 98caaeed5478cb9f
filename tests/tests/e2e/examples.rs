//! The example projects: committed files equal what `hase_library::examples` builds, every example
//! runs to completion with its golden trace fingerprint, and reruns are byte-identical.
//! `HASE_BLESS=1 cargo test -p hase-tests` rewrites the committed files and the golden fingerprints;
//! a fingerprint change must be explained in the commit that makes it.

use std::collections::BTreeMap;

use hase_engine::model::{ParamDisplay, load_project, project_to_ron};
use hase_library::examples;
use hase_library::runner::{RunOptions, TraceTarget};
use hase_tests::{blessing, golden_file, makespan, projects_dir, run, run_with};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Golden {
    makespan_ps: u64,
    events: u64,
    fingerprint: String,
}

/// Every example's files (project and extras) as (path under `projects/`, text).
fn example_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for ex in examples::all().unwrap() {
        files.push((ex.file.to_string(), project_to_ron(&ex.project).unwrap()));
        files.extend(ex.extra_files.iter().cloned());
    }
    files
}

/// When blessing, write the example files (both tests do, so neither depends on the other's order).
fn bless_examples() {
    if blessing() {
        for (name, text) in example_files() {
            let path = projects_dir().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &text).unwrap();
        }
    }
}

#[test]
fn committed_examples_equal_their_definitions() {
    bless_examples();
    let dir = projects_dir();
    {
        for (name, text) in example_files() {
            let path = dir.join(&name);
            let committed = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e} (run with HASE_BLESS=1 to write it)", path.display()));
            assert_eq!(
                committed, text,
                "{name} differs from hase_library::examples (HASE_BLESS=1 rewrites it)"
            );
        }
    }
}

#[test]
fn every_example_completes_with_its_golden_fingerprint() {
    bless_examples();
    let mut golden: BTreeMap<String, Golden> = if blessing() {
        BTreeMap::new()
    } else {
        ron::from_str(&std::fs::read_to_string(golden_file()).unwrap()).unwrap()
    };
    let mut seen = Vec::new();
    for ex in examples::all().unwrap() {
        let project = load_project(&projects_dir().join(ex.file)).unwrap();
        let result = run(&project);
        let got = Golden {
            makespan_ps: makespan(&result).as_ps(),
            events: result.stats.events,
            fingerprint: result.fingerprint.clone().unwrap(),
        };
        if blessing() {
            golden.insert(ex.file.to_string(), got);
        } else {
            let want = golden.get(ex.file).unwrap_or_else(|| panic!("no golden entry for {}", ex.file));
            assert_eq!(&got, want, "{}: behaviour changed (explain it, then HASE_BLESS=1)", ex.file);
        }
        seen.push(ex.file.to_string());
    }
    if blessing() {
        let text = ron::ser::to_string_pretty(&golden, ron::ser::PrettyConfig::default()).unwrap();
        std::fs::write(golden_file(), text + "\n").unwrap();
    }
    let listed: Vec<&String> = golden.keys().collect();
    assert_eq!(listed.len(), seen.len(), "golden file lists {listed:?}, examples are {seen:?}");
}

#[test]
fn reruns_write_byte_identical_traces_and_seeds_matter() {
    let dir = tempfile::tempdir().unwrap();
    let project = load_project(&projects_dir().join("task_farm.ron")).unwrap();
    let trace = |name: &str, seed: u64| {
        let path = dir.path().join(name);
        let options = RunOptions {
            seed: Some(seed),
            level: Some(1),
            trace: TraceTarget::File(path.clone()),
            base_dir: projects_dir(),
            ..RunOptions::default()
        };
        let result = run_with(&project, &options);
        assert!(result.trace_error.is_none(), "{:?}", result.trace_error);
        std::fs::read(path).unwrap()
    };
    let a = trace("a.trace", 7);
    let b = trace("b.trace", 7);
    let c = trace("c.trace", 8);
    assert!(a.len() > 10_000, "the trace should hold the whole run");
    assert!(a == b, "same project and seed must give byte-identical traces");
    assert!(a != c, "the task farm draws task times from seeded streams: another seed, another run");
}

/// Every project in `projects/` imports into a project store and exports back: byte for byte, or
/// as its generator recipe when its network is exactly the recipe's expansion.
#[test]
fn every_example_imports_into_the_store_and_exports_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let store = hase_library::store::ProjectStore::open(dir.path()).unwrap();
    for ex in examples::all().unwrap() {
        let path = projects_dir().join(ex.file);
        let (project, _) = store.import_ron(&path).unwrap();
        assert_eq!(project, load_project(&path).unwrap(), "{}", ex.file);
        assert_eq!(store.load(&project.name).unwrap().project, project, "{}", ex.file);
        let out = dir.path().join(ex.file.replace('/', "_"));
        store.export_ron(&project.name, &out).unwrap();
        let (exported, original) =
            (std::fs::read_to_string(&out).unwrap(), std::fs::read_to_string(&path).unwrap());
        if exported.contains("network_from_recipe: true") {
            // A generated network the example did not edit is stored as its recipe: smaller, and
            // the same project once loaded.
            assert!(exported.len() < original.len() / 2, "{}", ex.file);
            assert_eq!(hase_library::generated::load_project(&out).unwrap(), project, "{}", ex.file);
        } else {
            assert_eq!(exported, original, "{}", ex.file);
        }
    }
    assert_eq!(store.list().unwrap().len(), examples::all().unwrap().len());
}

/// At trace level 3 an example's routers and processors publish their live values: parameter
/// updates, array element updates and array reads, all naming parameters from the header.
#[test]
fn level_3_runs_trace_live_values_of_routers_and_processors() {
    use hase_engine::trace::Record;
    let mut project = load_project(&projects_dir().join("mesh_streams.ron")).unwrap();
    let options = RunOptions {
        level: Some(3),
        trace: TraceTarget::Memory,
        base_dir: projects_dir(),
        ..RunOptions::default()
    };
    // Nothing displayed, nothing asked for: no live values, the rest of the trace unchanged.
    let level_3_records = |options: &RunOptions, project: &hase_engine::model::Project| {
        let trace = run_with(project, options).trace.expect("kept in memory");
        let n = trace.records.iter().filter(|r| r.level() == hase_engine::trace::TraceLevel::UPDATES).count();
        (n, trace.records.len() - n)
    };
    let (quiet, others) = level_3_records(&options, &project);
    assert_eq!(quiet, 0, "live values are traced only when displayed or asked for");
    let forced = RunOptions { live_values: Some(true), ..options.clone() };
    let (forced_live, forced_others) = level_3_records(&forced, &project);
    assert!(forced_live > 0);
    assert_eq!(forced_others, others, "live values add records and change nothing else");
    // Displaying one router's queue (as the inspector does) brings them without being asked.
    let router = project.network.instances.iter().find(|(_, i)| i.type_name == "Router").unwrap().0.clone();
    project.layout.top.displayed.entry(router).or_default().insert("queued".into(), ParamDisplay::Value);
    assert_eq!(level_3_records(&options, &project).0, forced_live);
    let result = run_with(&project, &options);
    let trace = result.trace.expect("the trace is kept in memory");
    for type_name in ["Router", "Processor"] {
        let of_type = |e: u32| trace.header.entities[e as usize].type_name == type_name;
        let (mut params, mut arrays, mut reads) = (0, 0, 0);
        for r in &trace.records {
            match r {
                Record::Param { entity, .. } if of_type(*entity) => params += 1,
                Record::Array { entity, .. } if of_type(*entity) => arrays += 1,
                Record::ArrayRead { entity, .. } if of_type(*entity) => reads += 1,
                _ => {}
            }
        }
        assert!(params > 0 && arrays > 0 && reads > 0, "{type_name}: {params} {arrays} {reads}");
    }
    let router = trace.header.entities.iter().find(|e| e.type_name == "Router").unwrap();
    assert_eq!(*router.params, ["queued", "out_queue"]);
    let processor = trace.header.entities.iter().find(|e| e.type_name == "Processor").unwrap();
    assert_eq!(*processor.params, ["op", "sent_msgs", "recv_msgs", "sent_bytes", "unexpected"]);
    // Every router's `queued` ends at zero: all packets left.
    for (e, info) in trace.header.entities.iter().enumerate().filter(|(_, i)| i.type_name == "Router") {
        let last = trace.records.iter().rev().find_map(|r| match r {
            Record::Param { entity, param: 0, value, .. } if *entity as usize == e => Some(value.to_string()),
            _ => None,
        });
        assert_eq!(last.as_deref(), Some("0"), "{}", info.path);
    }
}
