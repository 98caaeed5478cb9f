//! The set of entity types visible to a project: built-in library types plus the project's own.

use std::collections::BTreeMap;

use super::project::Project;
use super::types::EntityType;

/// Types by name. Project types shadow built-in types of the same name.
#[derive(Clone, Debug, Default)]
pub struct TypeRegistry {
    types: BTreeMap<String, EntityType>,
}

impl TypeRegistry {
    /// A registry from a list of types.
    pub fn new(types: impl IntoIterator<Item = EntityType>) -> Self {
        TypeRegistry { types: types.into_iter().map(|t| (t.name.clone(), t)).collect() }
    }
    /// Built-in types extended (and shadowed) by a project's own types.
    pub fn for_project(builtins: &TypeRegistry, project: &Project) -> Self {
        let mut types = builtins.types.clone();
        types.extend(project.types.iter().map(|(k, v)| (k.clone(), v.clone())));
        TypeRegistry { types }
    }
    /// Look a type up.
    pub fn get(&self, name: &str) -> Option<&EntityType> {
        self.types.get(name)
    }
    /// Add or replace a type.
    pub fn insert(&mut self, t: EntityType) {
        self.types.insert(t.name.clone(), t);
    }
    /// All types in name order.
    pub fn iter(&self) -> impl Iterator<Item = &EntityType> {
        self.types.values()
    }
    /// Number of types.
    pub fn len(&self) -> usize {
        self.types.len()
    }
    /// True if there are no types.
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }
}
