//! Reads a crate's production source with `syn`: every file as a module (its path in the crate),
//! the names it defines at its top level, and the crate-relative paths it names (`use crate::…`,
//! `use super::…`, and paths written in the code). Test code is left out: files named for tests,
//! and items under `#[cfg(test)]` (or `#[cfg(any(test, …))]`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// One source file of a crate, read as a module.
pub struct SourceFile {
    /// Path from the repository root, e.g. `engine/src/kernel/sim.rs`.
    pub path: String,
    /// Module path inside the crate, e.g. `["kernel", "sim"]`; empty for the crate root.
    pub module: Vec<String>,
    /// Names of the items defined at the file's top level.
    pub defines: BTreeSet<String>,
    /// Absolute module paths (from the crate root) that the file names, e.g. `["kernel", "ctx",
    /// "Ctx"]`.
    pub names: BTreeSet<Vec<String>>,
    /// Paths written relative to the file's own module (`child::f()` in a `mod.rs` that declares
    /// `mod child;`), made absolute; they count only when their first segment is a module file.
    pub relative_names: BTreeSet<Vec<String>>,
    /// The production items of the file, for other checks.
    pub syntax: syn::File,
}

/// Every production source file under `src_dir` (a crate's `src/`), with `repo` the repository
/// root the paths are shown from. Files named for tests are skipped, and so are modules that their
/// parent declares under `#[cfg(test)]` (with everything below them).
pub fn read_crate(repo: &Path, src_dir: &Path) -> Vec<SourceFile> {
    let mut files = Vec::new();
    let mut test_modules = BTreeSet::new();
    let mut stack = vec![src_dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && !is_test_file(path.strip_prefix(src_dir).unwrap_or(&path))
            {
                let (file, tests) = read_file(repo, src_dir, &path);
                test_modules.extend(tests);
                files.push(file);
            }
        }
    }
    files.retain(|f| !test_modules.iter().any(|m: &Vec<String>| f.module.starts_with(m)));
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// Files that hold only tests or test fixtures, by their path inside `src/`.
fn is_test_file(path: &Path) -> bool {
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let in_test_dir = path.components().any(|c| c.as_os_str() == "tests" || c.as_os_str() == "gui_tests");
    in_test_dir
        || name == "tests"
        || name.starts_with("tests_")
        || name.ends_with("_tests")
        || name.contains("_tests_")
        || name.starts_with("gui_tests")
        || name == "fixtures"
}

/// The file read as a module, and the modules it declares under `#[cfg(test)]`.
fn read_file(repo: &Path, src_dir: &Path, path: &Path) -> (SourceFile, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut syntax = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let module = module_path(src_dir, path);
    let test_modules = syntax
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(m) if is_test_only(&m.attrs) => {
                Some(module.iter().cloned().chain([m.ident.to_string()]).collect())
            }
            _ => None,
        })
        .collect();
    syntax.items.retain(|item| !is_test_only(item_attrs(item)));
    let defines = syntax.items.iter().filter_map(item_name).collect();
    let mut collector =
        PathCollector { module: &module, names: BTreeSet::new(), relative_names: BTreeSet::new() };
    collector.visit_file(&syntax);
    let (names, relative_names) = (collector.names, collector.relative_names);
    let shown = path.strip_prefix(repo).unwrap_or(path).display().to_string();
    (SourceFile { path: shown, module, defines, names, relative_names, syntax }, test_modules)
}

fn module_path(src_dir: &Path, path: &Path) -> Vec<String> {
    let rel = path.strip_prefix(src_dir).unwrap();
    let mut parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// Whether the attributes put an item under `cfg(test)` (alone or in an `any(…)`).
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg") && {
            let tokens = attr.meta.require_list().map(|l| l.tokens.to_string()).unwrap_or_default();
            tokens == "test"
                || (tokens.starts_with("any")
                    && tokens.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == "test"))
        }
    })
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        _ => &[],
    }
}

fn item_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Static(i) => &i.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        syn::Item::Macro(i) => i.ident.as_ref()?,
        _ => return None,
    };
    Some(ident.to_string())
}

/// Collects the crate-relative paths a file names, made absolute from the crate root.
struct PathCollector<'a> {
    module: &'a [String],
    names: BTreeSet<Vec<String>>,
    relative_names: BTreeSet<Vec<String>>,
}

impl PathCollector<'_> {
    /// The absolute form of a path written in this file, if it starts inside the crate.
    fn absolute(&self, segments: &[String]) -> Option<Vec<String>> {
        let first = segments.first()?;
        let mut base: Vec<String> = match first.as_str() {
            "crate" => Vec::new(),
            "self" => self.module.to_vec(),
            "super" => {
                // `super` in `a/b.rs` (module `a::b`) and in `a/b/mod.rs` (also `a::b`) is `a`.
                let supers = segments.iter().take_while(|s| *s == "super").count();
                let kept = self.module.len().saturating_sub(supers);
                let rest = segments.iter().skip(supers).cloned();
                return Some(self.module[..kept].iter().cloned().chain(rest).collect());
            }
            _ => return None,
        };
        base.extend(segments[1..].iter().cloned());
        Some(base)
    }

    fn add(&mut self, segments: &[String]) {
        if let Some(path) = self.absolute(segments) {
            self.names.insert(path);
        } else if segments.len() > 1 {
            let path = self.module.iter().chain(segments).cloned().collect();
            self.relative_names.insert(path);
        }
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                if name == "self" {
                    self.add(prefix);
                } else {
                    prefix.push(name);
                    self.add(prefix);
                    prefix.pop();
                }
            }
            syn::UseTree::Rename(r) => {
                prefix.push(r.ident.to_string());
                self.add(prefix);
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.add(prefix),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for PathCollector<'_> {
    fn visit_item_use(&mut self, node: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &node.tree);
    }

    fn visit_path(&mut self, node: &'ast syn::Path) {
        let segments: Vec<String> = node.segments.iter().map(|s| s.ident.to_string()).collect();
        self.add(&segments);
        syn::visit::visit_path(self, node);
    }

    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {
        // `pub(crate)` and `pub(in crate::a)` name modules but take nothing from them.
    }

    fn visit_item_mod(&mut self, node: &'ast syn::ItemMod) {
        // An inline module's own paths are relative to it; they are few and never tie files
        // together except through `super`, which then names this same file: leave them out.
        if node.content.is_none() {
            syn::visit::visit_item_mod(self, node);
        }
    }
}
