//! `cescope._cescope`: the native half of the Python package `cescope` (PyO3). The Python
//! half (`python/cescope/__init__.py`) wraps it with the documented functions
//! (`cescope.extract`, `extract_many`, `blocks`, `algorithms`, `title`) and the `Extractor`
//! class; this module is a thin shell over the library:
//!
//! - [`Job`]: an extractor looked up once ([`cescope::extractors::find`]: a registered name,
//!   `learned`, a filter-set `FILE.toml` or a model `FILE.json`), optionally finished by a
//!   guideline ([`cescope::guideline::guided`]), with its parameters checked once
//!   ([`Params::set_named`]); it runs pages exactly as `cescope extract --input` does
//!   ([`ExtractJob::run`]: decode, extract, render), one page or many on a rayon pool with the
//!   GIL released.
//! - `blocks_json`, `title_json`, `algorithms_json`: the JSON of `cescope blocks`, `cescope
//!   title` and `cescope algos --format json`, parsed on the Python side.
//!
//! **Inputs.** A `str` is Unicode already: it is written as UTF-8 and decoded with the
//! Content-Type `text/html; charset=utf-8`, as a JSONL page's `html` is
//! ([`cescope::batch::jsonl::JSONL_CONTENT_TYPE`]), so its `<meta charset>` does not re-decode
//! it (lone surrogates, which UTF-8 cannot hold, become U+FFFD). `bytes` / `bytearray` are raw
//! bytes: cescope's decoding order chooses the encoding (an `encoding=` override, BOM,
//! `<meta>` prescan, UTF-8, chardetng; [`cescope::page::decode`]). Inputs are copied into Rust
//! before the GIL is released.
//!
//! **Errors.** Every failure is a `cescope.CescopeError` (a `ValueError`) with cescope's
//! one-line message ([`cescope::error::report`]); a panic inside cescope (a bug: the library
//! is meant never to panic) is caught per page and reported the same way, never unwinding
//! into the interpreter.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyString};
use rayon::prelude::*;

use cescope::batch::jsonl::JSONL_CONTENT_TYPE;
use cescope::batch::{ExtractJob, InputRecord, MAX_RECORD_BYTES};
use cescope::extract::{ParamValue, Params};
use cescope::page::{DecodeOptions, Format, Page, RenderOptions};

create_exception!(
    cescope,
    CescopeError,
    PyValueError,
    "Any error cescope reports: bad input, an unknown algorithm, parameter, guideline or \
     format, an unreadable model file. The message is cescope's own (one line)."
);

/// A `CescopeError` with `message`.
fn err(message: impl Into<String>) -> PyErr {
    CescopeError::new_err(message.into())
}

/// A library error as a `CescopeError` with its whole chain on one line.
fn lib_err(e: &cescope::Error) -> PyErr {
    err(cescope::error::report(e))
}

/// One page as handed over from Python: its bytes (copied) and whether it came as `str`
/// (Unicode: decoded as UTF-8 whatever its `<meta>` says) or as raw bytes.
struct Input {
    raw: Vec<u8>,
    unicode: bool,
}

impl Input {
    /// `obj` as a page: `str`, `bytes` or `bytearray`. Errors: any other type (`None`
    /// included), or a page over [`MAX_RECORD_BYTES`] (1 GiB, the batch readers' limit).
    fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Input> {
        let input = if let Ok(s) = obj.cast::<PyString>() {
            // to_cow fails on lone surrogates (not encodable as UTF-8): replace them.
            let text = match s.to_cow() {
                Ok(t) => t.into_owned(),
                Err(_) => s.to_string_lossy().into_owned(),
            };
            Input {
                raw: text.into_bytes(),
                unicode: true,
            }
        } else if let Ok(b) = obj.cast::<PyBytes>() {
            Input {
                raw: b.as_bytes().to_vec(),
                unicode: false,
            }
        } else if let Ok(b) = obj.cast::<PyByteArray>() {
            Input {
                raw: b.to_vec(),
                unicode: false,
            }
        } else {
            let kind = obj
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "?".into());
            return Err(err(format!(
                "a page must be str (decoded HTML) or bytes (raw HTML), not {kind}"
            )));
        };
        if input.raw.len() as u64 > MAX_RECORD_BYTES {
            return Err(lib_err(&cescope::Error::TooLarge {
                path: "<input>".into(),
                size: input.raw.len() as u64,
                limit: MAX_RECORD_BYTES,
                after_decompression: false,
            }));
        }
        Ok(input)
    }

    /// The batch record of this page: id `id`, the page's `url`, and for a `str` the
    /// Content-Type that makes the decoder read it as UTF-8.
    fn into_record(self, id: String, url: Option<String>) -> InputRecord {
        InputRecord {
            id,
            url,
            content_type: self.unicode.then(|| JSONL_CONTENT_TYPE.to_string()),
            gold: None,
            body: Ok(self.raw),
        }
    }

    /// The decoded page named `<input>`. Errors: those of [`Page::from_bytes`] (a binary
    /// input, an unknown encoding override).
    fn into_page(self, decode: &DecodeOptions) -> Result<Page, String> {
        let mut opts = decode.clone();
        if self.unicode && opts.content_type.is_none() {
            opts.content_type = Some(JSONL_CONTENT_TYPE.to_string());
        }
        Page::from_bytes("<input>", self.raw, &opts).map_err(|e| cescope::error::report(&e))
    }
}

