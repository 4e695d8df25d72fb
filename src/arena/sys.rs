//! The arena's only foreign calls, kept in this one file: a SIGINT/SIGTERM handler that raises
//! a flag (the workers poll it and shut their engines down), and a kill of a whole process
//! group (each engine runs in its own group, so helpers it spawned die with it).
//! `std` links the C library on Unix, so these two declarations need no extra dependency.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-C (SIGINT) or SIGTERM has arrived since the handler was installed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

#[cfg(unix)]
mod imp {
    use super::INTERRUPTED;
    use std::sync::atomic::Ordering;

    const SIGINT: i32 = 2;
    const SIGKILL: i32 = 9;
    const SIGTERM: i32 = 15;
    const SIG_DFL: usize = 0;

    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
        fn kill(pid: i32, sig: i32) -> i32;
    }

    extern "C" fn on_signal(sig: i32) {
        // Only async-signal-safe work here: store the flag, and restore the default action so
        // that a second Ctrl-C ends the arena at once if the clean shutdown itself hangs.
        INTERRUPTED.store(true, Ordering::SeqCst);
        // SAFETY: signal() is async-signal-safe; SIG_DFL is a valid disposition.
        unsafe {
            signal(sig, SIG_DFL);
        }
    }

    pub fn install_interrupt_handler() {
        let handler = on_signal as extern "C" fn(i32) as usize;
        // SAFETY: the handler only touches an atomic and calls signal(), both allowed in a
        // signal handler; the signal numbers are Linux/POSIX constants.
        unsafe {
            signal(SIGINT, handler);
            signal(SIGTERM, handler);
        }
    }

    pub fn kill_group(pgid: u32) {
        if pgid == 0 || pgid > i32::MAX as u32 {
            return;
        }
        // SAFETY: kill() with a negative pid signals that process group; a stale id only
        // yields ESRCH, which is ignored.
        unsafe {
            kill(-(pgid as i32), SIGKILL);
        }
    }
}

#[cfg(not(unix))]
mod imp {
    pub fn install_interrupt_handler() {}
    pub fn kill_group(_pgid: u32) {}
}

/// Installs the Ctrl-C/SIGTERM handler (once, from `main`).
pub fn install_interrupt_handler() {
    imp::install_interrupt_handler();
}

/// Sends SIGKILL to every process of the group `pgid` (an engine started as a group leader).
pub fn kill_group(pgid: u32) {
    imp::kill_group(pgid);
}
