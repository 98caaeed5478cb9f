//! [`TemplateInsert`]: what the template dialog asks to insert — the generated topology, flat or
//! as a compound, the name prefix and whether the processors come too — as the insert command
//! carries it.

use hase_templates::TemplateSpec;

/// How the generated network is inserted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InsertForm {
    /// Switches (and processors) side by side in the open network, which takes the template's
    /// routing rule.
    Flat,
    /// The switches inside a new compound network type, placed once as `instance`; processors
    /// beside it, linked to its ports.
    Compound {
        /// Name of the new type.
        type_name: String,
        /// Name of its instance.
        instance: String,
    },
}

/// A template to insert: what to generate and how to name and place it.
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateInsert {
    /// Topology, components, links.
    pub spec: TemplateSpec,
    /// Flat or compound.
    pub form: InsertForm,
    /// Put before every generated instance name (except the compound instance's own name).
    pub prefix: String,
    /// Insert the processors too (with ranks 0…N−1), or only the switches.
    pub processors: bool,
}

impl TemplateInsert {
    /// The label of the insert in the undo menu.
    pub fn label(&self) -> String {
        match &self.form {
            InsertForm::Flat => format!("insert {}", self.spec.topology.describe()),
            InsertForm::Compound { type_name, .. } => format!("insert {type_name}"),
        }
    }
}
