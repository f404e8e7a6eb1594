"""What the Python benchmarks share (`python_bench.py`, `resiliparse_ratio.py`): the page reader
and resiliparse called the one way both measure it.

Pages are read from a corpus directory in place (its `html/` folder when there is one), `.html`
/ `.htm` files and their `.gz` twins, sorted by file name, decompressed in memory: the raw
page bytes every extractor gets.
"""

import gzip
from pathlib import Path

SUFFIXES = (".html", ".htm", ".html.gz", ".htm.gz")


def load_pages(corpus: Path):
    """Every page of `corpus` as `(file name without .gz, raw bytes)`, sorted by file name."""
    folder = corpus / "html" if (corpus / "html").is_dir() else corpus
    files = sorted(p for p in folder.iterdir() if p.name.endswith(SUFFIXES))
    pages = []
    for p in files:
        raw = p.read_bytes()
        pages.append((p.name.removesuffix(".gz"), gzip.decompress(raw) if p.name.endswith(".gz") else raw))
    return pages


def resiliparse_main_content():
    """resiliparse's main-content extraction of one page's raw bytes, with its own encoding
    detection: `extract_plain_text(HTMLTree.parse_from_bytes(page, detect_encoding(page)),
    main_content=True)`. `None` when resiliparse is not importable."""
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import detect_encoding
        from resiliparse.parse.html import HTMLTree
    except ImportError:
        return None

    def extract(page: bytes) -> str:
        return extract_plain_text(HTMLTree.parse_from_bytes(page, detect_encoding(page)), main_content=True)

    return extract