/// Decoding options from the Python arguments `encoding` (a WHATWG label overriding
/// detection) and `scripting` (the HTML scripting flag). Errors: an unknown label.
fn decode_options(encoding: Option<String>, scripting: bool) -> PyResult<DecodeOptions> {
    let opts = DecodeOptions {
        encoding_override: encoding,
        scripting,
        ..Default::default()
    };
    // The decoder checks the label on every page; check it once here (on an empty page), so
    // a bad label is one error up front, not one per page.
    if opts.encoding_override.is_some() {
        cescope::page::decode::decode(b"", &opts).map_err(|e| lib_err(&e))?;
    }
    Ok(opts)
}

// ---------------------------------------------------------------------------------------
// The output format: the ONE place `format=` is wired.
// ---------------------------------------------------------------------------------------

/// Parses `format=` with the library's parser ([`Format`]: `text`, `markdown` / `md`, `html`;
/// ASCII case-insensitive), the one `cescope extract --format` uses. The job stores it and
/// [`ExtractJob::run`] renders each page's `text` in that form: plain text as `cescope
/// extract`, GitHub-flavoured Markdown or clean HTML of the selected subtrees
/// (`cescope::page::structured`; links and images left out, as the CLI does without
/// `--links` / `--images`). Errors: `CescopeError` naming the known formats.
fn parse_format(name: &str) -> PyResult<Format> {
    name.parse::<Format>().map_err(|e| lib_err(&e))
}

/// A parameter value from Python: `bool`, `int`, `float` or `str` (parsed as `--set` parses
/// it). Errors: another type, an integer outside i64.
fn param_value(name: &str, v: &Bound<'_, PyAny>) -> PyResult<Result<ParamValue, String>> {
    if v.is_instance_of::<PyBool>() {
        return Ok(Ok(ParamValue::Bool(v.extract::<bool>()?)));
    }
    if v.is_instance_of::<PyInt>() {
        return Ok(match v.extract::<i64>() {
            Ok(i) => Ok(ParamValue::Int(i)),
            Err(_) => Err(format!("parameter error: {name}={v}: out of range")),
        });
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(Ok(ParamValue::Float(v.extract::<f64>()?)));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(Err(s.to_cow()?.into_owned()));
    }
    let kind = v
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    Err(err(format!(
        "parameter error: {name}: expected a bool, int, float or str, not {kind}"
    )))
}

/// The most worker threads `extract_many` starts (a pool's threads all start at once).
const MAX_THREADS: usize = 1024;

/// The rayon pool of `threads` workers (`None`: the global pool, one thread per core), built
/// once per size and kept.
fn pool(threads: Option<usize>) -> PyResult<Option<Arc<rayon::ThreadPool>>> {
    static POOLS: Mutex<Option<HashMap<usize, Arc<rayon::ThreadPool>>>> = Mutex::new(None);
    let Some(n) = threads else {
        return Ok(None);
    };
    if n == 0 || n > MAX_THREADS {
        return Err(err(format!(
            "threads must be 1 to {MAX_THREADS} (None: one per core), not {n}"
        )));
    }
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    let map = pools.get_or_insert_with(HashMap::new);
    if let Some(p) = map.get(&n) {
        return Ok(Some(Arc::clone(p)));
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("cescope-{i}"))
            .build()
            .map_err(|e| err(format!("cannot start {n} worker threads: {e}")))?,
    );
    map.insert(n, Arc::clone(&p));
    Ok(Some(p))
}

