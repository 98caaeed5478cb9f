//! The file-level import graph of one crate and its circles. A file points at another when it
//! takes a name from it: a path `crate::a::b::Name` goes to the file that defines `Name` (the
//! module file `a/b.rs` itself, or the file below it that its re-export comes from), and a path
//! that names a module goes to that module's file. Circles are the strongly connected components
//! with more than one file (Tarjan's algorithm).

use std::collections::{BTreeMap, BTreeSet};

use super::scan::SourceFile;

/// The arrows between a crate's files: for each file (by index), the files it takes names from,
/// with the names taken.
pub struct ImportGraph<'a> {
    /// The crate's files.
    pub files: &'a [SourceFile],
    /// `edges[from][to]` = names `from` takes from `to`.
    pub edges: Vec<BTreeMap<usize, BTreeSet<String>>>,
}

impl<'a> ImportGraph<'a> {
    /// Resolve every path each file names to the file it comes from.
    pub fn new(files: &'a [SourceFile]) -> Self {
        let by_module: BTreeMap<&[String], usize> =
            files.iter().enumerate().map(|(i, f)| (f.module.as_slice(), i)).collect();
        let mut edges = vec![BTreeMap::<usize, BTreeSet<String>>::new(); files.len()];
        for (from, file) in files.iter().enumerate() {
            // A relative path counts when its first segment is a module of the file's own.
            let child_depth = file.module.len() + 1;
            let relative = file
                .relative_names
                .iter()
                .filter(|path| path.len() > child_depth && by_module.contains_key(&path[..child_depth]));
            for path in file.names.iter().chain(relative) {
                if let Some((to, name)) = resolve(files, &by_module, path)
                    && to != from
                {
                    edges[from].entry(to).or_default().insert(name);
                }
            }
        }
        ImportGraph { files, edges }
    }

    /// Groups of files that import each other in a loop, each sorted by path; sorted.
    pub fn circles(&self) -> Vec<Vec<usize>> {
        let mut tarjan = Tarjan::new(self.files.len());
        for v in 0..self.files.len() {
            if tarjan.index[v].is_none() {
                tarjan.connect(v, &self.edges);
            }
        }
        let mut circles: Vec<Vec<usize>> = tarjan.components.into_iter().filter(|c| c.len() > 1).collect();
        for c in &mut circles {
            c.sort_by(|a, b| self.files[*a].path.cmp(&self.files[*b].path));
        }
        circles.sort_by(|a, b| self.files[a[0]].path.cmp(&self.files[b[0]].path));
        circles
    }

    /// A circle in words: each arrow inside it with the names it carries.
    pub fn describe(&self, circle: &[usize]) -> String {
        let members: BTreeSet<usize> = circle.iter().copied().collect();
        let mut lines = Vec::new();
        for &from in circle {
            for (to, names) in &self.edges[from] {
                if members.contains(to) {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    let (from, to) = (&self.files[from].path, &self.files[*to].path);
                    lines.push(format!("\n    {from} -> {to}: {}", names.join(", ")));
                }
            }
        }
        lines.concat()
    }
}

/// The file a crate-absolute path takes its name from, and that name.
fn resolve(
    files: &[SourceFile],
    by_module: &BTreeMap<&[String], usize>,
    path: &[String],
) -> Option<(usize, String)> {
    // The deepest module file the path passes through.
    let mut depth = 0;
    while depth < path.len() && by_module.contains_key(&path[..=depth]) {
        depth += 1;
    }
    let module = *by_module.get(&path[..depth])?;
    let Some(name) = path.get(depth) else {
        // The path names a module: the arrow goes to its file.
        let name = path.last().cloned().unwrap_or_else(|| "crate".into());
        return Some((module, name));
    };
    if files[module].defines.contains(name) {
        return Some((module, name.clone()));
    }
    // A re-export: the file below the module that defines the name (the nearest one).
    let prefix = &files[module].module;
    files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.module.starts_with(prefix) && f.defines.contains(name))
        .min_by_key(|(_, f)| (f.module.len(), f.path.clone()))
        .map(|(i, _)| (i, name.clone()))
        .or(Some((module, name.clone())))
}

/// Tarjan's strongly connected components.
struct Tarjan {
    next: usize,
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    components: Vec<Vec<usize>>,
}

impl Tarjan {
    fn new(n: usize) -> Self {
        Tarjan {
            next: 0,
            index: vec![None; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            stack: Vec::new(),
            components: Vec::new(),
        }
    }

    fn connect(&mut self, v: usize, edges: &[BTreeMap<usize, BTreeSet<String>>]) {
        self.index[v] = Some(self.next);
        self.low[v] = self.next;
        self.next += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
        for &w in edges[v].keys() {
            match self.index[w] {
                None => {
                    self.connect(w, edges);
                    self.low[v] = self.low[v].min(self.low[w]);
                }
                Some(w_index) if self.on_stack[w] => self.low[v] = self.low[v].min(w_index),
                Some(_) => {}
            }
        }
        if Some(self.low[v]) == self.index[v] {
            let mut component = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            self.components.push(component);
        }
    }
}
