"""A malformed catalogue of ambiguities is refused with one line naming the entry and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_ref.ambiguities import AMBIGUITIES_FORMAT, load_ambiguities, read_ambiguities
from rules_ref.errors import InputError

HEAD = f'format = "{AMBIGUITIES_FORMAT}"\nversion = 1\n'
AMB = ('[[ambiguity]]\nid = "A-01"\ntitle = "t"\nquestion = "q"\nseed = ["P1"]\n'
       'quote = ""\ntranslations = "x"\nothers = "o"\nresolution = "r"\nrules = []\n')
DEC = ('[[decision]]\nid = "D-01"\ntitle = "t"\nsummary = "s"\nwhy = "w"\n'
       'settles = ["A-01"]\nrules = []\n')


def _read(tmp_path: Path, text: str) -> str:
    path = tmp_path / "amb.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_ambiguities(path)
    return str(caught.value).replace(str(path), "FILE")


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"amb\.toml: no such file$"):
        read_ambiguities(tmp_path / "amb.toml")


def test_not_toml(tmp_path: Path) -> None:
    assert _read(tmp_path, "format = [").startswith("FILE: not valid TOML: ")


def test_the_wrong_format(tmp_path: Path) -> None:
    assert _read(tmp_path, 'format = "x"\n') == (
        f"FILE: `format` must be {AMBIGUITIES_FORMAT!r}")


def test_entries_that_are_not_tables(tmp_path: Path) -> None:
    assert _read(tmp_path, HEAD + "ambiguity = [1]\n") == (
        "FILE: `ambiguity` must be an array of tables")


def test_a_text_that_is_not_a_string(tmp_path: Path) -> None:
    assert _read(tmp_path, HEAD + AMB.replace('title = "t"', "title = 3")) == (
        "FILE: ambiguity 'A-01': `title` must be a string")


def test_ids_that_are_not_a_list_of_strings(tmp_path: Path) -> None:
    assert _read(tmp_path, HEAD + DEC.replace('settles = ["A-01"]', "settles = [1]")) == (
        "FILE: decision 'D-01': `settles` must be a list of strings")


@pytest.mark.parametrize(("entry", "kind", "ident"), [(AMB, "ambiguity", "A-01"),
                                                      (DEC, "decision", "D-01")])
def test_an_id_used_twice(tmp_path: Path, entry: str, kind: str, ident: str) -> None:
    assert _read(tmp_path, HEAD + entry + entry) == (
        f"FILE: {kind} {ident!r}: the ID is used twice")


def test_a_small_catalogue_reads_in_file_order(tmp_path: Path) -> None:
    path = tmp_path / "amb.toml"
    path.write_text(HEAD + AMB + DEC, encoding="utf-8")
    catalogue = read_ambiguities(path)
    assert catalogue.ambiguity("A-01").seed == ("P1",)
    assert catalogue.decision("D-01").settles == ("A-01",)


@pytest.mark.parametrize("ident", ["A-99", "D-99"])
def test_an_unknown_id_is_a_key_error(ident: str) -> None:
    catalogue = load_ambiguities()
    find = catalogue.ambiguity if ident.startswith("A") else catalogue.decision
    with pytest.raises(KeyError, match=ident):
        find(ident)
