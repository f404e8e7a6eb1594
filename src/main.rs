//! The `cescope` binary: parse the command line, call the library, map errors to exit codes
//! (0 success, 1 input error with a one-line message on standard error, 2 usage error).

mod cli;

/// mimalloc as the allocator of the binary (feature `mimalloc`, on by default): the page model
/// allocates per page, and mimalloc runs `learned` 2–4 % faster than the system allocator
/// (docs/speed.md). The library itself sets none.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{CommandFactory, Parser};

/// The subcommand names and aliases, from the clap tree (with clap's own `help`).
fn subcommand_names() -> Vec<String> {
    let mut cmd = cli::Cli::command();
    cmd.build();
    cmd.get_subcommands()
        .flat_map(|c| std::iter::once(c.get_name()).chain(c.get_all_aliases()))
        .map(String::from)
        .collect()
}

/// Does `arg` read as a file name rather than a subcommand (a path separator, or a dot as in
/// `page.html`)?
fn looks_like_a_path(arg: &str) -> bool {
    arg.contains(['/', '.', std::path::MAIN_SEPARATOR])
}

fn main() {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // A first argument that is no subcommand means `inspect`: an option other than help /
    // version (`cescope --algo r2l PAGE`), an existing path (`cescope PAGE`), or a name that
    // reads as a file (`cescope nosuch.html`: inspect then says that it does not exist). Any
    // other word is left to clap ("unrecognized subcommand", with its suggestions).
    if let Some(first) = args.get(1).and_then(|a| a.to_str()) {
        let top_level_flag = matches!(first, "-h" | "--help" | "-V" | "--version");
        let inspect_option = first.starts_with('-') && !top_level_flag;
        let page = !first.starts_with('-')
            && !subcommand_names().iter().any(|n| n == first)
            && (std::path::Path::new(first).exists() || looks_like_a_path(first));
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
