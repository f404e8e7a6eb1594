//! The `cescope` binary: parse the command line, call the library, map errors to exit codes
//! (0 success, 1 input error with a one-line message on standard error, 2 usage error).

mod cli;

use clap::Parser;

/// Subcommand names. Any other first argument that is an existing path, or an option other
/// than help / version, means `inspect`: `cescope PAGE`, `cescope --algo r2l PAGE`.
const SUBCOMMANDS: &[&str] = &[
    "inspect", "extract", "algos", "bench", "eval", "gold", "optimize", "help",
];

fn main() {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(first) = args.get(1).and_then(|a| a.to_str()) {
        let top_level_flag = matches!(first, "-h" | "--help" | "-V" | "--version");
        let inspect_option = first.starts_with('-') && !top_level_flag;
        let page = !first.starts_with('-')
            && !SUBCOMMANDS.contains(&first)
            && std::path::Path::new(first).exists();
        if inspect_option || page {
            args.insert(1, "inspect".into());
        }
    }
    let cli = cli::Cli::parse_from(args); // usage errors exit with code 2 (clap)
    if let Err(e) = cli::run(cli) {
        // A closed pipe (`cescope extract … | head`) is not an error worth reporting.
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
        }
        // Each cause once (many errors print their source too), control characters escaped.
        let msg = cescope::error::report(e.as_ref());
        eprintln!("cescope: error: {msg}");
        std::process::exit(1);
    }
}
