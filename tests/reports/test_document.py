"""``rules-ref conform --report FILE``: the run as a Markdown or HTML file to read and share.

The report of a failing run against a broken adapter must name the
difference, draw its minimal example the way ``rules-ref show`` draws a
game, quote the rule's text from ``spec/rules.toml`` and give the command
that replays it; the HTML page must be well formed and link nothing outside
itself. A merge of summaries writes the same kind of report.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rules_ref.cli import main
from rules_ref.registry import rule
from rules_ref.reports.markup import Block, Code, Para, Pre, Table, html_page, markdown

from ..fakes.broken_adapters import command

#: A budget of games, not of time: what the search finds does not depend on the machine; the
#: run ends with the game of its first divergence, the class the report shows.
SEARCH = ["--examples", "60", "--seed", "11", "--max-seconds", "600", "--shrink-seconds", "0.25",
          "--first"]


def _failing_run(tmp_path: Path, report: str, capsys: pytest.CaptureFixture[str]
                 ) -> tuple[str, dict[str, object]]:
    code = main(["conform", "--json", *SEARCH, "--out", str(tmp_path / "out"), "--report",
                 str(tmp_path / report), "--", *command("cancel-ignored")])
    out, err = capsys.readouterr()
    assert code == 1, err
    return (tmp_path / report).read_text(encoding="utf-8"), json.loads(out)


@pytest.mark.rule("TRICK.CANCEL")
def test_markdown_report_of_a_failing_run(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    markdown_text, summary = _failing_run(tmp_path, "run.md", capsys)
    text = re.sub(r"\\([\\`*_\[\]<>|#])", r"\1", markdown_text)  # Markdown's escapes undone
    assert text.startswith("# Conformance report: broken adapter cancel-ignored")
    assert "Verdict: DISAGREEMENT" in text and "(exit status 1)" in text
    classes = summary.get("classes")
    key = classes[0]["key"] if isinstance(classes, list) and classes else \
        f"TRICK.CANCEL: {summary['failure']['summary']}"  # type: ignore[index]
    assert f"### 1. {key}" in text
    # The rule's own text, from spec/rules.toml.
    statement = " ".join(rule("TRICK.CANCEL").statement.split())
    assert "### TRICK.CANCEL: Identical cards cancel" in text
    assert statement in text
    # The replay command of the class, with the adapter's command line.
    replay = str(summary["replay"])
    assert (f"rules-ref conform --replay {replay} -- "
            f"{' '.join(command('cancel-ignored'))}") in text
    assert Path(replay).is_file()
    # The example drawn as `rules-ref show` draws a trick: a cancelled pair, a winner.
    assert re.search(r"card:.*\[[0-9JQKA]+[♣♦♥♠]\].*\[[0-9JQKA]+[♣♦♥♠]\]", text)
    assert "(TRICK.CANCEL)" in text and "(TRICK.WINNER)" in text
    # The command line that plays the run again.
    assert "rules-ref conform --seed 11 --examples 60 --max-seconds 600 -- " in text


class _Checker(HTMLParser):
    """Every element closed in order; every link and source inside the page."""

    VOID = frozenset({"meta", "br", "hr", "img", "link", "input"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.problems: list[str] = []
        self.text: list[str] = []
        self.ids: set[str] = set()
        self.links: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if name == "href" and value:
                self.links.add(value.removeprefix("#"))
            if name in ("href", "src", "action") and not (value or "").startswith("#"):
                self.problems.append(f"<{tag} {name}={value!r}> leaves the page")
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
        else:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _check_html(page: str) -> _Checker:
    checker = _Checker()
    checker.feed(page)
    checker.close()
    assert checker.problems == []
    assert checker.open == []
    assert checker.links <= checker.ids  # every link goes to a part of the page
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", page, re.IGNORECASE)
    assert "@import" not in page and "url(" not in page
    return checker


@pytest.mark.rule("TRICK.CANCEL")
def test_html_report_is_well_formed_and_self_contained(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    page, summary = _failing_run(tmp_path, "run.html", capsys)
    checker = _check_html(page)
    assert "class-1" in checker.links
    text = "".join(checker.text)
    assert "Verdict: DISAGREEMENT" in text
    assert " ".join(rule("TRICK.CANCEL").statement.split()) in text
    assert f"rules-ref conform --replay {summary['replay']} -- " in text


def test_writers_escape_what_the_adapter_wrote() -> None:
    blocks: list[Block] = [Para(["an <b>engine</b> | *named* `so`", Code("a `b` c")]),
              Table(("a|b", "c"), (("x|y", Code("<z>")),)), Pre(("```", "<script>",))]
    page = html_page(blocks, "<title>")
    _check_html(page)
    assert "<b>" not in page and "<script>" not in page and "&lt;script&gt;" in page
    md = markdown(blocks)
    assert r"an \<b\>engine\</b\> \| \*named\* \`so\`" in md
    assert "``` a `b` c ```" not in md and "`` a `b` c ``" in md
    assert r"| x\|y |" in md
    assert "````text\n```\n<script>\n````" in md


def test_html_report_reads_on_a_phone_and_in_dark_mode() -> None:
    page = html_page([Pre(("x" * 300,)), Table(("a",), ((Code("y" * 300),),))], "wide")
    _check_html(page)
    head = page.split("</head>")[0]
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in head
    style = head.split("<style>")[1].split("</style>")[0]
    assert ":root{color-scheme:light dark}" in style
    assert ("@media (prefers-color-scheme:dark){body{color:#ddd;background:#161616}" in
            style)
    # a long line scrolls inside its block (and a wide table inside itself), not the page
    assert "pre{background:#f6f6f6;padding:.6rem;max-width:100%;overflow-x:auto;" in style
    assert "display:block;max-width:100%;overflow-x:auto}" in style
    # on a phone a table's rows are stacked, each cell labelled with its column's name
    assert "@media (max-width:40rem){thead{display:none}tr{display:block;" in style
    assert "td[data-label]::before{content:attr(data-label) \": \";font-weight:600}" in style
    assert f'<td data-label="a"><code>{"y" * 300}</code></td>' in page
    unlabelled = html_page([Table(("", "b"), (("k", "v"),))], "pairs")
    assert '<tr><td>k</td><td data-label="b">v</td></tr>' in unlabelled


def test_a_merge_writes_a_report_too(capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    files = []
    for k in (1, 2):
        code = main(["conform", "--json", "--shard", f"{k}/2", "--seed", "3", "--examples", "4",
                     "--max-seconds", "600", "--timeout", "60", "--out", str(tmp_path),
                     "--", *command("cancel-ignored")])
        out, err = capsys.readouterr()
        assert code in (0, 1), err
        path = tmp_path / f"s{k}.json"
        path.write_text(out)
        files.append(str(path))
    code = main(["conform", "--json", "--merge", *files, "--report", str(tmp_path / "merged.md")])
    merged = json.loads(capsys.readouterr().out)
    counts: dict[str, int] = {}
    for name in files:
        for c in json.loads(Path(name).read_text()).get("classes", []):
            counts[c["key"]] = counts.get(c["key"], 0) + c["count"]
    assert {c["key"]: c["count"] for c in merged["classes"]} == counts
    assert counts and code == 1  # cancel-ignored: every shard meets cancelling pairs
    text = (tmp_path / "merged.md").read_text(encoding="utf-8")
    assert "## Runs merged" in text
    assert f"| `{files[0]}` | 1/2 | 3 |" in text and f"| `{files[1]}` | 2/2 | 3 |" in text
    assert "rules-ref conform --seed 3 --shard 1/2 --examples 4" in text
    assert "rules-ref conform --seed 3 --shard 2/2 --examples 4" in text
    assert f"(exit status {code})" in text


@pytest.mark.parametrize("name", ["report.txt", "report"])
def test_a_report_name_must_say_its_format(name: str, capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["conform", "--report", name, "--", "true"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and ".md (Markdown) or .html (HTML)" in err


def test_exercise_and_offers_tables_when_the_summary_has_them() -> None:
    from rules_ref.reports.document import report_blocks

    summary = {"verdict": "pass", "adapter": "an engine", "games": 3, "deals": 4,
               "actions_compared": 300, "illegal_offered": 7,
               "exercise": {"TRICK.CANCEL": {"a pair cancels": 12, "no pair": 0}},
               "never_exercised": ["TRICK.CANCEL: no pair"],
               "offers": {"a play during passing": 4, "a pass of a card held once, twice": 3}}
    text = markdown(report_blocks(summary))
    assert "Verdict: PASS" in text and "(exit status 0)" in text
    assert "No difference between the implementation and the reference was seen." in text
    assert "| `TRICK.CANCEL` | Identical cards cancel | a pair cancels | 12 |" in text
    assert "| `TRICK.CANCEL` | Identical cards cancel | no pair | 0 |" in text
    assert "Not reached: `TRICK.CANCEL: no pair`." in text
    assert "| a play during passing | 4 |" in text
    assert "| a pass of a card held once, twice | 3 |" in text
    without = markdown(report_blocks({k: v for k, v in summary.items()
                                      if k not in ("exercise", "never_exercised", "offers")}))
    assert "Rules exercised" not in without and "Illegal actions offered" not in without
