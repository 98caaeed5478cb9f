//! Where the hase database lives: an explicit directory (the CLI's `--data-dir`), else the
//! `HASE_DATA_DIR` environment variable (tests, CI, portable installs), else the platform's user
//! data directory (`$XDG_DATA_HOME/hase`, usually `~/.local/share/hase`, on Linux).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::error::StoreError;

/// Environment variable that overrides the platform data directory.
pub const DATA_DIR_ENV: &str = "HASE_DATA_DIR";

/// The data directory to use: `explicit` if given, else `$HASE_DATA_DIR` if set and non-empty,
/// else the platform's per-user data directory for hase.
pub fn resolve_data_dir(explicit: Option<&Path>) -> Result<PathBuf, StoreError> {
    resolve_with(explicit, std::env::var_os(DATA_DIR_ENV), platform_data_dir)
}

/// The platform's per-user data directory for hase, if the user has a home directory.
pub fn platform_data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "hase", "hase").map(|dirs| dirs.data_dir().to_path_buf())
}

/// The resolution rule with its inputs passed in, so that it can be tested without touching the
/// process environment.
fn resolve_with(
    explicit: Option<&Path>,
    env_value: Option<OsString>,
    platform: impl FnOnce() -> Option<PathBuf>,
) -> Result<PathBuf, StoreError> {
    if let Some(dir) = explicit {
        return Ok(dir.to_path_buf());
    }
    if let Some(value) = env_value.filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(value));
    }
    platform().ok_or(StoreError::NoDataDir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[allow(clippy::unnecessary_wraps, reason = "stands in for platform_data_dir, which can fail")]
    fn platform() -> Option<PathBuf> {
        Some(PathBuf::from("/home/u/.local/share/hase"))
    }

    #[test]
    fn explicit_beats_environment_beats_platform() {
        let env = Some(OsString::from("/ci/hase-data"));
        assert_eq!(
            resolve_with(Some(Path::new("/tmp/x")), env.clone(), platform).unwrap(),
            PathBuf::from("/tmp/x")
        );
        assert_eq!(resolve_with(None, env, platform).unwrap(), PathBuf::from("/ci/hase-data"));
        assert_eq!(resolve_with(None, None, platform).unwrap(), PathBuf::from("/home/u/.local/share/hase"));
    }

    #[test]
    fn empty_environment_value_is_ignored() {
        let resolved = resolve_with(None, Some(OsString::new()), platform).unwrap();
        assert_eq!(resolved, PathBuf::from("/home/u/.local/share/hase"));
    }

    #[test]
    fn no_home_directory_is_an_error_that_says_what_to_do() {
        let err = resolve_with(None, None, || None).unwrap_err();
        assert!(matches!(err, StoreError::NoDataDir));
        assert!(err.to_string().contains("--data-dir"), "{err}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn linux_platform_directory_ends_in_hase() {
        // Only when a home directory is known (CI containers have one).
        if let Some(dir) = platform_data_dir() {
            assert_eq!(dir.file_name().unwrap(), "hase", "{}", dir.display());
        }
    }
}
