//! One result worked out on a named worker thread, for a window that polls for it each frame
//! ("Check levels", "Simultaneous events").

use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// The thread working out a `T`, while it runs.
#[derive(Debug)]
pub struct Worker<T> {
    running: Option<Receiver<T>>,
}

impl<T> Default for Worker<T> {
    fn default() -> Self {
        Worker { running: None }
    }
}

impl<T: Send + 'static> Worker<T> {
    /// Start `work` on a thread named `name`, forgetting any earlier one's result.
    pub fn start(&mut self, name: &str, work: impl FnOnce() -> T + Send + 'static) -> std::io::Result<()> {
        let (send, receive) = channel();
        self.running = None;
        std::thread::Builder::new().name(name.into()).spawn(move || {
            // The window may be gone; then nobody wants the result.
            let _ = send.send(work());
        })?;
        self.running = Some(receive);
        Ok(())
    }

    /// True while the thread works.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// `None` while nothing has ended; once the thread has, `Some` of its result, or `Some(None)`
    /// when it ended without one (it panicked).
    pub fn poll(&mut self) -> Option<Option<T>> {
        let receive = self.running.as_ref()?;
        let ended = match receive.try_recv() {
            Ok(result) => Some(result),
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => None,
        };
        self.running = None;
        Some(ended)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait<T: Send + 'static>(worker: &mut Worker<T>) -> Option<T> {
        let started = std::time::Instant::now();
        loop {
            if let Some(ended) = worker.poll() {
                return ended;
            }
            assert!(started.elapsed().as_secs() < 30, "the worker did not end");
            std::thread::yield_now();
        }
    }

    #[test]
    fn a_result_comes_once_and_a_panic_is_an_end_without_one() {
        let mut worker = Worker::default();
        assert!(worker.poll().is_none() && !worker.is_running());
        worker.start("hase-test-worker", || 6 * 7).unwrap();
        assert_eq!(wait(&mut worker), Some(42));
        assert!(!worker.is_running() && worker.poll().is_none());
        worker.start("hase-test-worker", || -> i32 { panic!("the work failed") }).unwrap();
        assert_eq!(wait(&mut worker), None);
    }
}
