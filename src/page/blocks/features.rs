//! The shallow text features of one atomic text block (Kohlschütter, Fankhauser and Nejdl 2010,
//! "Boilerplate detection using shallow text features", WSDM 2010, as summarised in
//! Mohammadzadeh 2013, section 3.3.2.1; the text density as boilerpipe, the authors' library,
//! computes it), counted in one pass over the block's decoded text by [`Scanner`].
//!
//! **Tokens and words.** A *token* is a maximal run of non-white-space characters of the block's
//! decoded text (the tokens of [`crate::page::tokens`], taken over the decoded text instead of
//! the source, so `&nbsp;` is white space here; white space is [`char::is_whitespace`]). Tokens
//! run across inline markup: `foo<b>bar</b>` is the one token `foobar`, as a reader sees it. A
//! *word* is a token holding at least one word character of the one tokeniser
//! ([`crate::metrics::is_word_char`]: letters, digits, `_`; the scanner asks the same question
//! in a cheaper order, tested equal), so `|`, `–` or `»` are tokens but
//! not words (boilerpipe counts likewise: a token is a word when it holds a letter or digit).

/// Column width of the text-density wrap, in characters (Kohlschütter et al. 2010: the text is
/// word-wrapped at a fixed width of 80 columns; boilerpipe's `maxLineLength`).
pub const WRAP_COLUMNS: u32 = 80;

/// The shallow text features of one block: counts (all `u32`) and the ratios the paper derives
/// from them (methods). Units: tokens and words as in the module documentation, characters are
/// Unicode scalar values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Features {
    /// Tokens (white-space separated).
    pub tokens: u32,
    /// Words: tokens holding a word character ("absolute number of words").
    pub words: u32,
    /// Characters of the block's text with white space collapsed to one space and trimmed
    /// (the tokens' characters plus one separator between consecutive tokens).
    pub chars: u32,
    /// Characters of the words, each word measured from its first to its last word character
    /// (`"end."` 3, `"don't"` 5, `"(1990)"` 4): the numerator of the average word length.
    pub word_chars: u32,
    /// Words inside an `<a>` element (a word partly inside one counts): the numerator of the
    /// link density.
    pub linked_words: u32,
    /// Sentences: runs of words closed by a token ending in `.`, `!`, `?`, `…`, `。`, `！` or
    /// `？` (closing quotes and brackets after it ignored), plus a last run of words without
    /// such an end. A sentence holds at least one word.
    pub sentences: u32,
    /// Tokens ending in a full stop `.` (closing quotes and brackets after it ignored; `...`
    /// counts once, `3.5` and `example.com` not at all).
    pub full_stops: u32,
    /// Words whose first letter is upper case (an all-upper-case word included).
    pub upper_words: u32,
    /// Words with at least one letter whose letters are all upper case (`NASA`, `I`).
    pub all_caps_words: u32,
    /// Date / time tokens: see [`is_date_token`].
    pub date_tokens: u32,
    /// Vertical bars `|` (characters, anywhere in the text).
    pub vertical_bars: u32,
    /// Commas `,` (characters, anywhere in the text): Readability's content score counts them
    /// ([`crate::learn::context`], `rdb_*`).
    pub commas: u32,
    /// Lines after wrapping the tokens at [`WRAP_COLUMNS`] (at least 1).
    pub lines: u32,
    /// Tokens on all wrapped lines but the last (0 when there is one line): the numerator of
    /// the text density.
    pub wrapped_tokens: u32,
}

/// `a / b`, 0 when `b` is 0.
fn ratio(a: u32, b: u32) -> f64 {
    if b == 0 {
        0.0
    } else {
        f64::from(a) / f64::from(b)
    }
}

impl Features {
    /// Average word length in characters: [`Features::word_chars`] / words (0 without words).
    pub fn avg_word_length(&self) -> f64 {
        ratio(self.word_chars, self.words)
    }

    /// Average sentence length in words: words / [`Features::sentences`] (0 without words).
    pub fn avg_sentence_length(&self) -> f64 {
        ratio(self.words, self.sentences)
    }

    /// Link density: words inside `<a>` / words, in `[0, 1]` (0 without words). Thesis
    /// 3.3.2.1: "the number of tokens within an `<a>` tag divided by the total number of tokens
    /// in the block"; tokens are words here, as boilerpipe counts them.
    pub fn link_density(&self) -> f64 {
        ratio(self.linked_words, self.words)
    }

