"""Type stubs of the cescope package (the implementation: __init__.py over the native
module _cescope). Units: byte offsets are into the page's decoded UTF-8 text; fractions are
0..1; counts are words, blocks, pages."""

import os
from typing import Iterable, List, Literal, Mapping, Optional, Union, overload

__version__: str

Page = Union[str, bytes, bytearray]
"""One page: str (decoded HTML, read as Unicode) or bytes / bytearray (raw HTML bytes,
decoded by cescope: encoding override, BOM, <meta> prescan, UTF-8, chardetng)."""

ParamValue = Union[bool, int, float, str]
"""An extractor parameter's value (a str is parsed as `--set NAME=VALUE` parses it)."""

Format = Literal["text", "markdown", "html"]
"""Output formats: plain text, GitHub-flavoured Markdown, clean HTML (`cescope extract --format`)."""

class CescopeError(ValueError):
    """Every error cescope reports, with cescope's one-line message."""

class Extractor:
    """An extractor set up once (algorithm found, model read, guideline loaded, parameters
    checked) and run on many pages. Pickles as its settings."""

    def __init__(
        self,
        algo: Union[str, "os.PathLike[str]"] = "learned",
        format: Format = "text",
        guideline: Union[str, "os.PathLike[str]", None] = None,
        *,
        encoding: Optional[str] = None,
        scripting: bool = False,
        params: Optional[Mapping[str, ParamValue]] = None,
        **kwargs: ParamValue,
    ) -> None: ...
    @property
    def name(self) -> str:
        """The extractor's name."""
    @property
    def params(self) -> dict[str, ParamValue]:
        """Every parameter's value in force."""
    def extract(self, html: Page, url: Optional[str] = None) -> str:
        """The main content of one page as text, one line per block; "" when none."""
    @overload
    def extract_many(
        self, pages: Iterable[Page], threads: Optional[int] = None, errors: Literal["raise"] = "raise"
    ) -> List[str]: ...
    @overload
    def extract_many(
        self, pages: Iterable[Page], threads: Optional[int] = None, *, errors: Literal["none"]
    ) -> List[Optional[str]]: ...

def extract(
    html: Page,
    algo: Union[str, "os.PathLike[str]"] = "learned",
    format: Format = "text",
    url: Optional[str] = None,
    guideline: Union[str, "os.PathLike[str]", None] = None,
    *,
    encoding: Optional[str] = None,
    scripting: bool = False,
    params: Optional[Mapping[str, ParamValue]] = None,
    **kwargs: ParamValue,
) -> str:
    """The main content of one page as text (the text `cescope extract` prints)."""

@overload
def extract_many(
    pages: Iterable[Page],
    algo: Union[str, "os.PathLike[str]"] = "learned",
    format: Format = "text",
    guideline: Union[str, "os.PathLike[str]", None] = None,
    threads: Optional[int] = None,
    errors: Literal["raise"] = "raise",
    *,
    encoding: Optional[str] = None,
    scripting: bool = False,
    params: Optional[Mapping[str, ParamValue]] = None,
    **kwargs: ParamValue,
) -> List[str]:
    """The main content of every page, in order, on `threads` threads (None: all cores)."""
@overload
def extract_many(
    pages: Iterable[Page],
    algo: Union[str, "os.PathLike[str]"] = "learned",
    format: Format = "text",
    guideline: Union[str, "os.PathLike[str]", None] = None,
    threads: Optional[int] = None,
    *,
    errors: Literal["none"],
    encoding: Optional[str] = None,
    scripting: bool = False,
    params: Optional[Mapping[str, ParamValue]] = None,
    **kwargs: ParamValue,
) -> List[Optional[str]]: ...

def blocks(
    html: Page,
    algo: Optional[str] = None,
    why: Optional[str] = None,
    *,
    encoding: Optional[str] = None,
    scripting: bool = False,
) -> List[dict]:
    """The page's atomic text blocks, the rows of `cescope blocks --format json`: index,
    number, path, tag, id, class, start / end (bytes), features (words, link_density,
    text_density, ...), heading, within, relative_position, visibility, record, units,
    verdicts ({algo: fraction 0..1}), text, why."""

@overload
def title(
    html: Page, method: str = "learned", *, top: None = None, encoding: Optional[str] = None, scripting: bool = False
) -> Optional[str]:
    """The page's headline (the best candidate's text), None when there is none."""
@overload
def title(
    html: Page, method: str = "learned", *, top: int, encoding: Optional[str] = None, scripting: bool = False
) -> List[dict]:
    """Up to `top` headline candidates, best first: {score, range: {start, end} (bytes),
    text, node}."""

def algorithms() -> List[dict]:
    """Every extractor and headline finder: {name, description, params: [...], kind?}."""
