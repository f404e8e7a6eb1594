"""cescope as a datatrove extractor: ``WarcReader → CescopeExtractor → writer``.

>>> from datatrove.executor import LocalPipelineExecutor                  # doctest: +SKIP
>>> from datatrove.pipeline.readers import WarcReader
>>> from datatrove.pipeline.writers import JsonlWriter
>>> from cescope.datatrove import CescopeExtractor
>>> LocalPipelineExecutor(pipeline=[
...     WarcReader("crawl/"), CescopeExtractor(), JsonlWriter("out/")], tasks=4).run()

A drop-in for datatrove's ``Trafilatura`` step (FineWeb's extractor): each document's
``text`` (the HTML as the reader decoded it) is replaced by cescope's main content; documents
with no main content are dropped, and pages that fail are skipped and counted, as datatrove's
``BaseExtractor`` does for every extractor (statistics ``extracted``, ``dropped``,
``clean_error``, ``timeout``).

Needs the ``datatrove`` package (``pip install datatrove``, or ``pip install
./python[datatrove]``); ``import cescope`` alone does not import it.
"""

from __future__ import annotations

from typing import List, Mapping, Optional

from datatrove.pipeline.extractors.base import BaseExtractor

from . import Extractor, Format, ParamValue, PathOrName


class CescopeExtractor(BaseExtractor):
    """A datatrove extractor running a cescope extractor on each document.

    ``algo``, ``format``, ``guideline``, ``scripting``, ``params`` and ``**kwargs``: as
    :class:`cescope.Extractor` (default: the shipped ``learned`` model, plain text), checked
    here, when the pipeline is built: a wrong name or value raises
    :class:`cescope.CescopeError` before any document is read. ``timeout``: seconds per
    document in datatrove's extraction sandbox (a subprocess, as for every datatrove
    extractor); a page that takes longer is skipped and counted as ``timeout``.
    """

    name = "🔬 cescope"
    _requires_dependencies: List[str] = []

    def __init__(
        self,
        algo: PathOrName = "learned",
        format: Format = "text",
        guideline: Optional[PathOrName] = None,
        timeout: float = 1.0,
        *,
        scripting: bool = False,
        params: Optional[Mapping[str, ParamValue]] = None,
        **kwargs: ParamValue,
    ) -> None:
        super().__init__(timeout)
        # Pickles as its settings (datatrove ships steps to worker processes).
        # (mypy cannot tell that **kwargs holds no `encoding`: a keyword of that name is
        # Extractor's `encoding` here, as it would be on Extractor itself.)
        self.extractor: Extractor = Extractor(
            algo, format, guideline, scripting=scripting, params=params, **kwargs  # type: ignore[arg-type]
        )

    def extract(self, text: str) -> str:
        """cescope's main content of one document's HTML (``""`` when there is none)."""
        return self.extractor.extract(text)
