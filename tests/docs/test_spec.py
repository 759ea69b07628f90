"""The site reads the spec as the engine does: the registry's rules and ``spec/sources.toml``."""

from __future__ import annotations

import re
import tomllib

from rules_ref import registry

from . import EXT_DIR, ROOT, chdocs

spec_module = chdocs("spec")


def test_the_site_shows_the_registrys_own_rules() -> None:
    spec = spec_module.load_spec(ROOT / "spec")
    assert spec.rules == registry.load().rules
    assert spec.groups == registry.load().groups
    assert all(type(r) is registry.Rule for r in spec.rules)


def test_the_extension_keeps_no_rule_model_or_toml_reader_of_its_own() -> None:
    """One reader of the spec's rules: the extension's modules define no Rule and parse no TOML."""
    sources = {p.name: p.read_text(encoding="utf-8") for p in (EXT_DIR / "chdocs").glob("*.py")}
    assert [n for n, text in sources.items() if re.search(r"^import tomllib|^class (Rule|Group|"
                                                          r"SourceKey)\b", text, re.M)] == []


def test_the_site_lists_every_source_of_sources_toml_and_no_other() -> None:
    spec = spec_module.load_spec(ROOT / "spec")
    published = [k for k in registry.source_keys() if k.kind == "source"]
    assert spec.sources == tuple(published)
    assert "PAGAT" in [k.key for k in spec.sources]
    assert spec.seed_languages == {k.key: k.title for k in registry.source_keys()
                                   if k.kind == "seed file"}
    assert len(spec.seed_languages) == 4


def test_no_other_file_keeps_a_list_of_the_source_keys() -> None:
    """A source's key beside its address, in a table row or a list item of the spec's, the
    README's or the docs' pages: only sources.toml keeps them.

    (spec/README.md kept such a table, and it had drifted: PAGAT was missing.)
    """
    keys = [k for k in registry.source_keys() if k.kind == "source" and k.url]
    listed = []
    written = [*(ROOT / "spec").rglob("*.md"), ROOT / "README.md",
               *(p for p in (ROOT / "docs").rglob("*") if p.suffix in (".md", ".rst")
                 and "_build" not in p.parts)]
    assert len(written) > 20
    for path in sorted(written):
        text = path.read_text(encoding="utf-8")
        listed += [(str(path.relative_to(ROOT)), k.key) for k in keys
                   if re.search(rf"^\s*[|*-].*\b{re.escape(k.key)}\b.*{re.escape(k.url)}", text,
                                re.M)]
    assert listed == []


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_the_prose_of_the_spec_names_its_tables_in_words() -> None:
    """A rule's text or a preset's note, printed by ``rules-ref rules`` and on the site, says
    "“Not supported” in spec/variants.toml", the name of the variants page's section, and never
    the TOML of the file (``[[unsupported]]``)."""
    prose = [s for name in ("rules.toml", "variants.toml", "ambiguities.toml")
             for s in _strings(tomllib.loads((ROOT / "spec" / name).read_text(encoding="utf-8")))]
    assert [s[:80] for s in prose if "[[" in s] == []
    assert sum("under “Not supported” in spec/variants.toml" in s for s in prose) == 8


def test_the_switch_matrix_shows_a_value_only_where_a_preset_changes_the_default() -> None:
    """Every cell of every preset: bold where the preset's ruleset differs from the default,
    "·" where it plays the default, named in its preset or not (toycrossing names
    first_trick_points = "allowed", the default)."""
    from rules_ref.ruleset import DEFAULT, preset

    variants = chdocs("variants")
    spec = spec_module.load_spec(ROOT / "spec")
    default = DEFAULT.to_dict()
    marked = {}
    for sw in spec.switches:
        for p in spec.presets:
            cell = variants._matrix_cell(sw, p)
            marked[p.name, sw.name] = "ch-set" in cell["classes"]
            assert marked[p.name, sw.name] == (preset(p.name).to_dict()[sw.name]
                                               != default[sw.name]), (p.name, sw.name)
            assert (cell.astext() == "·") == (not marked[p.name, sw.name])
    assert marked["toycrossing", "first_trick_points"] is False
    assert 0 < sum(marked.values()) < len(marked)
