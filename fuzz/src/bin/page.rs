//! AFL++ harness: `cescope_fuzz::checks::check_page` on each input (see fuzz/README.md).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        cescope_fuzz::checks::check_page(data);
    });
}
