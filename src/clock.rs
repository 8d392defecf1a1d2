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
