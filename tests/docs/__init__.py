"""Tests of the rules site's Sphinx extension, ``docs/_ext/chdocs``.

The extension is not an installed package: :func:`chdocs` imports its
modules from ``docs/_ext``, as ``docs/conf.py`` does.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
EXT_DIR = ROOT / "docs" / "_ext"


def chdocs(module: str) -> ModuleType:
    """The module ``chdocs.<module>`` of ``docs/_ext``."""
    if str(EXT_DIR) not in sys.path:
        sys.path.insert(0, str(EXT_DIR))
    return importlib.import_module(f"chdocs.{module}")
