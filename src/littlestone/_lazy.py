"""Packages whose public names are imported on first use (PEP 562): a package's ``__init__`` names where each export
lives, and importing the package — which every import of one of its modules does first — runs none of them. So a
program that needs one class or one mechanism loads that module and what it imports, not the whole package."""

from __future__ import annotations

import importlib
from typing import Any, Callable


def lazy_exports(
    package: str, exports: dict[str, tuple[str, ...]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """``(__getattr__, __dir__, __all__)`` for ``package``, given ``{".module": (name, ...)}``: a name is imported
    from its module when first read (then kept in the package's namespace); any other attribute is tried as a
    sub-module (``package.name``), else AttributeError.

    A name that is also the name of its module (``privacy.stable_histogram``, the function, in the module
    ``privacy/stable_histogram.py``) is imported at once: importing a sub-module binds the package attribute to the
    module, which would then shadow the function for good."""
    where = {name: module for module, names in exports.items() for name in names}
    namespace = importlib.import_module(package).__dict__
    for name, module in where.items():
        if module == f".{name}":
            namespace[name] = getattr(importlib.import_module(module, package), name)

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module, package), name)
            namespace[name] = value
            return value
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{package}.{name}":
                raise
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(where))

    return __getattr__, __dir__, list(where)
