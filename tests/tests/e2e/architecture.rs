//! The dependency rule: only `hase-app` may depend on the GUI stack. Walks `Cargo.lock` from each
//! core crate (the editor's state crate `hase-editor` included) through every dependency kind (so dev- and build-dependencies count too) and fails if
//! egui, eframe or winit is reachable.

use std::collections::{BTreeMap, BTreeSet};

/// package name → names of its dependencies, from the lock file.
fn lock_graph() -> BTreeMap<String, Vec<String>> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut graph: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut name = String::new();
    let mut in_deps = false;
    for line in text.lines() {
        let line = line.trim();
        if line == "[[package]]" {
            in_deps = false;
        } else if let Some(n) = line.strip_prefix("name = ") {
            name = n.trim_matches('"').to_string();
            graph.entry(name.clone()).or_default();
        } else if line.starts_with("dependencies = [") {
            in_deps = !line.ends_with(']');
        } else if in_deps && line == "]" {
            in_deps = false;
        } else if in_deps {
            let dep = line.trim_matches(|c| c == '"' || c == ',').split(' ').next().unwrap_or_default();
            graph.entry(name.clone()).or_default().push(dep.to_string());
        }
    }
    graph
}

#[test]
fn core_crates_never_reach_the_gui_stack() {
    let graph = lock_graph();
    assert!(graph.contains_key("egui") || graph.contains_key("hase-app"), "lock file not parsed");
    for root in
        ["hase-engine", "hase-entities", "hase-templates", "hase-library", "hase-editor", "hase-python"]
    {
        let mut seen = BTreeSet::new();
        let mut stack = vec![root.to_string()];
        while let Some(p) = stack.pop() {
            if !seen.insert(p.clone()) {
                continue;
            }
            for gui in ["egui", "eframe", "winit", "egui_kittest"] {
                assert_ne!(p, gui, "{root} depends (maybe indirectly) on {gui}");
            }
            stack.extend(graph.get(&p).cloned().unwrap_or_default());
        }
        assert!(seen.len() > 5, "{root}: only {seen:?} reached; is the lock file format understood?");
    }
}

/// `hase-app` without its default `gui` feature is the command line alone: `cargo tree` (run
/// offline from the lock file) must not list any crate of the GUI stack among its normal
/// dependencies.
#[test]
fn the_command_line_build_has_no_gui_in_its_tree() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
    let tree = |features: &[&str]| -> BTreeSet<String> {
        let output = std::process::Command::new(&cargo)
            .args(["tree", "--offline", "--locked", "-p", "hase-app", "-e", "normal"])
            .args(["--prefix", "none", "--format", "{p}", "--manifest-path"])
            .arg(&manifest)
            .args(features)
            .output()
            .unwrap();
        assert!(output.status.success(), "cargo tree: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| line.split_whitespace().next().map(str::to_string))
            .collect()
    };
    let gui_stack = ["egui", "eframe", "winit", "egui_plot", "rfd", "egui-winit", "glow"];
    let full = tree(&[]);
    for gui in ["egui", "eframe", "winit"] {
        assert!(full.contains(gui), "the default build should have {gui}: {full:?}");
    }
    let cli = tree(&["--no-default-features"]);
    assert!(cli.contains("clap") && cli.contains("hase-library"), "tree not read: {cli:?}");
    for gui in gui_stack {
        assert!(!cli.contains(gui), "`hase-app --no-default-features` depends on {gui}");
    }
}
