//! Crawl-scale batch extraction (`cescope extract --input`, `cescope eval FILE.jsonl`): WARC and
//! JSONL readers, order, per-record errors, and JSONL evaluation equal to the directory form.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use cescope::batch::{self, warc::write_response, InputFormat, OutputRecord, PipelineOptions};
use cescope::eval::run::{self, Metric};
use common::{cescope, stderr};

const PAGE: &str = "<html><head><title>T</title></head><body><ul><li><a href=\"/a\">Home</a></li>\
<li><a href=\"/b\">News</a></li></ul><div><p>The council approved the new bridge on Tuesday after a \
long debate about its cost and design.</p><p>Work starts in spring and should take two years, \
officials said.</p></div></body></html>";

fn sample_pages() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-pages")
}

fn records(stdout: &[u8]) -> Vec<OutputRecord> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The WARC records of the hand-built file, each as its own byte string: a warcinfo record, an
/// HTML response, an image response, a broken record, a latin-1 HTML response (charset only in
/// the HTTP header), a response whose body is a PNG.
fn warc_records() -> Vec<Vec<u8>> {
    let mut recs = Vec::new();
    let info = b"software: cescope-test\r\n";
    recs.push(
        [
            format!(
                "WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <urn:x:info>\r\n\
                 WARC-Date: 2026-01-01T00:00:00Z\r\nContent-Type: application/warc-fields\r\n\
                 Content-Length: {}\r\n\r\n",
                info.len()
            )
            .into_bytes(),
            info.to_vec(),
            b"\r\n\r\n".to_vec(),
        ]
        .concat(),
    );
    let mut r = Vec::new();
    write_response(
        &mut r,
        "a",
        "http://example.org/a",
        "utf-8",
        PAGE.as_bytes(),
    )
    .unwrap();
    recs.push(r);
    // An image response: skipped.
    let png = b"\x89PNG\r\n\x1a\n0000";
    let block = [
        b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n".to_vec(),
        png.to_vec(),
    ]
    .concat();
    recs.push(
        [
            format!(
                "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:x:img>\r\n\
                 WARC-Date: 2026-01-01T00:00:00Z\r\nContent-Length: {}\r\n\r\n",
                block.len()
            )
            .into_bytes(),
            block,
            b"\r\n\r\n".to_vec(),
        ]
        .concat(),
    );
    // A broken record: its header block is not WARC headers.
    recs.push(b"WARC/1.0\r\nthis line is not a header\r\n\r\n".to_vec());
    let latin = PAGE.replace("approved", "approuv\u{e9}");
    let latin: Vec<u8> = latin.chars().map(|c| c as u32 as u8).collect();
    let mut r = Vec::new();
    write_response(&mut r, "b", "http://example.org/b", "iso-8859-1", &latin).unwrap();
    recs.push(r);
    let mut r = Vec::new();
    write_response(&mut r, "c", "http://example.org/c", "utf-8", png).unwrap();
    recs.push(r);
    recs
}

fn check_warc_output(out: &std::process::Output) {
    assert!(out.status.success(), "{}", stderr(out));
    let recs = records(&out.stdout);
    let ids: Vec<&str> = recs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "<urn:cescope:a>",
            "record-4",
            "<urn:cescope:b>",
            "<urn:cescope:c>"
        ],
        "{recs:#?}"
    );
    assert!(recs[0].error.is_none());
    assert!(recs[0].text.contains("The council approved the new bridge"));
    assert!(!recs[0].text.contains("Home"));
    assert_eq!(recs[0].url.as_deref(), Some("http://example.org/a"));
    assert_eq!(recs[0].bytes, PAGE.len() as u64);
    assert!(recs[1].error.as_deref().unwrap().contains("record 4"));
    // The HTTP charset reached the decoder.
    assert!(recs[2].text.contains("approuvé"), "{:?}", recs[2].text);
    assert!(
        recs[3].error.as_deref().unwrap().contains("PNG"),
        "{:?}",
        recs[3]
    );
    let err = stderr(out);
    assert!(err.contains("4 records (2 errors, 2 skipped)"), "{err}");
}

