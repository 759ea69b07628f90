"""The C# rewrites for mcs (peers/crcowan/rewrite.py), on a small C# text of our own."""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from peers.crcowan.build import cut_shuffle
from peers.crcowan.rewrite import rewrite, value_types
from peers.harness.checkout import CheckoutError

SOURCE = """using System;
using System.Collections.Generic;

namespace Sample
{
    public enum Colour { Red, Black }

    public record Token(Colour Colour, int Size) : IComparable<Token>
    {
        public bool IsRed => Colour == Colour.Red;
        public int CompareTo(Token? other) => other == null ? 1 : Size.CompareTo(other.Size);
        public override string ToString() => $"{Colour} {Size}";
    }

    public class Box
    {
        public List<Token> Tokens { get; set; } = new();
        private Dictionary<string, int> _counts = new();
        public string? Label { get; set; }
        public Colour? Tint { get; set; }
        public int? Limit;
        public int Count(string key) => _counts.ContainsKey(key) ? _counts[key] : 0;
    }

    public static class Program
    {
        public static int Main()
        {
            var box = new Box();
            box.Tokens.Add(new Token(Colour.Red, 3));
            bool found = box.Tokens.Contains(new Token(Colour.Red, 3));
            bool removed = box.Tokens.Remove(new Token(Colour.Red, 3));
            bool same = new Token(Colour.Black, 2) == new Token(Colour.Black, 2);
            bool differ = new Token(Colour.Black, 2) != new Token(Colour.Red, 2);
            Console.WriteLine($"{found} {removed} {same} {differ} {box.Tokens.Count}");
            return 0;
        }
    }
}
"""


def rewritten() -> tuple[str, Counter[str]]:
    counts: Counter[str] = Counter()
    return rewrite(SOURCE, value_types([SOURCE]), counts), counts


def test_each_rewrite_is_counted() -> None:
    _, counts = rewritten()
    # one record; two target-typed new(); Token? and string? (Colour? and int? stay)
    assert dict(counts) == {"record": 1, "new()": 2, "nullable": 2}


def test_the_record_becomes_a_class_with_value_equality() -> None:
    text, _ = rewritten()
    assert "record" not in text
    assert "public class Token : System.IEquatable<Token>, IComparable<Token>" in text
    assert "public Colour Colour { get; }" in text and "public int Size { get; }" in text
    assert (
        "public Token(Colour Colour, int Size) { this.Colour = Colour; this.Size = Size; }" in text
    )
    assert "public static bool operator ==(Token a, Token b)" in text


def test_target_typed_new_names_the_declared_type() -> None:
    text, _ = rewritten()
    assert "public List<Token> Tokens { get; set; } = new List<Token>();" in text
    assert "private Dictionary<string, int> _counts = new Dictionary<string, int>();" in text


def test_nullable_annotations_are_dropped_on_reference_types_only() -> None:
    text, _ = rewritten()
    assert "CompareTo(Token other)" in text and "public string Label" in text
    assert "public Colour? Tint" in text and "public int? Limit" in text
    assert "? _counts[key] : 0" in text  # a conditional operator is not an annotation


def test_a_text_without_the_new_forms_is_unchanged() -> None:
    plain = "public class A { public int B { get; set; } = 1; }"
    counts: Counter[str] = Counter()
    assert rewrite(plain, value_types([plain]), counts) == plain
    assert sum(counts.values()) == 0


def test_the_shuffle_cut_needs_exactly_one_shuffle() -> None:
    deck = "        public void Shuffle()\n        {\n            int n = 1;\n        }\n"
    assert "PeersHost.DeckCut.Order" in cut_shuffle(deck)
    with pytest.raises(CheckoutError, match="exactly once"):
        cut_shuffle(deck + deck)


@pytest.mark.skipif(
    shutil.which("mcs") is None or shutil.which("mono") is None,
    reason="mcs and mono are not installed (Debian: mono-complete)",
)
def test_the_rewritten_text_compiles_with_mcs_and_keeps_value_equality(tmp_path: Path) -> None:
    text, _ = rewritten()
    (tmp_path / "Sample.cs").write_text(text)
    subprocess.run(
        ["mcs", "-nologo", f"-out:{tmp_path / 's.exe'}", str(tmp_path / "Sample.cs")],
        check=True,
        capture_output=True,
    )
    ran = subprocess.run(
        ["mono", str(tmp_path / "s.exe")], check=True, capture_output=True, text=True
    )
    assert ran.stdout == "True True True True 0\n"
