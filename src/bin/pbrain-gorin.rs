//! `pbrain-gorin`: with no arguments, a Piskvork/Gomocup brain on stdin/stdout; with a
//! subcommand, the bench, the puzzle solver or terminal play.

const USAGE: &str =
    "usage: pbrain-gorin              run as a Piskvork/Gomocup brain on stdin/stdout
       pbrain-gorin bench        search fixed positions, print node count and speed
       pbrain-gorin solve ...    look for a VCF/VCT win (pbrain-gorin solve --help)
       pbrain-gorin play ...     play in the terminal (pbrain-gorin play --help)";

fn main() {
    // Diagnostics go to stderr only when RUST_LOG asks: Piskvork reads stderr as replies.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => gorin::protocol::run_stdio(),
        Some("bench") => gorin::search::bench::main(&args[1..]),
        Some("solve") => gorin::search::threat::solve_main(&args[1..]),
        Some("play") => gorin::play::main(&args[1..]),
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
