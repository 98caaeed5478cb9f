//! Where the user is in the hierarchy ([`Crumb`]: one compound opened) and what is selected in the
//! open network ([`Selection`]).

use std::collections::BTreeSet;

/// One step into the hierarchy: the compound instance opened and its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crumb {
    /// Instance name in the parent network.
    pub instance: String,
    /// Its compound type (whose inner network is shown).
    pub type_name: String,
}

/// Selected instances and links of the open network.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Instance names.
    pub instances: BTreeSet<String>,
    /// Link keys.
    pub links: BTreeSet<String>,
}

impl Selection {
    /// True if nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.instances.is_empty() && self.links.is_empty()
    }
    /// Select nothing.
    pub fn clear(&mut self) {
        self.instances.clear();
        self.links.clear();
    }
    /// Select exactly one instance.
    pub fn only(&mut self, name: &str) {
        self.clear();
        self.instances.insert(name.to_string());
    }
}
