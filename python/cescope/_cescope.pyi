"""The native module (PyO3); use the functions of `cescope` instead."""

from typing import Iterable, List, Mapping, Optional, Union

__version__: str

class CescopeError(ValueError): ...

class Job:
    def __init__(
        self,
        algo: str,
        format: str,
        guideline: Optional[str],
        encoding: Optional[str],
        scripting: bool,
        params: Optional[Mapping[str, Union[bool, int, float, str]]],
    ) -> None: ...
    @property
    def name(self) -> str: ...
    def params_json(self) -> str: ...
    def extract(self, html: Union[str, bytes, bytearray], url: Optional[str] = None) -> str: ...
    def extract_many(
        self, pages: Iterable[Union[str, bytes, bytearray]], threads: Optional[int] = None, errors: str = "raise"
    ) -> List[Optional[str]]: ...

def blocks_json(
    html: Union[str, bytes, bytearray],
    algo: Optional[str] = None,
    why: Optional[str] = None,
    encoding: Optional[str] = None,
    scripting: bool = False,
) -> str: ...
def title_json(
    html: Union[str, bytes, bytearray],
    method: str = "learned",
    top: int = 1,
    encoding: Optional[str] = None,
    scripting: bool = False,
) -> str: ...
def algorithms_json() -> str: ...
