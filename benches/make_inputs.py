#!/usr/bin/env python3
"""Build batch-extraction benchmark inputs by repetition: JSONL pages and a WARC.gz.

    make_inputs.py BASE.jsonl OUT_PREFIX SIZE_MB

BASE.jsonl holds JSONL pages (`cescope extract --input CORPUS --output pages`).
They are shuffled once (fixed seed, so every input is a prefix of the same
sequence and a small input has the same mix of pages as a large one), then
repeated, each copy with its ids suffixed `#k`, until the pages
(the `html` strings as UTF-8) add up to at least SIZE_MB megabytes (10^6 bytes).
Writes OUT_PREFIX.jsonl and OUT_PREFIX.warc.gz (one gzip member per WARC
`response` record, as Common Crawl writes them; `Content-Type: text/html;
charset=utf-8`). Only the standard library is used.
"""

import gzip
import json
import random
import sys


def warc_record(rec_id, url, page):
    block = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
             b"Content-Length: %d\r\n\r\n" % len(page)) + page
    head = ("WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:cescope:%s>\r\n"
            "WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: %s\r\n"
            "Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n"
            % (rec_id, url, len(block))).encode()
    return head + block + b"\r\n\r\n"


def main():
    base, prefix, size_mb = sys.argv[1], sys.argv[2], float(sys.argv[3])
    with open(base, encoding="utf-8") as f:
        lines = [json.loads(l) for l in f if l.strip()]
    if not lines:
        sys.exit("no pages in " + base)
    random.Random(14).shuffle(lines)
    want = size_mb * 1e6
    total, copy, pages = 0, 0, 0
    with open(prefix + ".jsonl", "w", encoding="utf-8") as jl, open(prefix + ".warc.gz", "wb") as wg:
        while total < want:
            for rec in lines:
                rec = dict(rec)
                rec["id"] = "%s#%d" % (rec.get("id", ""), copy)
                url = rec.get("url") or "http://example.org/" + rec["id"]
                page = rec["html"].encode("utf-8")
                jl.write(json.dumps(rec, ensure_ascii=False) + "\n")
                wg.write(gzip.compress(warc_record(rec["id"], url, page), compresslevel=1))
                total += len(page)
                pages += 1
                if total >= want:
                    break
            copy += 1
    print("%s: %d pages, %.1f MB of pages" % (prefix, pages, total / 1e6))


if __name__ == "__main__":
    main()
