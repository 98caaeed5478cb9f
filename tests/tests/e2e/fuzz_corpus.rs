//! Every committed fuzzing corpus file (`fuzz/corpus/<target>/`), replayed through its target's
//! entry point in `hase_tests::fuzz`: the seeds, and each crash the fuzzer found once it was
//! fixed, stay regression tests in a plain `cargo test`. Also checks that the fuzz crate has one
//! target per entry point and a seed corpus for each.

use std::path::PathBuf;

use hase_tests::fuzz::TARGETS;

fn fuzz_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

#[test]
fn every_committed_corpus_file_is_read_or_refused_without_a_panic() {
    let mut replayed = 0;
    for (name, target) in TARGETS {
        let dir = fuzz_dir().join("corpus").join(name);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{name}: no seed corpus in {}", dir.display());
        for file in files {
            let data = std::fs::read(&file).unwrap();
            let outcome = std::panic::catch_unwind(|| target(&data));
            assert!(outcome.is_ok(), "{name}: {} panics (see above)", file.display());
            replayed += 1;
        }
    }
    assert!(replayed >= TARGETS.len(), "{replayed} files replayed");
}

#[test]
fn the_fuzz_crate_has_one_target_per_entry_point() {
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
    for (name, _) in TARGETS {
        let source = fuzz_dir().join("fuzz_targets").join(format!("{name}.rs"));
        let text = std::fs::read_to_string(&source).unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        assert!(
            text.contains(&format!("hase_tests::fuzz::{name}(")),
            "{} calls another entry point",
            source.display()
        );
        assert!(manifest.contains(&format!("name = \"{name}\"")), "fuzz/Cargo.toml lacks the bin {name}");
    }
}
