"""datatrove: WarcReader → CescopeExtractor → JsonlWriter over a WARC the test writes (the
sample pages as HTTP responses, with a request, a warcinfo, a metadata record and an image
response among them) gives one document per HTML record with main content, holding the text
the cescope binary gives for that record (`cescope extract --algo learned --input FILE.warc.gz`)."""

import io
import json

import pytest

import cescope
from conftest import SAMPLES, missing, run_bin

try:
    import datatrove  # noqa: F401
    import warcio  # noqa: F401
except ImportError as e:  # python/venv.sh installs both; in CI their absence fails
    missing(f"datatrove or warcio is not installed ({e}); run python/venv.sh")

from datatrove.executor import LocalPipelineExecutor  # noqa: E402
from datatrove.pipeline.readers import WarcReader  # noqa: E402
from datatrove.pipeline.writers import JsonlWriter  # noqa: E402
from warcio.statusandheaders import StatusAndHeaders  # noqa: E402
from warcio.warcwriter import WARCWriter  # noqa: E402

from cescope.datatrove import CescopeExtractor  # noqa: E402


def write_warc(path, pages):
    """A gzipped WARC: warcinfo, then per page a request and its response (half of them with
    WARC-Identified-Payload-Type, as Common Crawl writes it, half without), a metadata record,
    and an image response. Returns {WARC-Record-ID: url} of the HTML responses."""
    html_ids = {}
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=True)
        w.write_record(w.create_warcinfo_record("test.warc.gz", {"software": "cescope tests"}))
        for i, page in enumerate(pages):
            url = f"https://news.example.org/{page.stem}"
            req = w.create_warc_record(
                url, "request",
                payload=io.BytesIO(b""),
                http_headers=StatusAndHeaders("GET /%s HTTP/1.1" % page.stem, [("Host", "news.example.org")],
                                              is_http_request=True),
            )
            w.write_record(req)
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            extra = {"WARC-Identified-Payload-Type": "text/html"} if i % 2 == 0 else None
            resp = w.create_warc_record(
                url, "response", payload=io.BytesIO(page.read_bytes()), http_headers=headers,
                warc_headers_dict=extra,
            )
            w.write_record(resp)
            html_ids[resp.rec_headers.get_header("WARC-Record-ID")] = url
            w.write_record(w.create_warc_record(url, "metadata", payload=io.BytesIO(b"fetchTimeMs: 12\r\n"),
                                                warc_content_type="application/warc-fields"))
        png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8
        img = w.create_warc_record(
            "https://news.example.org/logo.png", "response", payload=io.BytesIO(png),
            http_headers=StatusAndHeaders("200 OK", [("Content-Type", "image/png")], protocol="HTTP/1.1"),
            warc_headers_dict={"WARC-Identified-Payload-Type": "image/png"},
        )
        w.write_record(img)
    return html_ids


def test_warc_reader_cescope_extractor_jsonl_writer(tmp_path, samples, cescope_bin):
    warc_dir = tmp_path / "warc"
    warc_dir.mkdir()
    warc = warc_dir / "test.warc.gz"
    html_ids = write_warc(warc, samples)
    assert len(html_ids) == len(samples)

    # The binary's records for the same WARC: every HTML response, by WARC-Record-ID.
    want = {r["id"]: r for r in map(json.loads, run_bin(cescope_bin, "extract", "--algo", "learned", "--input", warc).splitlines())}
    assert set(want) == set(html_ids)
    assert all("error" not in r for r in want.values())
    with_text = {i for i, r in want.items() if r["text"]}
    # Some sample page has no main content for the learned model, most have.
    assert len(samples) - 2 <= len(with_text) <= len(samples)

    out = tmp_path / "out"
    LocalPipelineExecutor(
        pipeline=[
            WarcReader(str(warc_dir), glob_pattern="*.warc.gz"),
            CescopeExtractor(),
            JsonlWriter(str(out), compression=None),
        ],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    docs = [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.read_text().splitlines()]
    got = {d["id"]: d for d in docs}
    assert len(got) == len(docs), "one document per record"
    # One document per HTML record with main content (datatrove drops empty extractions).
    assert set(got) == with_text
    for i, d in got.items():
        assert d["metadata"]["url"] == html_ids[i]
        assert d["text"] == want[i]["text"], d["metadata"]["url"]


def test_the_extractor_checks_its_settings_when_the_pipeline_is_built():
    with pytest.raises(cescope.CescopeError, match="unknown algorithm"):
        CescopeExtractor(algo="nope")
    with pytest.raises(cescope.CescopeError, match="gapp"):
        CescopeExtractor(algo="danag", gapp=3)
    ex = CescopeExtractor(algo="danag", gap=12)
    html = (SAMPLES / "wiki-article.html").read_text()
    assert ex.extract(html) == cescope.extract(html, algo="danag", gap=12)