#[test]
fn warc_plain_and_gzip_members() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("crawl.warc");
    std::fs::write(&plain, warc_records().concat()).unwrap();
    let out = cescope()
        .args(["extract", "--threads", "2", "--input"])
        .arg(&plain)
        .output()
        .unwrap();
    check_warc_output(&out);

    // One gzip member per record, as Common Crawl writes .warc.gz.
    let gz = dir.path().join("crawl.warc.gz");
    let mut bytes = Vec::new();
    for r in warc_records() {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&r).unwrap();
        bytes.extend(e.finish().unwrap());
    }
    std::fs::write(&gz, bytes).unwrap();
    let out = cescope()
        .args(["extract", "--input"])
        .arg(&gz)
        .output()
        .unwrap();
    check_warc_output(&out);

    // The same from standard input, with the format named.
    let mut child = cescope()
        .args(["extract", "--input", "-", "--input-format", "warc"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&std::fs::read(&gz).unwrap())
        .unwrap();
    check_warc_output(&child.wait_with_output().unwrap());
}

#[test]
fn warc_truncated_at_the_end_is_an_error_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = warc_records()[1].clone();
    let mut second = Vec::new();
    write_response(
        &mut second,
        "z",
        "http://example.org/z",
        "utf-8",
        PAGE.as_bytes(),
    )
    .unwrap();
    bytes.extend_from_slice(&second[..second.len() - 40]);
    let f = dir.path().join("cut.warc");
    std::fs::write(&f, bytes).unwrap();
    let out = cescope()
        .args(["extract", "--input"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = records(&out.stdout);
    assert_eq!(recs.len(), 2, "{recs:#?}");
    assert!(recs[0].error.is_none());
    assert!(recs[1].error.is_some());
}

/// `n` JSONL page lines of different sizes (so workers finish out of order), ids `p0`…
fn jsonl_pages(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        let html = PAGE.replace(
            "officials said.",
            &"officials said again. ".repeat(1 + (i * 37) % 200),
        );
        s.push_str(&serde_json::json!({"id": format!("p{i}"), "url": format!("http://x.org/{i}"), "html": html}).to_string());
        s.push('\n');
    }
    s
}