/// `f()` with panics caught: a panic becomes `Err` naming `what` (cescope is meant never to
/// panic; this keeps a bug from unwinding into the interpreter).
fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        Err(format!(
            "cescope panicked in {what} (a bug; please report it with the page)"
        ))
    })
}

/// An extractor ready to run: the algorithm looked up once, its guideline loaded, its
/// parameters checked and the output format checked, the decoding options fixed.
#[pyclass(frozen, module = "cescope._cescope")]
struct Job {
    job: ExtractJob,
}

impl Job {
    /// Runs one page (the batch path of `cescope extract --input`: decode, extract, render):
    /// its text, or the one-line reason it failed.
    fn run(&self, page: Input, id: String, url: Option<String>) -> Result<String, String> {
        guarded("extract", || {
            let out = self.job.run(page.into_record(id, url));
            match out.error {
                Some(e) => Err(e),
                None => Ok(out.text),
            }
        })
    }
}

#[pymethods]
impl Job {
    /// `algo`: an extractor name, `learned`, a set `FILE.toml` or a model `FILE.json`;
    /// `format`: `text`, `markdown` or `html`; `guideline`: a preset name or a TOML file; `encoding`: a WHATWG label
    /// overriding detection for bytes; `scripting`: the HTML scripting flag; `params`: the
    /// extractor's parameters by name. Errors: `CescopeError` for each of them.
    #[new]
    #[pyo3(signature = (algo, format, guideline, encoding, scripting, params))]
    fn new(
        algo: &str,
        format: &str,
        guideline: Option<&str>,
        encoding: Option<String>,
        scripting: bool,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Job> {
        let format = parse_format(format)?;
        let guideline = cescope::guideline::load_optional(guideline)
            .map_err(|e| err(cescope::error::report(&e)))?;
        let extractor = cescope::guideline::guided(
            cescope::extractors::find(algo).map_err(|e| lib_err(&e))?,
            guideline.as_ref(),
        );
        let specs = extractor.params();
        let mut values = Params::defaults(specs);
        if let Some(d) = params {
            for (k, v) in d.iter() {
                let name: String = k.extract()?;
                let set = match param_value(&name, &v)? {
                    Ok(value) => values.set_named(specs, &name, value),
                    Err(text) => values.set_str(specs, &format!("{name}={text}")),
                };
                set.map_err(|e| lib_err(&e))?;
            }
        }
        let decode = decode_options(encoding, scripting)?;
        Ok(Job {
            job: ExtractJob {
                extractor,
                params: values,
                headline: None,
                decode,
                format,
                render: RenderOptions::default(),
            },
        })
    }

    /// The extractor's name (`learned`, `danag`, a set's or model's name).
    #[getter]
    fn name(&self) -> String {
        self.job.extractor.name().to_string()
    }

    /// The parameter values in force, as JSON (`{name: value}`).
    fn params_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.job.params).map_err(|e| err(e.to_string()))
    }

    /// The main content of one page; the GIL is released while it runs. Errors:
    /// `CescopeError` (not a page, a binary input, a panic).
    #[pyo3(signature = (html, url=None))]
    fn extract(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<String>,
    ) -> PyResult<String> {
        let page = Input::from_py(html)?;
        py.detach(|| self.run(page, "<input>".into(), url))
            .map_err(err)
    }

    /// The main content of each page of `pages` (an iterable of str / bytes), in order, run on
    /// `threads` workers (`None`: one per core) with the GIL released. `errors`: `"raise"`
    /// (the first failing page's error, after all ran) or `"none"` (`None` in its place).
    #[pyo3(signature = (pages, threads=None, errors="raise"))]
    fn extract_many(
        &self,
        py: Python<'_>,
        pages: &Bound<'_, PyAny>,
        threads: Option<usize>,
        errors: &str,
    ) -> PyResult<Vec<Option<String>>> {
        let raise = match errors {
            "raise" => true,
            "none" => false,
            other => {
                return Err(err(format!(
                    "errors={other:?}: expected \"raise\" or \"none\""
                )))
            }
        };
        if pages.is_instance_of::<PyString>()
            || pages.is_instance_of::<PyBytes>()
            || pages.is_instance_of::<PyByteArray>()
        {
            return Err(err(
                "extract_many takes an iterable of pages (a list of str or bytes), not one page; \
                 use extract for one page",
            ));
        }
        let iter = pages
            .try_iter()
            .map_err(|_| err("pages must be an iterable of str or bytes"))?;
        let mut inputs = Vec::new();
        for (i, p) in iter.enumerate() {
            let p = p?;
            inputs.push(Input::from_py(&p).map_err(|e| err(format!("page {i}: {}", e.value(py))))?);
        }
        let pool = pool(threads)?;
        let results: Vec<Result<String, String>> = py.detach(|| {
            let work = || {
                inputs
                    .into_par_iter()
                    .enumerate()
                    .map(|(i, p)| self.run(p, format!("page {i}"), None))
                    .collect()
            };
            match &pool {
                Some(p) => p.install(work),
                None => work(),
            }
        });
        let mut out = Vec::with_capacity(results.len());
        for (i, r) in results.into_iter().enumerate() {
            match r {
                Ok(t) => out.push(Some(t)),
                Err(e) if raise => return Err(err(format!("page {i}: {e}"))),
                Err(_) => out.push(None),
            }
        }
        Ok(out)
    }
}

