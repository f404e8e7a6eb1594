//! The `cescope` binary: parse the command line, call the library, map errors to exit codes
//! (0 success, 1 input error with a one-line message on standard error, 2 usage error).

mod cli;

use clap::Parser;

fn main() {
    let cli = cli::Cli::parse(); // usage errors exit with code 2 (clap)
    if let Err(e) = cli::run(cli) {
        // A closed pipe (`cescope extract … | head`) is not an error worth reporting.
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
        }
        let msg = format!("{e:#}").replace('\n', " ");
        eprintln!("cescope: error: {msg}");
        std::process::exit(1);
    }
}
