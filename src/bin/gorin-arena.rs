//! `gorin-arena`: the match runner's command-line edge.

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match gorin::arena::main(&args) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("gorin-arena: {e:#}");
            std::process::exit(2);
        }
    }
}
