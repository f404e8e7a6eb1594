//! AFL++ harness: `cescope_fuzz::checks::check_decode_lex` on each input (see fuzz/README.md).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        cescope_fuzz::checks::check_decode_lex(data);
    });
}