#[test]
fn jsonl_ordered_unordered_and_a_bad_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut input = jsonl_pages(60);
    input.insert_str(0, "{\"id\": \"bad\", \"html\": 3}\n");
    let f = dir.path().join("pages.jsonl");
    std::fs::write(&f, &input).unwrap();

    let ordered = cescope()
        .args(["extract", "--threads", "3", "--algo", "bte", "--input"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(ordered.status.success(), "{}", stderr(&ordered));
    let recs = records(&ordered.stdout);
    let mut want = vec!["line-1".to_string()];
    want.extend((0..60).map(|i| format!("p{i}")));
    let ids: Vec<String> = recs.iter().map(|r| r.id.clone()).collect();
    assert_eq!(ids, want);
    assert!(recs[0].error.as_deref().unwrap().contains("line 1"));
    assert!(recs[1..]
        .iter()
        .all(|r| r.error.is_none() && r.algo == "bte"));
    assert!(recs[1].text.contains("council"));

    let unordered = cescope()
        .args([
            "extract",
            "--threads",
            "3",
            "--algo",
            "bte",
            "--unordered",
            "--input",
        ])
        .arg(&f)
        .output()
        .unwrap();
    assert!(unordered.status.success());
    let mut a: Vec<String> = String::from_utf8_lossy(&ordered.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    let mut b: Vec<String> = String::from_utf8_lossy(&unordered.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

#[test]
fn the_one_page_form_needs_a_file_or_input() {
    let out = cescope().args(["extract"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = cescope()
        .args(["extract", "--input", "-"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--input-format"), "{}", stderr(&out));
}

#[test]
fn html_dir_with_headline() {
    let out = cescope()
        .args(["extract", "--headline", "title", "--input"])
        .arg(sample_pages())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = records(&out.stdout);
    let n = std::fs::read_dir(sample_pages())
        .unwrap()
        .filter(|e| cescope::corpus::is_page_file(&e.as_ref().unwrap().path()))
        .count();
    assert_eq!(recs.len(), n);
    assert!(recs.iter().all(|r| r.error.is_none()));
    assert!(recs
        .iter()
        .any(|r| !r.headline.as_deref().unwrap_or("").is_empty()));
}

/// A corpus in a tempdir: the sample pages with gold texts taken from parts of their text.
fn tiny_corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("html");
    std::fs::create_dir(&html).unwrap();
    let mut gt = serde_json::Map::new();
    for e in std::fs::read_dir(sample_pages()).unwrap() {
        let p = e.unwrap().path();
        if !cescope::corpus::is_page_file(&p) {
            continue;
        }
        let id = p.file_stem().unwrap().to_string_lossy().into_owned();
        std::fs::copy(&p, html.join(p.file_name().unwrap())).unwrap();
        let page = cescope::page::Page::load(&p, &Default::default()).unwrap();
        // Gold: the middle third of the page's visible words.
        let all = page.render(&cescope::selection::Selection::from_range(
            0..page.text().len(),
        ));
        let words: Vec<&str> = all.split_whitespace().collect();
        let n = words.len();
        let body = words[n / 3..2 * n / 3].join(" ");
        gt.insert(
            id.clone(),
            serde_json::json!({"articleBody": body, "url": format!("http://{id}.example/")}),
        );
    }
    std::fs::write(
        dir.path().join("ground-truth.json"),
        serde_json::Value::Object(gt).to_string(),
    )
    .unwrap();
    dir
}

#[test]
fn eval_on_jsonl_equals_the_directory_form() {
    let corpus = tiny_corpus();
    let algos = run::configure(
        cescope::extractors::resolve("danag,bte,cetr,lqf").unwrap(),
        &[],
    )
    .unwrap();
    let (pages, _) = run::gather(&[corpus.path().to_path_buf()]).unwrap();
    assert!(pages.len() >= 5);
    let dir_report = run::evaluate(&pages, &algos, Metric::Word, false);

    // Convert the corpus to JSONL with the library (as `extract --output pages` does).
    let jsonl = corpus.path().join("tiny.jsonl");
    let mut out = std::fs::File::create(&jsonl).unwrap();
    let source = batch::open(corpus.path(), InputFormat::HtmlDir).unwrap();
    let s = batch::pages_stream(
        source,
        &Default::default(),
        &PipelineOptions::new(2),
        &mut out,
        &mut |w| panic!("{w}"),
    )
    .unwrap();
    assert_eq!(s.records as usize, pages.len());
    drop(out);

    let (jsonl_report, notes) = batch::eval::evaluate_jsonl(
        std::slice::from_ref(&jsonl),
        &algos,
        Metric::Word,
        &PipelineOptions::new(3),
    )
    .unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(jsonl_report.pages.len(), dir_report.pages.len());
    for (a, b) in dir_report.pages.iter().zip(&jsonl_report.pages) {
        assert_eq!(a.id, b.id);
        assert_eq!(a.site, b.site);
    }
    for (a, b) in dir_report.algos.iter().zip(&jsonl_report.algos) {
        let fa: Vec<f64> = a.results.iter().map(|r| r.prf.f1).collect();
        let fb: Vec<f64> = b.results.iter().map(|r| r.prf.f1).collect();
        assert_eq!(fa, fb, "{}", a.name);
    }
    // Not a trivial comparison: the scores differ between pages.
    let f = dir_report.f1s(0);
    assert!(f.iter().any(|&x| x != f[0]), "{f:?}");

    // The command line gives the same table.
    let table = |path: &Path| {
        let o = cescope()
            .args(["eval", "--algo", "danag,bte", "--format", "csv"])
            .arg(path)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        // Drop the corpus column (directory name vs file name) and the timing columns.
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| l.split(',').skip(1).take(6).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
    };
    assert_eq!(table(corpus.path()), table(&jsonl));
}

#[test]
#[ignore = "needs ../shared/corpus"]
fn eval_on_jsonl_equals_the_directory_form_on_scrapinghub_dev() {
    let corpus =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus")).join("scrapinghub-dev");
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("scrapinghub-dev.jsonl");
    let o = cescope()
        .args(["extract", "--output", "pages", "--input"])
        .arg(&corpus)
        .stdout(std::fs::File::create(&jsonl).unwrap())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let algos = run::configure(cescope::extractors::resolve("danag,bte").unwrap(), &[]).unwrap();
    let (pages, _) = run::gather(&[corpus]).unwrap();
    let a = run::evaluate(&pages, &algos, Metric::Word, false);
    let (b, _) =
        batch::eval::evaluate_jsonl(&[jsonl], &algos, Metric::Word, &PipelineOptions::new(2))
            .unwrap();
    for i in 0..algos.len() {
        assert_eq!(a.f1s(i), b.f1s(i));
    }
}

#[test]
fn a_corrupt_gzip_member_ends_the_stream_with_an_error_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut members = Vec::new();
    for r in warc_records().into_iter().take(2) {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&r).unwrap();
        members.push(e.finish().unwrap());
    }
    // The second member (the HTML response) is cut in half: its deflate data ends early.
    let cut = members[1].len() / 2;
    members[1].truncate(cut);
    let f = dir.path().join("bad.warc.gz");
    std::fs::write(&f, members.concat()).unwrap();
    let out = cescope()
        .args(["extract", "--input"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = records(&out.stdout);
    assert_eq!(recs.len(), 1, "{recs:#?}");
    let e = recs[0].error.as_deref().unwrap();
    assert!(e.contains("the stream ends here"), "{e}");
}