/// The JSON of `cescope blocks --format json` for one page: `{page, algos, blocks: [...]}`
/// with the verdicts of the extractors `algo` (a comma-separated list or `all`) and the
/// explanations of `why`. The GIL is released while it runs.
#[pyfunction]
#[pyo3(signature = (html, algo=None, why=None, encoding=None, scripting=false))]
fn blocks_json(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    algo: Option<&str>,
    why: Option<&str>,
    encoding: Option<String>,
    scripting: bool,
) -> PyResult<String> {
    let page = Input::from_py(html)?;
    let extractors = match algo {
        Some(spec) => cescope::extractors::resolve(spec).map_err(|e| lib_err(&e))?,
        None => Vec::new(),
    };
    let why = why
        .map(cescope::extractors::find)
        .transpose()
        .map_err(|e| lib_err(&e))?;
    let decode = decode_options(encoding, scripting)?;
    py.detach(|| {
        guarded("blocks", || {
            let page = page.into_page(&decode)?;
            let mut table = cescope::eval::blocks::BlockTable::with_extractors(&page, &extractors);
            table.set_units(&cescope::guideline::page_units(&page));
            if let Some(e) = &why {
                table.explain_with(&page, e.as_ref());
            }
            serde_json::to_string(&table.to_json()).map_err(|e| e.to_string())
        })
    })
    .map_err(err)
}

/// The JSON of `cescope title --format json`'s candidates for one page: the best `top`
/// headline candidates of the finder `method` (`[{score, range, text, node, ...}]`). The GIL
/// is released while it runs.
#[pyfunction]
#[pyo3(signature = (html, method="learned", top=1, encoding=None, scripting=false))]
fn title_json(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    method: &str,
    top: usize,
    encoding: Option<String>,
    scripting: bool,
) -> PyResult<String> {
    let page = Input::from_py(html)?;
    let finder = cescope::extractors::find_headline(method).map_err(|e| lib_err(&e))?;
    let params = Params::defaults(finder.params());
    let decode = decode_options(encoding, scripting)?;
    py.detach(|| {
        guarded("title", || {
            let page = page.into_page(&decode)?;
            let found = finder.run(&page, &params);
            let best = &found.candidates[..top.min(found.candidates.len())];
            serde_json::to_string(best).map_err(|e| e.to_string())
        })
    })
    .map_err(err)
}

/// The JSON of `cescope algos --format json`: every extractor and headline finder with its
/// parameters ([`cescope::extractors::catalogue`]).
#[pyfunction]
fn algorithms_json() -> PyResult<String> {
    serde_json::to_string(&cescope::extractors::catalogue()).map_err(|e| err(e.to_string()))
}

/// The native module `cescope._cescope`.
#[pymodule]
fn _cescope(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CescopeError", m.py().get_type::<CescopeError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Job>()?;
    m.add_function(wrap_pyfunction!(blocks_json, m)?)?;
    m.add_function(wrap_pyfunction!(title_json, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms_json, m)?)?;
    Ok(())
}
