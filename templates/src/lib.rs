//! hase-templates: topology generators.
