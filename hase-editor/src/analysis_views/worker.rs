//! One result worked out on a named worker thread, for a window that polls for it each frame and
//! may stop it ("Check levels", "Simultaneous events").

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// The thread working out a `T`, while it runs, and the flag that stops it.
#[derive(Debug)]
pub struct Worker<T> {
    running: Option<Receiver<T>>,
    stop: Arc<AtomicBool>,
}

impl<T> Default for Worker<T> {
    fn default() -> Self {
        Worker { running: None, stop: Arc::new(AtomicBool::new(false)) }
    }
}

/// How the work ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended<T> {
    /// With its result.
    Done(T),
    /// [`Worker::stop`] was called: whatever it gave is not wanted.
    Stopped,
    /// The thread ended without a result (it panicked).
    Lost,
}

impl<T: Send + 'static> Worker<T> {
    /// Start `work` on a thread named `name`, forgetting any earlier one. `work` gets the flag
    /// [`Worker::stop`] raises (to pass on as a run's cancel flag).
    pub fn start(
        &mut self,
        name: &str,
        work: impl FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
    ) -> std::io::Result<()> {
        let (send, receive) = channel();
        self.running = None;
        self.stop = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&self.stop);
        std::thread::Builder::new().name(name.into()).spawn(move || {
            // The window may be gone; then nobody wants the result.
            let _ = send.send(work(stop));
        })?;
        self.running = Some(receive);
        Ok(())
    }

    /// True while the thread works.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Ask the work to stop; its end is then [`Ended::Stopped`].
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// `None` while nothing has ended; once the thread has, how.
    pub fn poll(&mut self) -> Option<Ended<T>> {
        let receive = self.running.as_ref()?;
        let ended = match receive.try_recv() {
            Err(TryRecvError::Empty) => return None,
            _ if self.stop.load(Ordering::Relaxed) => Ended::Stopped,
            Ok(result) => Ended::Done(result),
            Err(TryRecvError::Disconnected) => Ended::Lost,
        };
        self.running = None;
        Some(ended)
    }
}

/// What a check's error says when its worker was stopped or ended without a result.
pub trait Unfinished {
    /// [`Ended::Stopped`].
    fn stopped() -> Self;
    /// [`Ended::Lost`].
    fn lost() -> Self;
}

impl<T: Send + 'static, E: Unfinished + Send + 'static> Worker<Result<T, E>> {
    /// Put how the work ended in `slot` once it has; true when something changed.
    pub fn poll_into(&mut self, slot: &mut Option<Result<T, E>>) -> bool {
        let Some(ended) = self.poll() else { return false };
        *slot = Some(match ended {
            Ended::Done(result) => result,
            Ended::Stopped => Err(E::stopped()),
            Ended::Lost => Err(E::lost()),
        });
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait<T: Send + 'static>(worker: &mut Worker<T>) -> Ended<T> {
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
    fn a_result_comes_once_a_panic_is_lost_and_a_stop_reaches_the_work() {
        let mut worker = Worker::default();
        assert!(worker.poll().is_none() && !worker.is_running());
        worker.start("hase-test-worker", |_| 6 * 7).unwrap();
        assert_eq!(wait(&mut worker), Ended::Done(42));
        assert!(!worker.is_running() && worker.poll().is_none());
        worker.start("hase-test-worker", |_| -> i32 { panic!("the work failed") }).unwrap();
        assert_eq!(wait(&mut worker), Ended::Lost);
        // The work sees the flag: it spins until stopped.
        worker
            .start("hase-test-worker", |stop| {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::yield_now();
                }
                1
            })
            .unwrap();
        worker.stop();
        assert_eq!(wait(&mut worker), Ended::Stopped);
        // A new start clears the flag.
        worker.start("hase-test-worker", |stop| i32::from(stop.load(Ordering::Relaxed))).unwrap();
        assert_eq!(wait(&mut worker), Ended::Done(0));
    }
}
