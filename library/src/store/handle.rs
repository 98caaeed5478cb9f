//! Fail-stop after a failed write. sled 0.34 can wait forever in a flush that follows a failed
//! write (seen with a full disk: the failed write's log position never becomes stable), and
//! dropping the last handle of a database flushes. So once a write has failed, the stores refuse
//! every further change (`StoreError::Stopped`) without calling sled, and the sled handles are
//! leaked instead of dropped, so that closing the store or quitting hase cannot hang. The user
//! restarts hase, which reopens the database from what reached the disk.

use std::ops::Deref;
use std::sync::{Arc, Mutex, PoisonError};

/// The first failure of a database, shared by all of its handles.
#[derive(Clone, Debug, Default)]
pub(crate) struct FailState(Arc<Mutex<Option<String>>>);

impl FailState {
    /// The recorded cause, if the database has stopped.
    pub fn cause(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Stop the database with `cause`, unless it has already stopped (the first cause stays).
    pub fn record(&self, cause: String) {
        let mut slot = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(cause);
        }
    }
}

/// A sled handle (`Db` or `Tree`) that is dropped normally while the database is healthy and
/// leaked once it has stopped.
pub(crate) struct SledHandle<T> {
    /// Always `Some` until `drop`.
    handle: Option<T>,
    failure: FailState,
}

impl<T> SledHandle<T> {
    pub fn new(handle: T, failure: FailState) -> Self {
        SledHandle { handle: Some(handle), failure }
    }
}

impl<T> Deref for SledHandle<T> {
    type Target = T;

    fn deref(&self) -> &T {
        match &self.handle {
            Some(handle) => handle,
            None => unreachable!("a sled handle is only taken out when it is dropped"),
        }
    }
}

impl<T: Clone> Clone for SledHandle<T> {
    fn clone(&self) -> Self {
        SledHandle::new(T::clone(self), self.failure.clone())
    }
}

impl<T> Drop for SledHandle<T> {
    fn drop(&mut self) {
        if self.failure.cause().is_some() {
            std::mem::forget(self.handle.take());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// Counts how many times it is dropped.
    #[derive(Clone)]
    struct Probe(Arc<AtomicUsize>);

    impl Drop for Probe {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn handles_drop_normally_while_healthy_and_leak_once_stopped() {
        let drops = Arc::new(AtomicUsize::new(0));
        let failure = FailState::default();
        let healthy = SledHandle::new(Probe(drops.clone()), failure.clone());
        let copy = healthy.clone();
        drop(healthy);
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        failure.record("disk full".into());
        failure.record("later".into());
        assert_eq!(failure.cause().as_deref(), Some("disk full"));
        drop(copy);
        assert_eq!(drops.load(Ordering::SeqCst), 1, "a stopped database's handle is leaked, not dropped");
    }
}
