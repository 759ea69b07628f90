"""The built-in players, and whole games played by them.

* :mod:`~rules_ref.players.policy`: the action a built-in player chooses (legal moves
  with a few habits of Hearts players, ties broken by a seeded generator);
* :mod:`~rules_ref.players.game`: whole games from seeded deals played by it, for
  ``rules-ref play``, the examples and the tests; or the rest of a game from any
  state (:func:`~rules_ref.players.game.steps_from`, ``rules-ref play --from``).

Standard library only.
"""

from .game import game_steps, next_deal, play_game, steps_from
from .policy import choose, choose_bold

__all__ = ["choose", "choose_bold", "game_steps", "next_deal", "play_game",
           "steps_from"]
