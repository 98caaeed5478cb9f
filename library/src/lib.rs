//! hase-library: catalogue and persistence.
