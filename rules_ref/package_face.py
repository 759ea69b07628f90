"""A package's face whose public names are loaded from their modules on first use.

A package whose modules need an optional dependency (Hypothesis) beside
modules that do not lists each public name with the module that defines it
and reads them through :func:`names_on_first_use`, so that importing one
module of the package loads only what that module needs.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def names_on_first_use(package: str, owners: Mapping[str, str]) -> Callable[[str], object]:
    """The module ``__getattr__`` of ``package``: each name of ``owners`` from its module.

    ``owners`` maps each public name to the module of the package that
    defines it; a name is imported the first time it is read, then kept in
    the package. Any other name raises :class:`AttributeError`.
    """

    def __getattr__(name: str) -> object:
        module = owners.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
