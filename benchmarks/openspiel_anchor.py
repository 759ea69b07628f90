"""The speed anchor: OpenSpiel's ``hearts`` (4-player, one deck), random playouts from Python.

Run by ``benchmarks/run.py`` with an interpreter that can import ``pyspiel``
(see the README: a separate ``.venv-bench``). Prints one JSON object:
actions per second, card plays per second, and the time per action.
OpenSpiel is only a yardstick here, never a dependency of the project.
"""

from __future__ import annotations

import json
import random
import sys
import time


def main() -> int:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        print(json.dumps({"available": False}))
        return 0
    playouts = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    game = pyspiel.load_game("hearts")
    rng = random.Random(0)

    def run(k: int) -> tuple[int, int, float]:
        actions = plays = 0
        start = time.perf_counter()
        for _ in range(k):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    action = rng.choices([o for o, _ in outcomes],
                                         weights=[p for _, p in outcomes])[0]
                else:
                    action = rng.choice(state.legal_actions())
                    plays += 1
                state.apply_action(action)
                actions += 1
        return actions, plays, time.perf_counter() - start

    run(50)  # warm-up
    samples = [run(playouts) for _ in range(repeats)]
    print(json.dumps({
        "available": True,
        "version": getattr(pyspiel, "__version__", "?"),
        "us_per_action": [s[2] / s[0] * 1e6 for s in samples],
        "us_per_player_action": [s[2] / s[1] * 1e6 for s in samples],
        "actions_per_second": [s[0] / s[2] for s in samples],
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
