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

import os
from typing import Mapping, Optional, Union

from datatrove.pipeline.extractors.base import BaseExtractor

from . import Extractor


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
    _requires_dependencies = []

    def __init__(
        self,
        algo: Union[str, "os.PathLike[str]"] = "learned",
        format: str = "text",
        guideline: Union[str, "os.PathLike[str]", None] = None,
        timeout: float = 1.0,
        *,
        scripting: bool = False,
        params: Optional[Mapping[str, Union[bool, int, float, str]]] = None,
        **kwargs: Union[bool, int, float, str],
    ) -> None:
        super().__init__(timeout)
        # Pickles as its settings (datatrove ships steps to worker processes).
        self.extractor = Extractor(algo, format, guideline, scripting=scripting, params=params, **kwargs)

    def extract(self, text: str) -> str:
        """cescope's main content of one document's HTML (``""`` when there is none)."""
        return self.extractor.extract(text)