    /// Text density ρ (Kohlschütter et al. 2010): the tokens are wrapped greedily at
    /// [`WRAP_COLUMNS`] characters (a line holds tokens joined by one space; a token longer than
    /// a line stands alone on its own), and ρ is the number of tokens per line **leaving out the
    /// last line**, which is usually not full: [`Features::wrapped_tokens`] / (lines − 1); a
    /// block of one line has ρ = its tokens (boilerpipe likewise, though it lets only words
    /// take up columns; here every token does, as on the screen). Tokens per line.
    pub fn text_density(&self) -> f64 {
        if self.lines <= 1 {
            f64::from(self.tokens)
        } else {
            ratio(self.wrapped_tokens, self.lines - 1)
        }
    }

    /// Share of words starting with an upper-case letter, in `[0, 1]`.
    pub fn upper_ratio(&self) -> f64 {
        ratio(self.upper_words, self.words)
    }

    /// Share of all-upper-case words, in `[0, 1]`.
    pub fn all_caps_ratio(&self) -> f64 {
        ratio(self.all_caps_words, self.words)
    }

    /// Full stops per word (thesis 3.3.2.1: "the ratio of full stops to the overall number of
    /// words"); 0 without words.
    pub fn full_stop_ratio(&self) -> f64 {
        ratio(self.full_stops, self.words)
    }
}

/// Case of a token's first letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum First {
    #[default]
    None,
    Upper,
    Other,
}

/// The token being read.
#[derive(Debug, Clone, Copy, Default)]
struct Tok {
    /// Characters so far (0: no token open).
    chars: u32,
    /// Characters up to the first word character (exclusive); `None` before one.
    first_word: Option<u32>,
    /// Characters up to and including the last word character.
    last_word_end: u32,
    first_letter: First,
    letters: u32,
    digits: u32,
    lower_letters: u32,
    linked: bool,
    /// The last character that is not a closing quote or bracket.
    last: char,
    /// The token's first 16 bytes when it is ASCII (for the date test).
    ascii: [u8; 16],
    ascii_len: u8,
    /// Non-ASCII or longer than 16 bytes: never a date token.
    long: bool,
}

/// Accumulates the [`Features`] of one block over pieces of its decoded text, in order
/// ([`Scanner::feed`], [`Scanner::space`]), without allocating.
#[derive(Debug, Clone, Default)]
pub(super) struct Scanner {
    f: Features,
    tok: Tok,
    /// Length in characters and tokens of the wrapped line being filled.
    line_len: u32,
    line_tokens: u32,
    /// Lines completed by the wrap.
    full_lines: u32,
    /// Words since the last sentence end.
    open_words: u32,
}

/// Classes of the ASCII bytes ([`ASCII`]).
const SPACE: u8 = 1;
const WORD: u8 = 2;
const DIGIT: u8 = 4;
const UPPER: u8 = 8;
const LOWER: u8 = 16;
const CLOSER: u8 = 32;

/// The class bits of every ASCII byte: white space as [`char::is_whitespace`] (`\t \n \x0B
/// \x0C \r` and space), word characters as [`crate::metrics::is_word_char`] (letters, digits,
/// `_`), closing quotes and brackets as [`is_closer`].
const ASCII: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = match c {
            b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r' => SPACE,
            b'0'..=b'9' => WORD | DIGIT,
            b'A'..=b'Z' => WORD | UPPER,
            b'a'..=b'z' => WORD | LOWER,
            b'_' => WORD,
            b'"' | b'\'' | b')' | b']' | b'}' => CLOSER,
            _ => 0,
        };
        b += 1;
    }
    t
};

/// Is `s` white space only ([`char::is_whitespace`], the scanner's separators)? ASCII first.
pub(super) fn is_blank(s: &str) -> bool {
    match s
        .bytes()
        .position(|b| b >= 0x80 || ASCII[b as usize] & SPACE == 0)
    {
        Some(k) if s.as_bytes()[k] < 0x80 => false,
        Some(k) => s[k..].chars().all(char::is_whitespace),
        None => true,
    }
}

/// Closing quotes and brackets, skipped when looking for a token's sentence end.
fn is_closer(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | ')' | ']' | '}' | '»' | '”' | '’' | '›' | '」' | '』' | '）'
    )
}

