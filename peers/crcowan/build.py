"""Build the crcowan engine with Mono, in a scratch folder: ``python3 build.py [CHECKOUT]``.

The engine's five rule files (its models, ``GameLogicService`` and ``GameSessionManager``;
not its web API, its AI players or its front end) are read from the checkout and checked
against commit f201c55 (:mod:`peers.harness.checkout`), rewritten for C# 7
(:mod:`peers.crcowan.rewrite`, each rewrite counted), cut once, and compiled with the harness's
``Host.cs`` into one program, ``host.exe``, run with ``mono``. The one cut, which is not a
syntactic rewrite, replaces the engine's shuffle: ``Deck.Shuffle`` takes the deck order the
harness sets (``PeersHost.DeckCut``), so that the engine's own dealing loop deals the cards the
runner gives. A build is kept in its scratch folder and reused while its inputs are unchanged.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from peers.crcowan.rewrite import rewrite, value_types
from peers.harness.checkout import CheckoutError, Pin, read_files, scratch

API = "GameEngine.Api/"
PIN = Pin(
    key="crcowan",
    repository="crcowan/DoubleDeckCancellationHearts",
    commit="f201c55a4dd302a16f17fcfbf741a266cfa0a2d3",
    env="PEERS_CRCOWAN",
    files={
        API + path: digest
        for path, digest in {
            "Models/Card.cs": "b0c0c54b0f309bfcf57099a501372411b05e52cdba7e49a0299d1619376ea9d8",
            "Models/GameState.cs": "52a5083dfb72159ba67af601b9df1468fb695439f524ce9d040cd9f76ea02be0",  # noqa: E501
            "Models/Deck.cs": "e243c72ada36261e9ce7683ff2df77afcf33b3a04534547108ca57841fb2c66c",
            "Services/GameLogicService.cs": "6aab3115030607d4d2a435e2288194d8ab9639172d26c83bf7b3b259b65239a3",  # noqa: E501
            "Services/GameSessionManager.cs": "6a486b7cd60310ee4b5441646eba0642fcfe3b706404005f0f2c06fe6b5233b0",  # noqa: E501
        }.items()
    },
)
HERE = Path(__file__).resolve().parent
SHUFFLE = "public void Shuffle()\n        {\n"
CUT = SHUFFLE + (
    "            if (PeersHost.DeckCut.Order != null) "
    "{ _cards.Clear(); _cards.AddRange(PeersHost.DeckCut.Take()); return; }\n"
)


def cut_shuffle(text: str) -> str:
    """Deck.cs with its shuffle taking the harness's deck order; exactly one place is cut."""
    if text.count(SHUFFLE) != 1:
        raise CheckoutError("Deck.cs: the shuffle to cut was not found exactly once")
    return text.replace(SHUFFLE, CUT)


def build(source: str | None) -> Path:
    """The compiled host (with the engine) for the checkout, built once per set of inputs."""
    files = read_files(PIN, source)
    host = (HERE / "Host.cs").read_bytes()
    folder = scratch(
        PIN, *files.values(), host, (HERE / "rewrite.py").read_bytes(), __doc__.encode()
    )
    program = folder / "host.exe"
    if program.exists():
        return program
    if shutil.which("mcs") is None or shutil.which("mono") is None:
        raise CheckoutError(
            "mcs and mono are needed to build the crcowan engine "
            "(Debian: apt-get install mono-complete)"
        )
    texts = {path: data.decode("utf-8-sig") for path, data in files.items()}
    values = value_types(list(texts.values()))
    counts: Counter[str] = Counter({"record": 0, "new()": 0, "nullable": 0})
    sources = []
    for path, text in texts.items():
        text = rewrite(text, values, counts)
        if path.endswith("Deck.cs"):
            text = cut_shuffle(text)
            counts["shuffle cut"] += 1
        target = folder / "src" / Path(path).name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        sources.append(str(target))
    (folder / "src" / "Host.cs").write_bytes(host)
    compiled = subprocess.run(
        [
            "mcs",
            "-nologo",
            "-optimize+",
            f"-out:{program}.part",
            *sources,
            str(folder / "src" / "Host.cs"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if compiled.returncode != 0:
        raise CheckoutError(f"mcs could not build the engine:\n{compiled.stdout}{compiled.stderr}")
    (folder / "rewrites.json").write_text(json.dumps(dict(counts), sort_keys=True) + "\n")
    Path(f"{program}.part").rename(program)
    return program


if __name__ == "__main__":
    try:
        built = build(sys.argv[1] if len(sys.argv) > 1 else None)
    except CheckoutError as exc:
        print(f"build.py: {exc}", file=sys.stderr)
        sys.exit(2)
    print(built)
    print((built.parent / "rewrites.json").read_text(), end="")
