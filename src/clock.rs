//! Time for the engine without tying it to a platform: measuring call latency and waiting
//! (the demo model's simulated latency). The browser and the terminal each supply their own.

use futures::future::LocalBoxFuture;

/// A source of time and a way to wait.
pub trait Clock {
    /// Milliseconds since an arbitrary fixed point.
    fn now_ms(&self) -> f64;
    /// Resolves after `ms` milliseconds.
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()>;
}

/// The operating system's clock; sleeping parks a helper thread, so it works under any
/// executor, including `futures::executor::block_on`.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Debug)]
pub struct SystemClock {
    start: std::time::Instant,
}

#[cfg(not(target_arch = "wasm32"))]
impl Default for SystemClock {
    fn default() -> Self {
        Self { start: std::time::Instant::now() }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Clock for SystemClock {
    fn now_ms(&self) -> f64 {
        self.start.elapsed().as_secs_f64() * 1000.0
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        if ms == 0 {
            return Box::pin(async {});
        }
        let (tx, rx) = futures::channel::oneshot::channel::<()>();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(ms));
            let _ = tx.send(());
        });
        Box::pin(async move {
            let _ = rx.await;
        })
    }
}

/// A clock that never advances and never waits: for tests, where timings must not vary.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrozenClock;

impl Clock for FrozenClock {
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn sleep(&self, _ms: u64) -> LocalBoxFuture<'static, ()> {
        Box::pin(async {})
    }
}

/// A wall-clock moment as a list of past runs shows it: `2026-12-04 16:05`, the same in every
/// language (the browser's own date formatting loads its locale data on first use, which held up
/// the end of a page's first run), from the local calendar's parts (`month` counted from 1).
pub fn stamp(year: u32, month: u32, day: u32, hour: u32, minute: u32) -> String {
    format!("{year:04}-{month:02}-{day:02} {hour:02}:{minute:02}")
}

#[cfg(test)]
mod stamp_tests {
    #[test]
    fn a_stamp_pads_each_part_and_sorts_as_text() {
        assert_eq!(super::stamp(2026, 3, 7, 9, 5), "2026-03-07 09:05");
        assert!(super::stamp(2026, 12, 4, 16, 5) > super::stamp(2026, 3, 7, 23, 59));
    }
}
