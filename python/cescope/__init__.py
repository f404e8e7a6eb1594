"""cescope: main content extraction (MCE) from web pages, from Python.

The extractors of the cescope library (Rust), called in-process: the shipped learned model
(``"learned"``, the default), the published algorithms (``"danag"``, ``"bte"``, ``"cetd"``,
...; see :func:`algorithms`), filter-set files (``FILE.toml``) and model files of
``cescope train`` (``FILE.json``), optionally finished by a guideline.

>>> import cescope
>>> text = cescope.extract(open("page.html", "rb").read())           # doctest: +SKIP
>>> texts = cescope.extract_many(pages, threads=4)                    # doctest: +SKIP

Pages are ``str`` (already decoded: read as Unicode whatever its ``<meta charset>`` says) or
``bytes`` (raw: cescope chooses the encoding as the ``cescope`` binary does — an
``encoding=`` override, byte order mark, ``<meta>`` prescan, valid UTF-8, chardetng).

Every error is a :class:`CescopeError` (a ``ValueError``) with cescope's message. The work
runs with the GIL released; :func:`extract_many` runs pages on all cores.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterable, List, Literal, Mapping, Optional, Union, overload

from . import _cescope
from ._cescope import CescopeError, __version__

__all__ = [
    "CescopeError",
    "Extractor",
    "algorithms",
    "blocks",
    "extract",
    "extract_many",
    "title",
    "__version__",
]

Page = Union[str, bytes, bytearray]
"""One page: ``str`` (decoded HTML) or ``bytes`` / ``bytearray`` (raw HTML bytes)."""

ParamValue = Union[bool, int, float, str]
"""An extractor parameter's value (a ``str`` is parsed as ``--set NAME=VALUE`` parses it)."""

Format = Literal["text", "markdown", "html"]
"""Output formats: plain text, GitHub-flavoured Markdown, clean HTML (``cescope extract
--format``)."""

PathOrName = Union[str, "os.PathLike[str]"]
"""A registered name or a file path (a model, set, guideline or headline model file)."""


