//! The shape of the code, checked: no file of a crate imports another in a loop (one way through
//! every crate, as the crates themselves depend one way), and no production code below the
//! application returns `Result<_, String>` (errors are typed enums). Run with `--nocapture` to
//! see the figures: `cargo test -p hase-tests --test e2e code_shape -- --nocapture`.

mod graph;
mod scan;

use std::path::{Path, PathBuf};

use quote::ToTokens;
use syn::visit::Visit;

/// The crates whose files are checked, by source folder.
const CRATES: [&str; 8] =
    ["engine", "entities", "templates", "library", "hase-editor", "hase-app", "tests", "python"];

/// The crates below the application: no `Result<_, String>` in their production code.
const TYPED_ERROR_CRATES: [&str; 6] = ["engine", "entities", "templates", "library", "hase-editor", "python"];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

#[test]
fn no_file_imports_another_file_of_its_crate_in_a_loop() {
    let repo = repo();
    let mut report = Vec::new();
    let mut files_read = 0;
    let mut circles = 0;
    for krate in CRATES {
        let files = scan::read_crate(&repo, &repo.join(krate).join("src"));
        files_read += files.len();
        let graph = graph::ImportGraph::new(&files);
        for circle in graph.circles() {
            circles += 1;
            report.push(format!("\ncircle of {} files:{}", circle.len(), graph.describe(&circle)));
        }
    }
    eprintln!("import circles: {circles} in {files_read} production files");
    assert!(files_read > 300, "only {files_read} files read: is the source layout understood?");
    assert!(circles == 0, "files that import each other in a loop:{}", report.concat());
}

#[test]
fn no_production_code_below_the_application_returns_string_errors() {
    let repo = repo();
    let mut found = Vec::new();
    for krate in CRATES {
        let files = scan::read_crate(&repo, &repo.join(krate).join("src"));
        let mut count = 0;
        for file in &files {
            let mut finder = StringErrors { found: Vec::new() };
            finder.visit_file(&file.syntax);
            count += finder.found.len();
            if TYPED_ERROR_CRATES.contains(&krate) {
                found.extend(finder.found.into_iter().map(|at| format!("{}: {at}", file.path)));
            }
        }
        eprintln!("Result<_, String> in {krate}: {count}");
    }
    assert!(
        found.is_empty(),
        "production code returns `Result<_, String>` (use a thiserror enum):\n{}",
        found.join("\n")
    );
}

/// Finds `Result<T, String>` types (in signatures, fields, aliases, anywhere).
struct StringErrors {
    found: Vec<String>,
}

impl<'ast> Visit<'ast> for StringErrors {
    fn visit_type_path(&mut self, node: &'ast syn::TypePath) {
        if let Some(last) = node.path.segments.last()
            && last.ident == "Result"
            && let syn::PathArguments::AngleBracketed(args) = &last.arguments
            && let Some(syn::GenericArgument::Type(syn::Type::Path(error))) = args.args.iter().nth(1)
            && error.path.is_ident("String")
        {
            self.found.push(node.to_token_stream().to_string());
        }
        syn::visit::visit_type_path(self, node);
    }
}
