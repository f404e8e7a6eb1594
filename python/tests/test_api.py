"""The Python API against the cescope binary: the same text, blocks, headlines and
algorithms for the same pages, and errors as CescopeError."""

import json
import pickle
import re
import threading
import time

import pytest

import cescope
from conftest import ROOT, SAMPLES, run_bin


def test_the_readme_example_prints_the_articles_first_words():
    text = cescope.extract(open(SAMPLES / "news-article.html").read())
    assert text.startswith("Residents of a riverside town that has flooded three times"), text[:80]


@pytest.mark.parametrize("algo", ["learned", "danag", "bte"])
def test_extract_gives_the_binarys_text_on_every_sample_page(samples, cescope_bin, algo):
    # The binary's batch output (one JSONL record per page, id = file stem) is the reference.
    records = {
        r["id"]: r
        for r in map(json.loads, run_bin(cescope_bin, "extract", "--algo", algo, "--input", SAMPLES).splitlines())
    }
    assert len(records) == len(samples)
    ex = cescope.Extractor(algo)
    for page in samples:
        want = records[page.stem]["text"]
        # Raw bytes: cescope's own decoding (the legacy pages declare windows-1256 and
        # iso-8859-1 in <meta>).
        assert ex.extract(page.read_bytes()) == want, page.name
        assert cescope.extract(page.read_bytes(), algo=algo) == want, page.name
    # Every page gave some text except the page without main content (for some algorithms).
    assert sum(bool(r["text"]) for r in records.values()) >= len(samples) - 1


def test_str_is_read_as_unicode_and_bytes_are_decoded_like_the_binary(cescope_bin):
    # The package's default algorithm is the shipped model `learned` (the binary's is danag).
    page = SAMPLES / "legacy-windows-1256.html"
    raw = page.read_bytes()
    want = run_bin(cescope_bin, "extract", "--algo", "learned", page).rstrip("\n")
    # A phrase of the article's first paragraph (the model may leave the headline out).
    assert "«حافلة المعرفة»" in want
    assert cescope.extract(raw) == want
    # The same page decoded by Python: the text is already Unicode, <meta> does not re-decode it.
    assert cescope.extract(raw.decode("windows-1256")) == want
    # Read as Latin-1 by the caller, it is mojibake, and cescope keeps what it was given.
    assert "حافلة" not in cescope.extract(raw.decode("latin-1"))
    # An override wins over <meta> for bytes, as --encoding does.
    forced = cescope.extract(raw, encoding="iso-8859-1")
    assert forced == run_bin(cescope_bin, "extract", "--algo", "learned", "--encoding", "iso-8859-1", page).rstrip("\n")
    assert forced != want


def test_parameters_by_keyword_and_by_dict_match_set(cescope_bin):
    # On the news article DANAg's gap matters: 1 changes the text, 8 does not (default 20).
    page = SAMPLES / "news-article.html"
    html = page.read_bytes()
    for gap, want_differs in [(1, True), (8, False)]:
        got = cescope.extract(html, algo="danag", gap=gap)
        assert got == run_bin(cescope_bin, "extract", "--algo", "danag", "--set", f"gap={gap}", page).rstrip("\n")
        assert (got != cescope.extract(html, algo="danag")) == want_differs
    # A str value is parsed as --set parses it; a dict takes names that are no identifiers.
    assert cescope.extract(html, algo="danag", gap="1") == cescope.extract(html, algo="danag", params={"gap": 1})
    assert cescope.extract(html, algo="danag", gap="1") != cescope.extract(html, algo="danag")
    # CETD's own `scripting` parameter goes through params= (scripting= is the page flag).
    ex = cescope.Extractor("cetd", params={"scripting": True})
    assert ex.params["scripting"] is True
    assert cescope.Extractor("cetd").params["scripting"] is False
    assert cescope.Extractor("danag", gap=3).params["gap"] == 3


def test_guideline_and_model_files_by_path(cescope_bin):
    page = SAMPLES / "blog-comments.html"
    html = page.read_bytes()
    want = run_bin(cescope_bin, "extract", "--algo", "learned", "--guideline", "article", page).rstrip("\n")
    assert cescope.extract(html, guideline="article") == want
    # The shipped model's file, named by path (str or pathlib), gives the shipped model's text.
    model = ROOT / "models" / "learned.json"
    assert cescope.extract(html, algo=model) == cescope.extract(html)
    assert cescope.Extractor(str(model)).name == "learned"


