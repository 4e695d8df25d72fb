//! The Piskvork/Gomocup brain protocol: reads commands from stdin, keeps the game state and
//! INFO settings, and delegates thinking to `search::Engine`. It holds no game logic.
//!
//! Three threads: the reader (`input`) frames lines, the session (`session`, the caller's
//! thread) parses (`command`) and acts, the searcher runs `jobs` with a shared stop flag; every
//! printed line goes through the one `output::Writer`.

pub mod command;
pub mod input;
pub mod jobs;
pub mod output;
pub mod session;

use crate::search::Engine;
use std::io::{Read, Write};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};

/// Runs the brain on stdin/stdout until END or end of input.
pub fn run_stdio() -> anyhow::Result<()> {
    // Piskvork reads the brain's stderr as replies: a panic message goes to the log instead.
    std::panic::set_hook(Box::new(|info| log::error!("{info}")));
    run(std::io::stdin(), std::io::stdout())
}

/// Runs the brain on any input and output (the tests use pipes and buffers).
pub fn run(
    input: impl Read + Send + 'static,
    output: impl Write + Send + 'static,
) -> anyhow::Result<()> {
    let out = Arc::new(output::Writer::new(Box::new(output)));
    let engine = Arc::new(Mutex::new(Engine::new()));
    let (events_tx, events_rx) = channel();
    let (tasks_tx, tasks_rx) = channel();
    let session = session::Session::new(Arc::clone(&out), tasks_tx, Arc::clone(&engine));

    let reader_tx = events_tx.clone();
    std::thread::Builder::new()
        .name("reader".into())
        .spawn(move || input::read_lines(input, reader_tx))?;
    let stop = session.stop_flag();
    let searcher_out = Arc::clone(&out);
    std::thread::Builder::new()
        .name("searcher".into())
        .spawn(move || session::searcher(engine, stop, searcher_out, tasks_rx, events_tx))?;

    // The reader may stay blocked on stdin; returning ends the process and with it the
    // helper threads.
    session.run(events_rx);
    Ok(())
}
