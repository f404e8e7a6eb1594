import os
from typing import Mapping, Optional, Union

from datatrove.pipeline.extractors.base import BaseExtractor

from . import Extractor

class CescopeExtractor(BaseExtractor):
    """A datatrove extractor (WarcReader -> CescopeExtractor -> writer) running cescope."""

    extractor: Extractor
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
    ) -> None: ...
    def extract(self, text: str) -> str: ...