impl Scanner {
    /// Reads `text` (decoded), all of it inside an `<a>` when `linked`. A token open at the end
    /// continues into the next piece. Returns the characters of `text` that are not white space
    /// ([`char::is_whitespace`], the scanner's separators): what
    /// [`crate::page::Dom::non_space_chars`] counts.
    pub(super) fn feed(&mut self, text: &str, linked: bool) -> usize {
        let bytes = text.as_bytes();
        let mut i = 0;
        let mut solid = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b < 0x80 {
                if ASCII[b as usize] & SPACE != 0 {
                    self.space();
                    i += 1;
                } else {
                    let start = i;
                    while i < bytes.len()
                        && bytes[i] < 0x80
                        && ASCII[bytes[i] as usize] & SPACE == 0
                    {
                        i += 1;
                    }
                    solid += i - start;
                    self.ascii_run(&bytes[start..i], linked);
                }
            } else {
                let Some(c) = text[i..].chars().next() else {
                    break;
                };
                i += c.len_utf8();
                if c.is_whitespace() {
                    self.space();
                } else {
                    solid += 1;
                    self.other_char(c, linked);
                }
            }
        }
        solid
    }

    /// White space: ends the open token, if any (also what `<br>` and `<img>` are).
    pub(super) fn space(&mut self) {
        if self.tok.chars > 0 {
            self.end_token();
        }
    }

    /// A run of ASCII characters that are not white space, all in the open token.
    fn ascii_run(&mut self, run: &[u8], linked: bool) {
        let t = &mut self.tok;
        t.linked |= linked;
        let room = t.ascii.len() - t.ascii_len as usize;
        let keep = run.len().min(room);
        t.ascii[t.ascii_len as usize..t.ascii_len as usize + keep].copy_from_slice(&run[..keep]);
        t.ascii_len += keep as u8;
        t.long |= run.len() > room;
        for &b in run {
            let class = ASCII[b as usize];
            t.chars += 1;
            if class & WORD != 0 {
                t.first_word.get_or_insert(t.chars - 1);
                t.last_word_end = t.chars;
                if class & DIGIT != 0 {
                    t.digits += 1;
                } else if class & (UPPER | LOWER) != 0 {
                    t.letters += 1;
                    if class & LOWER != 0 {
                        t.lower_letters += 1;
                    }
                    if t.first_letter == First::None {
                        t.first_letter = if class & UPPER != 0 {
                            First::Upper
                        } else {
                            First::Other
                        };
                    }
                }
            }
            if class & CLOSER == 0 {
                t.last = b as char;
            }
            if b == b'|' {
                self.f.vertical_bars += 1;
            } else if b == b',' {
                self.f.commas += 1;
            }
        }
    }

    fn other_char(&mut self, c: char, linked: bool) {
        let t = &mut self.tok;
        t.chars += 1;
        t.linked |= linked;
        t.long = true;
        // `is_word_char` is `is_alphanumeric() || '_'`, and `is_alphanumeric` is
        // `is_alphabetic() || is_numeric()`: asked in this order, a letter costs one Unicode
        // table lookup instead of two.
        let letter = c.is_alphabetic();
        if letter || c.is_numeric() {
            t.first_word.get_or_insert(t.chars - 1);
            t.last_word_end = t.chars;
        }
        if letter {
            t.letters += 1;
            // The case matters only for the first letter and while the word may be all caps.
            if t.first_letter == First::None || t.lower_letters == 0 {
                let upper = c.is_uppercase();
                if !upper {
                    t.lower_letters += 1;
                }
                if t.first_letter == First::None {
                    t.first_letter = if upper { First::Upper } else { First::Other };
                }
            }
        }
        if !is_closer(c) {
            t.last = c;
        }
    }

    fn end_token(&mut self) {
        let t = std::mem::take(&mut self.tok);
        let f = &mut self.f;
        let w = t.chars;
        f.chars += if f.tokens > 0 { w + 1 } else { w };
        f.tokens += 1;
        // The wrap at WRAP_COLUMNS (greedy; a token longer than a line stands alone).
        if self.line_tokens == 0 {
            self.line_len = w;
            self.line_tokens = 1;
        } else if self.line_len + 1 + w > WRAP_COLUMNS {
            self.full_lines += 1;
            f.wrapped_tokens += self.line_tokens;
            self.line_len = w;
            self.line_tokens = 1;
        } else {
            self.line_len += 1 + w;
            self.line_tokens += 1;
        }
        if let Some(first) = t.first_word {
            f.words += 1;
            f.word_chars += t.last_word_end - first;
            if t.linked {
                f.linked_words += 1;
            }
            if t.first_letter == First::Upper {
                f.upper_words += 1;
            }
            if t.letters > 0 && t.lower_letters == 0 && t.first_letter == First::Upper {
                f.all_caps_words += 1;
            }
            self.open_words += 1;
        }
        if matches!(t.last, '.' | '!' | '?' | '…' | '。' | '！' | '？') {
            if t.last == '.' {
                f.full_stops += 1;
            }
            if self.open_words > 0 {
                f.sentences += 1;
                self.open_words = 0;
            }
        }
        // Only tokens with a digit or a capital can be date tokens (most tokens skip the test).
        let may_be_date = t.digits > 0 || (t.first_letter == First::Upper && t.letters <= 9);
        if !t.long && may_be_date && is_date_token(&t.ascii[..t.ascii_len as usize]) {
            f.date_tokens += 1;
        }
    }

    /// The features of everything read (the open token closed).
    pub(super) fn finish(mut self) -> Features {
        self.space();
        if self.open_words > 0 {
            self.f.sentences += 1;
        }
        self.f.lines = self.full_lines + 1;
        self.f
    }
}