def _name(value: Any, what: str) -> Optional[str]:
    """``value`` as a name or path string (``os.PathLike`` allowed), ``None`` kept."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        return os.fspath(value)  # type: ignore[return-value]
    raise CescopeError(f"{what} must be a str or a path, not {type(value).__name__}")


def _required_name(value: Any, what: str) -> str:
    """``value`` as a name or path string; ``None`` is an error."""
    name = _name(value, what)
    if name is None:
        raise CescopeError(f"{what} must be a str or a path, not None")
    return name


def _merge_params(params: Any, kwargs: dict) -> dict:
    """The ``params`` mapping and the keyword parameters as one dict; a name given twice is
    an error."""
    if params is None:
        merged = {}
    elif isinstance(params, Mapping):
        merged = dict(params)
    else:
        raise CescopeError(f"params must be a dict, not {type(params).__name__}")
    for k in merged:
        if not isinstance(k, str):
            raise CescopeError(f"parameter error: a parameter name must be a str, not {type(k).__name__}")
    for k, v in kwargs.items():
        if k in merged:
            raise CescopeError(f"parameter error: {k} is given twice (in params and as a keyword)")
        merged[k] = v
    return merged


def _encoding(encoding: Any) -> Optional[str]:
    if encoding is not None and not isinstance(encoding, str):
        raise CescopeError(f"encoding must be a str (a WHATWG label), not {type(encoding).__name__}")
    return encoding


class Extractor:
    """An extractor set up once and run on many pages.

    ``algo``: a registered extractor (``"learned"``, ``"danag"``, ... — :func:`algorithms`),
    a filter-set file ``FILE.toml`` or a model file ``FILE.json`` of ``cescope train`` (a
    path, read once here). ``format``: ``"text"`` (the main content as plain text, one line
    per block, as ``cescope extract`` prints it), ``"markdown"`` (GitHub-flavoured Markdown
    of the selected subtrees: headings, lists, tables, fenced code with its language) or
    ``"html"`` (the selected subtrees as clean HTML), as ``cescope extract --format``.
    ``guideline``: a preset name or a guideline TOML file (``cescope guideline list``) that
    adds or removes whole units (headline, captions, comments, ...). ``encoding``: a WHATWG label (``"windows-1256"``) that overrides detection
    for ``bytes`` pages. ``scripting``: read ``<noscript>`` as a browser with JavaScript does.
    ``**params``: the extractor's parameters by name (``cescope algos``), e.g. ``gap=12``;
    bools, ints, floats, or strings parsed as ``--set NAME=VALUE``. ``params``: the same as
    a dict, for names that are not Python identifiers (a filter set's ``"1.t"``) or that
    are taken by the arguments above (CETD's own ``scripting`` parameter:
    ``params={"scripting": True}``).

    Raises :class:`CescopeError` for an unknown algorithm, format, guideline, encoding label or
    parameter, a value of the wrong kind or out of range, an unreadable model or set file.

    An ``Extractor`` pickles as its settings (a model or set file is read again where it is
    unpickled), so it can be shipped to Spark executors or ``multiprocessing`` workers.
    """

    __slots__ = ("_settings", "_job")

    def __init__(
        self,
        algo: PathOrName = "learned",
        format: Format = "text",
        guideline: Optional[PathOrName] = None,
        *,
        encoding: Optional[str] = None,
        scripting: bool = False,
        params: Optional[Mapping[str, ParamValue]] = None,
        **kwargs: ParamValue,
    ) -> None:
        algo_s = _required_name(algo, "algo")
        if not isinstance(format, str):
            raise CescopeError(f"format must be a str, not {type(format).__name__}")
        self._settings: Dict[str, Any] = {
            "algo": algo_s,
            "format": format,
            "guideline": _name(guideline, "guideline"),
            "encoding": _encoding(encoding),
            "scripting": bool(scripting),
            "params": _merge_params(params, kwargs),
        }
        self._job = self._build(self._settings)

    @staticmethod
    def _build(s: dict) -> "_cescope.Job":
        return _cescope.Job(
            s["algo"], s["format"], s["guideline"], s["encoding"], s["scripting"], s["params"]
        )

    def __getstate__(self) -> dict:
        return dict(self._settings)

    def __setstate__(self, state: dict) -> None:
        self._settings = dict(state)
        self._job = self._build(self._settings)

    def __repr__(self) -> str:
        s = self._settings
        extra = "".join(f", {k}={v!r}" for k, v in s["params"].items())
        if s["guideline"] is not None:
            extra += f", guideline={s['guideline']!r}"
        return f"cescope.Extractor({s['algo']!r}, format={s['format']!r}{extra})"

    @property
    def name(self) -> str:
        """The extractor's name (``"learned"``, ``"danag"``, a set's or model's name)."""
        return self._job.name

    @property
    def params(self) -> dict:
        """Every parameter's value in force (published defaults with yours applied)."""
        return json.loads(self._job.params_json())

    def extract(self, html: Page, url: Optional[str] = None) -> str:
        """The main content of one page as text (``""`` when the page has none).

        ``url``: where the page came from (passed with the page as ``cescope extract --input``
        passes a record's URL; the output does not depend on it). Raises :class:`CescopeError` when ``html`` is not
        ``str`` / ``bytes``, looks binary (an image, an archive), or is over 1 GiB.
        """
        if url is not None and not isinstance(url, str):
            raise CescopeError(f"url must be a str, not {type(url).__name__}")
        return self._job.extract(html, url)

    @overload
    def extract_many(
        self, pages: Iterable[Page], threads: Optional[int] = None, errors: Literal["raise"] = "raise"
    ) -> List[str]: ...
    @overload
    def extract_many(
        self, pages: Iterable[Page], threads: Optional[int] = None, *, errors: Literal["none"]
    ) -> List[Optional[str]]: ...
    def extract_many(
        self,
        pages: Iterable[Page],
        threads: Optional[int] = None,
        errors: str = "raise",
    ) -> List[Any]:
        """The main content of every page, in input order, on ``threads`` worker threads
        (``None``: one per core; at most 1024) with the GIL released.

        All pages are copied into cescope before the work starts (pass chunks of a long
        stream). ``errors="raise"``: a page that fails (not ``str`` / ``bytes``, binary,
        too large) raises :class:`CescopeError` naming its index, after all pages ran;
        ``errors="none"``: its result is ``None`` and the others are returned.
        """
        return self._extract_many(pages, threads, errors)

    def _extract_many(
        self, pages: Iterable[Page], threads: Optional[int], errors: str
    ) -> List[Any]:
        """:meth:`extract_many` for an ``errors`` known only at run time (the module-level
        :func:`extract_many`'s)."""
        if threads is not None and (
            not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= 1024
        ):
            raise CescopeError(f"threads must be 1 to 1024 (None: one per core), not {threads!r}")
        if not isinstance(errors, str):
            raise CescopeError(f'errors={errors!r}: expected "raise" or "none"')
        return self._job.extract_many(pages, threads, errors)


def extract(
    html: Page,
    algo: PathOrName = "learned",
    format: Format = "text",
    url: Optional[str] = None,
    guideline: Optional[PathOrName] = None,
    *,
    encoding: Optional[str] = None,
    scripting: bool = False,
    params: Optional[Mapping[str, ParamValue]] = None,
    **kwargs: ParamValue,
) -> str:
    """The main content of one page (``str`` or ``bytes``) as text.

    The same text as ``cescope extract`` (and ``cescope extract --input``'s ``text`` field):
    the extracted blocks, white space normalised, one line per block, character references
    decoded; ``""`` when the extractor keeps nothing. The arguments are those of
    :class:`Extractor`; for many pages build an :class:`Extractor` once or call
    :func:`extract_many`. Raises :class:`CescopeError`.
    """
    return Extractor(
        algo, format, guideline, encoding=encoding, scripting=scripting, params=params, **kwargs
    ).extract(html, url)


@overload
def extract_many(
    pages: Iterable[Page],
    algo: PathOrName = "learned",
    format: Format = "text",
    guideline: Optional[PathOrName] = None,
    threads: Optional[int] = None,
    errors: Literal["raise"] = "raise",
    *,
    encoding: Optional[str] = None,
    scripting: bool = False,
    params: Optional[Mapping[str, ParamValue]] = None,
    **kwargs: ParamValue,
) -> List[str]: ...
@overload
def extract_many(
    pages: Iterable[Page],
    algo: PathOrName = "learned",
    format: Format = "text",
    guideline: Optional[PathOrName] = None,
    threads: Optional[int] = None,
    *,
    errors: Literal["none"],
    encoding: Optional[str] = None,
    scripting: bool = False,
    params: Optional[Mapping[str, ParamValue]] = None,
    **kwargs: ParamValue,
) -> List[Optional[str]]: ...
def extract_many(
    pages: Iterable[Page],
    algo: PathOrName = "learned",
    format: Format = "text",
    guideline: Optional[PathOrName] = None,
    threads: Optional[int] = None,
    errors: str = "raise",
    *,
    encoding: Optional[str] = None,
    scripting: bool = False,
    params: Optional[Mapping[str, ParamValue]] = None,
    **kwargs: ParamValue,
) -> List[Any]:
    """The main content of every page, in input order, on ``threads`` worker threads
    (``None``: one per core), the GIL released. See :meth:`Extractor.extract_many`.
    """
    return Extractor(
        algo, format, guideline, encoding=encoding, scripting=scripting, params=params, **kwargs
    )._extract_many(pages, threads, errors)


def blocks(
    html: Page,
    algo: Optional[str] = None,
    why: Optional[str] = None,
    *,
    encoding: Optional[str] = None,
    scripting: bool = False,
) -> List[dict]:
    """The page's atomic text blocks (Kohlschütter et al. 2010), the rows of ``cescope blocks
    --format json``, in document order.

    Each row: ``index`` (from 0) and ``number`` (the ``#`` shown everywhere, from 1);
    ``path``, ``tag``, ``id``, ``class`` (DOM); ``start`` / ``end`` (byte offsets into the
    decoded UTF-8 text); ``features`` (``words``, ``link_density``, ``text_density``,
    ``avg_word_length`` in chars, ...); ``heading``, ``within``, ``relative_position``,
    ``visibility``; ``record`` (``None`` or ``{group, record, records, signature}``);
    ``units`` (unit kinds, primary first: ``"headline"``, ``"byline"``, ...); ``verdicts``
    (``{algo: fraction of the block's text bytes it selects, 0..1}`` for each extractor of
    ``algo``, a comma-separated list or ``"all"``); ``text``; with ``why`` (an extractor
    name), ``why``: that extractor's explanation of the block.
    """
    return json.loads(
        _cescope.blocks_json(
            html, _name(algo, "algo"), _name(why, "why"), _encoding(encoding), bool(scripting)
        )
    )["blocks"]


@overload
def title(
    html: Page,
    method: str = "learned",
    *,
    top: None = None,
    encoding: Optional[str] = None,
    scripting: bool = False,
) -> Optional[str]: ...
@overload
def title(
    html: Page,
    method: str = "learned",
    *,
    top: int,
    encoding: Optional[str] = None,
    scripting: bool = False,
) -> List[dict]: ...
def title(
    html: Page,
    method: str = "learned",
    *,
    top: Optional[int] = None,
    encoding: Optional[str] = None,
    scripting: bool = False,
) -> Any:
    """The page's headline as ``cescope title`` finds it: the best candidate's text, or
    ``None`` when the finder finds none.

    ``method``: ``"learned"`` (the shipped ranker, the default), ``"tf"`` (TitleFinder,
    Mohammadzadeh 2013), ``"tfidf"``, ``"osm"``, ``"aggregate"``, ``"title"``,
    ``"largest"``, or a headline model ``FILE.json``. With ``top=N``: a list of up to N
    candidates, best first, each ``{"score", "range": {"start", "end"} (bytes of the decoded
    text), "text", ...}``.
    """
    method_s = _required_name(method, "method")
    n = 1 if top is None else top
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise CescopeError(f"top must be a non-negative int, not {top!r}")
    found = json.loads(
        _cescope.title_json(
            html, method_s, min(n, 2**32), _encoding(encoding), bool(scripting)
        )
    )
    if top is not None:
        return found
    return found[0]["text"] if found else None


def algorithms() -> List[dict]:
    """Every extractor and headline finder (``cescope algos --format json``): a list of
    ``{"name", "description", "params": [{"name", "kind", "default", "help", "source",
    ...}], "kind"?}``; ``kind`` is absent for the registered extractors, ``"learned"`` for
    the shipped model, ``"headline"`` / ``"learned headline"`` for headline finders.
    """
    return json.loads(_cescope.algorithms_json())
