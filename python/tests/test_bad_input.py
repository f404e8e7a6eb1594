"""Bad input from Python gives a CescopeError or a result, never a crash of the interpreter:
hypothesis-generated text and bytes, a seeded loop over mutated sample pages, a 50 MB page,
deep nesting, invalid bytes, wrong types and parameters. Every call runs both on the calling
thread (`extract`) and on cescope's worker threads (`extract_many`)."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cescope
from conftest import SAMPLES

ALGOS = ["learned", "danag", "bte", "cetd", "lqf"]


def outcome(fn, *args, **kwargs):
    """The result of `fn` or the CescopeError it raised; any other exception fails the test."""
    try:
        return fn(*args, **kwargs)
    except cescope.CescopeError as e:
        assert str(e), "an error without a message"
        return e


def check_page(page, algo="learned"):
    """One page through extract, extract_many (2 threads), blocks and title: each gives a
    result of the documented type or a CescopeError; extract and extract_many agree."""
    one = outcome(cescope.extract, page, algo=algo)
    assert isinstance(one, (str, cescope.CescopeError))
    many = outcome(cescope.extract_many, [page, page], algo=algo, threads=2, errors="none")
    assert isinstance(many, list) and len(many) == 2
    if isinstance(one, str):
        assert many == [one, one]
    else:
        assert many == [None, None]
    b = outcome(cescope.blocks, page)
    assert isinstance(b, (list, cescope.CescopeError))
    t = outcome(cescope.title, page)
    assert t is None or isinstance(t, (str, cescope.CescopeError))
    return one


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=4000), st.sampled_from(ALGOS))
def test_arbitrary_bytes(data, algo):
    check_page(data, algo)


HTMLISH = st.lists(
    st.one_of(
        st.sampled_from(
            ["<div>", "</div>", "<p>", "</p>", "<a href=x>", "</a>", "<table><tr><td>", "<script>", "</script>",
             "<!--", "-->", "<![CDATA[", "<meta charset=windows-1256>", "&amp;", "&#x0;", "&#xD800;", "<br/>",
             "<noscript>", "<title>", "</title>", "<h1>", "\x00", "\ufeff", "\ud800", "<", ">", "\"", "'"]
        ),
        st.text(max_size=40),
    ),
    max_size=120,
).map("".join)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(HTMLISH, st.sampled_from(ALGOS))
def test_arbitrary_html_like_text(text, algo):
    check_page(text, algo)
    # The same text as bytes in several encodings (lone surrogates cannot be encoded).
    for enc in ("utf-8", "utf-16", "latin-1"):
        check_page(text.encode(enc, "surrogatepass" if enc.startswith("utf") else "replace"), algo)


def mutate(rng, data: bytes) -> bytes:
    """One random mutation of a page: flip, delete, duplicate or insert bytes, truncate."""
    if not data:
        return bytes([rng.randrange(256)])
    i = rng.randrange(len(data))
    n = rng.randrange(1, 64)
    op = rng.randrange(6)
    if op == 0:
        b = bytearray(data)
        for k in range(i, min(len(b), i + n)):
            b[k] = rng.randrange(256)
        return bytes(b)
    if op == 1:
        return data[:i] + data[i + n:]
    if op == 2:
        return data[:i] + data[i:i + n] * rng.randrange(2, 50) + data[i:]
    if op == 3:
        junk = rng.choice([b"<div>", b"</table>", b"<!--", b"\xff\xfe", b"\xc3", b"<script>", b"&#", b"\x00"])
        return data[:i] + junk * rng.randrange(1, 200) + data[i:]
    if op == 4:
        return data[:i]
    return data[i:] + data[:i]


def test_seeded_mutations_of_the_sample_pages():
    rng = random.Random(20240532)
    pages = [p.read_bytes() for p in sorted(SAMPLES.glob("*.html"))]
    results = 0
    for round_ in range(120):
        data = rng.choice(pages)
        for _ in range(rng.randrange(1, 6)):
            data = mutate(rng, data)
        page = data if round_ % 3 else data.decode("utf-8", "replace")
        if isinstance(check_page(page, ALGOS[round_ % len(ALGOS)]), str):
            results += 1
    # Mutated HTML is still HTML: most rounds give text, not errors.
    assert results > 100, results


def test_invalid_bytes_and_surrogates():
    assert isinstance(cescope.extract(b"<p>caf\xe9 \xff\xfe\xc3 ok</p>"), str)
    assert "ok" in cescope.extract(b"<p>caf\xe9 \xff\xfe\xc3 ok</p>")
    # A str with a lone surrogate (not encodable as UTF-8): replaced, not an error.
    assert "fine" in cescope.extract("<p>bad \ud800 but fine</p>")
    # Binary data is an error with the binary's message.
    with pytest.raises(cescope.CescopeError, match="not an HTML page"):
        cescope.extract(b"\x7fELF\x02\x01\x01" + bytes(2000))
    assert cescope.extract("") == "" and cescope.extract(b"") == ""
    assert isinstance(cescope.extract(bytearray(b"<p>a bytearray page</p>")), str)


def test_a_50_mb_page():
    para = "<p>" + "A sentence of a very long page, repeated many times over. " * 8 + "</p>\n"
    html = "<html><body><article>" + para * (50_000_000 // len(para) + 1) + "</article></body></html>"
    assert len(html) > 50_000_000
    for algo in ("learned", "bte"):
        text = cescope.extract(html, algo=algo)
        assert text.count("A sentence of a very long page") > 100_000
    assert len(cescope.extract_many([html.encode()], algo="bte", threads=1)[0]) > 10_000_000


@pytest.mark.parametrize("depth", [10_000, 100_000])
def test_deep_nesting(depth):
    for tag in ("div", "b", "table"):
        html = f"<{tag}>" * depth + "<p>deep text in a deep page</p>" + f"</{tag}>" * depth
        for algo in ALGOS:
            one = check_page(html, algo)
            assert isinstance(one, str), (tag, algo, one)


def test_wrong_types_and_parameters_never_crash():
    bad_values = [None, 1.5, -1, 10**40, "x", [], {}, object(), float("nan"), float("inf"), True]
    for algo in ("danag", "cetd", "cetr", "learned"):
        specs = next(a for a in cescope.algorithms() if a["name"] == algo)["params"]
        for spec in specs:
            for v in bad_values:
                r = outcome(cescope.Extractor, algo, params={spec["name"]: v})
                assert isinstance(r, (cescope.Extractor, cescope.CescopeError))
    for kwargs in (dict(threads=-1), dict(threads="2"), dict(threads=2**70), dict(errors=None), dict(encoding=3),
                   dict(format=None)):
        with pytest.raises(cescope.CescopeError):
            cescope.extract_many(["<p>x</p>"], **kwargs)
    for kwargs in (dict(url=3), dict(url=b"http://x"), dict(guideline=3), dict(scripting="yes", encoding=[])):
        with pytest.raises(cescope.CescopeError):
            cescope.extract("<p>x</p>", **kwargs)
    with pytest.raises(cescope.CescopeError, match="parameter name must be a str"):
        cescope.Extractor("danag", params={1: 2})
    # A huge `top` is "all candidates", not an overflow.
    assert isinstance(cescope.title("<h1>A headline</h1><p>text</p>", top=10**40), list)
    for kwargs in (dict(top=-1), dict(top="3"), dict(method=None), dict(encoding=1)):
        with pytest.raises(cescope.CescopeError):
            cescope.title("<p>x</p>", **kwargs)
    for kwargs in (dict(algo=3), dict(algo="nope"), dict(why="nope"), dict(encoding="klingon")):
        with pytest.raises(cescope.CescopeError):
            cescope.blocks("<p>x</p>", **kwargs)
