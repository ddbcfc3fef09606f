//! Asynchronous compiles and the background top tier, driven by a spawner
//! that holds every job until the test releases it (no timing involved).

mod common;

use dxjit::compile::Job;
use dxjit::{
    compile_async, compile_on, AsyncError, CompileOptions, Spawner, Tier, UpgradeError,
    WhenNotReady,
};
use std::sync::{Arc, Mutex};

/// Jobs held until released.
#[derive(Default)]
struct Gate(Mutex<Vec<Job>>);

impl Gate {
    /// A spawner queueing its jobs here.
    fn spawner(self: &Arc<Gate>) -> Spawner {
        let gate = self.clone();
        Spawner::new(move |job| gate.0.lock().unwrap().push(job))
    }

    /// Runs the jobs queued now (not the ones they queue); how many.
    fn release(&self) -> usize {
        let jobs = std::mem::take(&mut *self.0.lock().unwrap());
        let n = jobs.len();
        jobs.into_iter().for_each(|job| job());
        n
    }
}

/// K2 (no loop).
fn copy_kernel() -> Vec<u8> {
    common::three_kernels()[1].clone()
}

#[test]
fn skip_mode_says_not_ready_until_the_compile_runs() {
    let gate = Arc::new(Gate::default());
    let handle = compile_async(
        &copy_kernel(),
        &CompileOptions::default(),
        WhenNotReady::Skip,
        &gate.spawner(),
    );
    assert!(matches!(handle.shader(), Err(AsyncError::NotReady)));
    assert!(!handle.is_finished());
    assert_eq!(gate.release(), 1, "the compile");
    let shader = handle.shader().expect("compiled");
    assert_eq!(shader.tier(), Tier::First);
    let first = shader.kernel().func as usize;
    assert_eq!(shader.top_tier_us(), None);
    assert_eq!(gate.release(), 1, "the top tier");
    shader.wait_for_top_tier().expect("top tier");
    assert_eq!(shader.tier(), Tier::Top);
    assert_ne!(
        shader.kernel().func as usize,
        first,
        "the call runs other code"
    );
    assert!(shader.top_tier_us().is_some());
    assert!(shader.first_tier_us().is_some());
}

#[test]
fn wait_mode_blocks_until_the_compile_runs() {
    let gate = Arc::new(Gate::default());
    let handle = compile_async(
        &copy_kernel(),
        &CompileOptions {
            tier: Tier::Top,
            ..CompileOptions::default()
        },
        WhenNotReady::Wait,
        &gate.spawner(),
    );
    let waiter = {
        let handle = handle.clone();
        std::thread::spawn(move || handle.shader().map(|s| s.tier()))
    };
    assert_eq!(gate.release(), 1);
    assert_eq!(waiter.join().unwrap().expect("compiled"), Tier::Top);
    assert_eq!(gate.release(), 0, "a single tier queues nothing more");
}

#[test]
fn a_failed_compile_is_reported_to_every_caller() {
    let handle = compile_async(
        b"not bytecode",
        &CompileOptions::default(),
        WhenNotReady::Skip,
        &Spawner::inline(),
    );
    assert!(matches!(handle.shader(), Err(AsyncError::Failed(_))));
    assert!(matches!(handle.wait(), Err(AsyncError::Failed(_))));
}

#[test]
fn a_dropped_job_is_reported_not_waited_for() {
    let dropper = Spawner::new(drop);
    let handle = compile_async(
        &copy_kernel(),
        &CompileOptions::default(),
        WhenNotReady::Wait,
        &dropper,
    );
    assert!(matches!(handle.shader(), Err(AsyncError::NeverRan)));
    let shader = compile_on(&copy_kernel(), &CompileOptions::default(), &dropper).unwrap();
    assert_eq!(shader.wait_for_top_tier(), Err(UpgradeError::NeverRan));
    assert_eq!(shader.tier(), Tier::First);
}

#[test]
fn single_tiers_do_not_upgrade() {
    let gate = Arc::new(Gate::default());
    let first = CompileOptions {
        tier: Tier::First,
        ..CompileOptions::default()
    };
    let shader = compile_on(&copy_kernel(), &first, &gate.spawner()).unwrap();
    assert_eq!(shader.wait_for_top_tier(), Err(UpgradeError::NotAsked));
    let top = CompileOptions {
        tier: Tier::Top,
        ..CompileOptions::default()
    };
    let top_only = compile_on(&copy_kernel(), &top, &gate.spawner()).unwrap();
    assert_eq!(top_only.wait_for_top_tier(), Ok(()));
    assert_eq!(top_only.first_tier_us(), None);
    // The first-tier compile may have handed the spawner helpers for the
    // stencils it lacked (they find nothing left to make): no upgrade.
    gate.release();
    assert_eq!(shader.wait_for_top_tier(), Err(UpgradeError::NotAsked));
    assert_eq!(shader.tier(), Tier::First);
}