def test_extract_many_keeps_order_and_equals_extract_on_1_and_2_threads(samples):
    pages = [p.read_bytes() for p in samples] * 3
    one = [cescope.extract(p) for p in pages]
    for threads in (1, 2, None):
        assert cescope.extract_many(pages, threads=threads) == one
    # A generator, and str pages mixed with bytes pages.
    mixed = (p.decode("utf-8", "replace") if i % 2 else p for i, p in enumerate(pages))
    assert len(cescope.extract_many(mixed, algo="bte", threads=2)) == len(pages)
    assert cescope.extract_many([]) == []


def test_extract_many_errors_raise_or_none():
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    good = "<html><body><article><p>" + "Plenty of words in a paragraph. " * 20 + "</p></article></body></html>"
    with pytest.raises(cescope.CescopeError, match=r"page 1: .*not an HTML page: it looks like a PNG image"):
        cescope.extract_many([good, png, good], threads=2)
    got = cescope.extract_many([good, png, good], threads=2, errors="none")
    assert got[1] is None and got[0] == got[2] == cescope.extract(good)
    assert "Plenty of words" in got[0]
    with pytest.raises(cescope.CescopeError, match="page 1: a page must be str"):
        cescope.extract_many([good, None])
    with pytest.raises(cescope.CescopeError, match="not one page"):
        cescope.extract_many(good)
    with pytest.raises(cescope.CescopeError, match="errors="):
        cescope.extract_many([good], errors="ignore")
    for threads in (0, 1025, 10**30):
        with pytest.raises(cescope.CescopeError, match="threads must be 1 to 1024"):
            cescope.extract_many([good], threads=threads)


def test_blocks_are_the_binarys_rows(cescope_bin):
    page = SAMPLES / "news-article.html"
    want = json.loads(run_bin(cescope_bin, "blocks", "--format", "json", "--algo", "bte,learned", page))["blocks"]
    got = cescope.blocks(page.read_bytes(), algo="bte,learned")
    assert got == want
    assert len(got) > 10
    first = got[0]
    for key in ("index", "number", "path", "start", "end", "features", "units", "verdicts", "text"):
        assert key in first
    assert set(first["verdicts"]) == {"bte", "learned"}
    why = cescope.blocks(page.read_bytes(), why="learned")
    assert all("why" in b for b in why) and any(b["why"] for b in why)


def test_title_is_the_binarys_headline(cescope_bin):
    page = SAMPLES / "news-article.html"
    want = json.loads(run_bin(cescope_bin, "title", "--format", "json", "--top", "3", page))["candidates"]
    assert cescope.title(page.read_bytes()) == want[0]["text"] == "Castlebridge flood barrier delayed again as costs rise by £14m"
    assert cescope.title(page.read_bytes(), top=3) == want
    assert cescope.title(page.read_bytes(), method="tf")
    assert cescope.title("<p>no heading here</p>", method="title") is None
    with pytest.raises(cescope.CescopeError, match="unknown algorithm"):
        cescope.title("<p>x</p>", method="nope")


def test_algorithms_list_every_extractor_with_its_parameters(cescope_bin):
    got = cescope.algorithms()
    want = json.loads(run_bin(cescope_bin, "algos", "--format", "json"))
    # The package may be built without the reference extractors (feature `reference`, off in
    # `pip install ./python`; on in `.ci/run`'s build), the binary with them: the binary's list,
    # at most those two left out.
    names = {a["name"] for a in got}
    assert {a["name"] for a in want} - names <= {"trafilatura", "readability"}
    assert got == [a for a in want if a["name"] in names]
    assert {"learned", "danag", "bte", "cetd"} <= names
    danag = next(a for a in got if a["name"] == "danag")
    gap = next(p for p in danag["params"] if p["name"] == "gap")
    assert gap["default"] == 20 and gap["kind"] == "int"


def test_errors_are_cescope_errors_with_cescopes_message(tmp_path):
    assert issubclass(cescope.CescopeError, ValueError)
    html = "<p>hello</p>"
    cases = [
        (dict(algo="nope"), "unknown algorithm \"nope\""),
        (dict(algo="danag", gapp=3), "gapp"),
        (dict(algo="danag", gap=-5), "out of range"),
        (dict(algo="danag", gap="many"), "expected an integer"),
        (dict(algo="danag", gap=[1]), "expected a bool, int, float or str"),
        (dict(algo="danag", gap=10**30), "out of range"),
        (dict(algo="danag", params={"gap": 3}, gap=4), "given twice"),
        (dict(format="pdf"), "unknown output format \"pdf\"; known: text, markdown, html"),
        (dict(guideline="no-such-guideline"), "no-such-guideline"),
        (dict(encoding="klingon"), "unknown encoding label"),
        (dict(algo=str(tmp_path / "missing.json")), "missing.json"),
        (dict(algo=None), "algo must be"),
    ]
    for kwargs, needle in cases:
        with pytest.raises(cescope.CescopeError) as e:
            cescope.extract(html, **kwargs)
        assert needle in str(e.value), (kwargs, str(e.value))
    for bad in (None, 3, ["<p>"], object()):
        with pytest.raises(cescope.CescopeError, match="a page must be str"):
            cescope.extract(bad)