/// Is `name` (lower case) an English month or weekday name or one of their usual
/// abbreviations?
fn is_date_name(name: &[u8]) -> bool {
    matches!(
        name,
        b"jan"
            | b"january"
            | b"feb"
            | b"february"
            | b"mar"
            | b"march"
            | b"apr"
            | b"april"
            | b"may"
            | b"jun"
            | b"june"
            | b"jul"
            | b"july"
            | b"aug"
            | b"august"
            | b"sep"
            | b"sept"
            | b"september"
            | b"oct"
            | b"october"
            | b"nov"
            | b"november"
            | b"dec"
            | b"december"
            | b"mon"
            | b"monday"
            | b"tue"
            | b"tues"
            | b"tuesday"
            | b"wed"
            | b"wednesday"
            | b"thu"
            | b"thur"
            | b"thurs"
            | b"thursday"
            | b"fri"
            | b"friday"
            | b"sat"
            | b"saturday"
            | b"sun"
            | b"sunday"
    )
}

/// Is the ASCII token `tok` date- or time-related (Kohlschütter et al. 2010's "number of
/// date/time related tokens", which the paper leaves undefined)? cescope's rule, after the
/// token's leading and trailing characters that are not letters or digits are dropped
/// (`(2024),` → `2024`):
///
/// - a year 1900–2099 (`2024`);
/// - numbers joined by one kind of separator: three groups with `-`, `/` or `.` where every
///   group has at most 2 digits or one has 4 (`2024-01-05`, `5/1/24`, `05.01.2024`), or two or
///   three groups with `:` whose groups after the first have 2 digits (`12:30`, `9:05:59`);
/// - an English month or weekday name or abbreviation written with a capital (`May`, `Sept`,
///   `Monday`; lower-case `may` is a verb).
///
/// Non-ASCII tokens (and tokens over 16 bytes) are never date tokens.
pub fn is_date_token(tok: &[u8]) -> bool {
    let start = tok.iter().position(u8::is_ascii_alphanumeric);
    let end = tok.iter().rposition(u8::is_ascii_alphanumeric);
    let (Some(a), Some(z)) = (start, end) else {
        return false;
    };
    let core = &tok[a..=z];
    if core.iter().all(u8::is_ascii_alphabetic) {
        if !core[0].is_ascii_uppercase() || core.len() > 9 {
            return false;
        }
        let mut lower = [0u8; 9];
        lower[..core.len()].copy_from_slice(core);
        lower.make_ascii_lowercase();
        return is_date_name(&lower[..core.len()]);
    }
    if core.iter().all(u8::is_ascii_digit) {
        return core.len() == 4 && (&core[..2] == b"19" || &core[..2] == b"20");
    }
    let Some(&sep) = core.iter().find(|b| !b.is_ascii_digit()) else {
        return false;
    };
    if !matches!(sep, b'-' | b'/' | b'.' | b':') {
        return false;
    }
    let mut groups = [0usize; 3];
    let mut n = 0;
    for g in core.split(|&b| b == sep) {
        if n == 3 || g.is_empty() || !g.iter().all(u8::is_ascii_digit) {
            return false;
        }
        groups[n] = g.len();
        n += 1;
    }
    let groups = &groups[..n];
    if sep == b':' {
        n >= 2 && groups[0] <= 2 && groups[1..].iter().all(|&g| g == 2)
    } else {
        n == 3
            && (groups.iter().all(|&g| g <= 2)
                || (groups.iter().filter(|&&g| g == 4).count() == 1
                    && groups.iter().all(|&g| g <= 2 || g == 4)))
    }
}
