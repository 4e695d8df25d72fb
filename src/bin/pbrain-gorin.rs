//! `pbrain-gorin`: with no arguments, a Piskvork/Gomocup brain on stdin/stdout; with a
//! subcommand, the bench, the puzzle solver or terminal play.

const USAGE: &str =
    "usage: pbrain-gorin              run as a Piskvork/Gomocup brain on stdin/stdout
       pbrain-gorin bench        search fixed positions, print node count and speed
       pbrain-gorin bench agree DIR [NODES] [EVERY] [list]
                                 how often the search plays the moves of the games in DIR
       pbrain-gorin solve ...    look for a VCF/VCT win (pbrain-gorin solve --help)
       pbrain-gorin play ...     play in the terminal (pbrain-gorin play --help)
       pbrain-gorin tune DIR [EPOCHS]
                                 fit the evaluation weights to the games (.psq) in DIR
       pbrain-gorin tune --choices DIR [EPOCHS]
                                 fit the evaluation table to the moves of those games";

fn main() {
    // Diagnostics go to stderr only when RUST_LOG asks: Piskvork reads stderr as replies.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if matches!(
        args.first().map(String::as_str),
        Some("bench" | "solve" | "tune")
    ) {
        quiet_on_closed_pipe();
    }
    let result = match args.first().map(String::as_str) {
        None => gorin::protocol::run_stdio(),
        Some("bench") => gorin::search::bench::main(&args[1..]),
        Some("solve") => gorin::search::threat::solve_main(&args[1..]),
        Some("play") => gorin::play::main(&args[1..]),
        Some("tune") => gorin::eval::tune::main(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some("-V" | "--version") => {
            println!("pbrain-gorin {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        Some(other) => {
            eprintln!("pbrain-gorin: unknown subcommand '{other}'\n{USAGE}");
            std::process::exit(2);
        }
    };
    if let Err(e) = result {
        eprintln!("pbrain-gorin: {e:#}");
        std::process::exit(1);
    }
}

/// Report commands end quietly when their reader goes away (`solve ... | head`), as Unix tools
/// do, instead of panicking in `println!`. The brain and terminal play keep Rust's default: a
/// closed pipe is an error they handle.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    {
        extern "C" {
            fn signal(signum: i32, handler: usize) -> usize;
        }
        const SIGPIPE: i32 = 13;
        const SIG_DFL: usize = 0;
        // SAFETY: restores the default action of one signal before any thread is started.
        unsafe {
            signal(SIGPIPE, SIG_DFL);
        }
    }
}