def test_unreadable_and_malformed_model_files(tmp_path):
    (tmp_path / "dir.json").mkdir()
    (tmp_path / "garbage.json").write_bytes(b"\x00\xff not json")
    (tmp_path / "other.json").write_text('{"schema": 99, "method": "stack"}')
    for name in ("dir.json", "garbage.json", "other.json"):
        with pytest.raises(cescope.CescopeError, match=r"^model .*" + name):
            cescope.Extractor(tmp_path / name)
    (tmp_path / "set.toml").write_text("this is = not [ a set")
    with pytest.raises(cescope.CescopeError, match="filter set"):
        cescope.Extractor(tmp_path / "set.toml")


def test_an_extractor_pickles_as_its_settings():
    ex = cescope.Extractor("danag", gap=3, guideline="article")
    back = pickle.loads(pickle.dumps(ex))
    assert back.params == ex.params and back.name == ex.name
    page = (SAMPLES / "wiki-article.html").read_bytes()
    assert back.extract(page) == ex.extract(page)
    assert "gap=3" in repr(back)


def test_extract_many_releases_the_gil():
    # While extract_many runs in a worker thread, the main thread keeps running Python: it
    # notes the time of each turn of a loop (sleeping 1 ms between turns). The worker notes
    # when its call started and ended; with the GIL held for the whole call, no turn of the
    # main thread could fall inside that interval.
    pages = [p.read_bytes() for p in sorted(SAMPLES.glob("*.html"))] * 12
    span = {}

    def work():
        span["start"] = time.perf_counter()
        span["texts"] = cescope.extract_many(pages, threads=1)
        span["end"] = time.perf_counter()

    t = threading.Thread(target=work)
    turns = []
    t.start()
    while t.is_alive():
        turns.append(time.perf_counter())
        time.sleep(0.001)
    t.join()
    assert len(span["texts"]) == len(pages)
    inside = [x for x in turns if span["start"] + 0.02 < x < span["end"] - 0.02]
    duration = span["end"] - span["start"]
    assert duration > 0.1, f"the call took only {duration:.3f} s; give it more pages"
    assert len(inside) >= 20, (len(inside), duration)


STRUCTURED = """<html><body><nav><a href="/">Home</a> <a href="/docs">Docs</a></nav>
<article><h1>Reading a table in Rust</h1>
<p>This guide reads a small table of crates and prints it, with the code that does it and a few
notes on what each column means for the reader of the table below.</p>
<table><thead><tr><th>Crate</th><th>Version</th><th>Use</th></tr></thead>
<tbody><tr><td>serde</td><td>1.0</td><td>serialisation of the rows</td></tr>
<tr><td>csv</td><td>1.3</td><td>reading the file line by line</td></tr></tbody></table>
<pre><code class="language-rust">fn main() {
    println!("hello");
}</code></pre>
<p>The second paragraph explains the output of the program and why the table has three columns
in this order, which matters for anyone reading it later.</p></article>
<footer><a href="/about">About</a></footer></body></html>"""


def test_markdown_and_html_formats():
    # The article (learned selects it on this page), rendered three ways.
    text = cescope.extract(STRUCTURED)
    md = cescope.extract(STRUCTURED, format="markdown")
    html = cescope.extract(STRUCTURED, format="html")
    assert "println!" in text and "```" not in text and "Home" not in text
    assert "```rust\nfn main() {\n    println!(\"hello\");\n}\n```" in md, md
    assert re.search(r"^\| Crate +\| Version +\| Use +\|$", md, re.M), md
    assert re.search(r"^\| serde +\| 1\.0 +\| serialisation of the rows +\|$", md, re.M), md
    assert md.startswith("# Reading a table in Rust"), md
    assert "<table>" in html and "<script" not in html and "<nav" not in html, html
    # extract_many renders the same way, and the format name is case-insensitive.
    assert cescope.extract_many([STRUCTURED], format="Markdown") == [md]
