"""The site's icon: ``docs/conf.py`` names an SVG drawn for the site, which every page links."""

from __future__ import annotations

import ast
import xml.etree.ElementTree as ET

from . import ROOT

SVG = "{http://www.w3.org/2000/svg}"


def _conf_value(name: str) -> object:
    """The value ``docs/conf.py`` assigns to ``name`` (a literal), read without running it."""
    tree = ast.parse((ROOT / "docs" / "conf.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"docs/conf.py assigns no {name}")


def test_the_site_has_an_svg_icon_of_its_own() -> None:
    assert _conf_value("html_favicon") == "_static/favicon.svg"
    path = ROOT / "docs" / "_static" / "favicon.svg"
    svg = ET.parse(path).getroot()
    assert svg.tag == f"{SVG}svg"
    assert svg.get("viewBox") == "0 0 64 64"
    assert path.stat().st_size < 2048
    # nothing fetched from elsewhere: every reference is to the icon's own parts
    refs = [v for e in svg.iter() for k, v in e.attrib.items() if k.endswith("href")]
    assert refs and all(r.startswith("#") for r in refs)
