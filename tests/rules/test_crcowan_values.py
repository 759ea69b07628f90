"""The switch values the crcowan engine plays: ``min_players = 5`` and ``two-of-clubs-dealt``.

Five players (``PLAYERS.COUNT``, ``DEAL.SIZE``, ``EXTRAS.FIRST_TRICK``) and
the opening lead by the first seat dealt a 2♣ from the dealer's left, found
before the passing (``LEAD.OPENING_LEADER``, ``LEAD.OPENING_CARD``).
"""

from __future__ import annotations

import pytest

from rules_ref import GameState, InputError, SetupError
from rules_ref.actions import Pass, Play
from rules_ref.cards import full_deck
from rules_ref.deal import extras_count, hand_size, seeded_deal
from rules_ref.leading import opening_leader
from rules_ref.positions.check import check_position
from rules_ref.positions.convert import position_of
from rules_ref.ruleset import OpeningLead, Ruleset, preset

from .helpers import (
    assert_illegal,
    assert_illegal_cards,
    card,
    cards,
    dealt,
    fill_deal,
    no_pass,
    play,
)

FIVE = no_pass(min_players=5)
DEALT = no_pass(opening_lead=OpeningLead.TWO_OF_CLUBS_DEALT)

# --- five players ------------------------------------------------------------------------


@pytest.mark.rule("PLAYERS.COUNT")
def test_five_players_are_rejected_by_default_naming_the_switch() -> None:
    with pytest.raises(SetupError) as info:
        GameState.start(5)
    assert str(info.value) == ("PLAYERS.COUNT: 5 players: the game is for 6 to 11 players "
                               "(5 players need min_players = 5)")


@pytest.mark.rule("PLAYERS.COUNT")
@pytest.mark.parametrize("players", [5, 6, 11])
def test_min_players_5_plays_5_to_11(players: int) -> None:
    assert GameState.start(players, FIVE).players == players


@pytest.mark.rule("PLAYERS.COUNT")
@pytest.mark.parametrize("players", [4, 12])
def test_min_players_5_still_rejects_4_and_12(players: int) -> None:
    with pytest.raises(SetupError) as info:
        GameState.start(players, FIVE)
    assert str(info.value) == (f"PLAYERS.COUNT: {players} players: the game is for 5 to 11 "
                               "players")


@pytest.mark.rule("DEAL.SIZE")
def test_five_players_hold_20_cards_each_and_leave_4_extras() -> None:
    assert (hand_size(5), extras_count(5)) == (20, 4)
    deal = seeded_deal(seed=1, players=5, deal_number=1, dealer=0, min_players=5)
    assert [len(h) for h in deal.hands] == [20] * 5
    assert len(deal.extras) == 4
    assert sorted([*(c for h in deal.hands for c in h), *deal.extras]) == sorted(full_deck())


@pytest.mark.rule("EXTRAS.FIRST_TRICK")
def test_the_first_trick_winner_takes_the_four_extras_at_five_players() -> None:
    state = dealt(5, {1: "2C", 2: "5C", 3: "9C", 4: "3C", 0: "4C"}, extras="AS AS KS KS",
                  ruleset=FIVE)
    state, _ = play(state, "2C 5C 9C 3C 4C")
    assert state.tricks[0].winner == 3
    assert sorted(state.collected[3]) == sorted(cards("2C 5C 9C 3C 4C AS AS KS KS"))


@pytest.mark.rule("EXTRAS.FIRST_TRICK", "VOID.TRICK")
def test_a_void_first_trick_at_five_players_leaves_the_extras_pending() -> None:
    state = dealt(5, {1: "9C", 2: "9C", 3: "5H", 4: "6H", 0: "7H"}, extras="AS AS KS KS",
                  voids={3: "C", 4: "C", 0: "C"}, ruleset=FIVE)
    state, _ = play(state, "9C 9C 5H 6H 7H")
    assert state.tricks[0].winner is None
    assert sorted(state.pending) == sorted(cards("9C 9C 5H 6H 7H AS AS KS KS"))
    assert state.pending_has_extras


@pytest.mark.rule("PLAYERS.COUNT")
def test_preset_crcowan_plays_five_players() -> None:
    rs = preset("crcowan")
    assert rs.min_players == 5
    assert GameState.start(5, rs).players == 5


# --- two-of-clubs-dealt ------------------------------------------------------------------


@pytest.mark.rule("LEAD.OPENING_LEADER")
def test_the_first_seat_dealt_a_two_of_clubs_from_the_dealers_left_leads() -> None:
    # dealer 3: the search goes 4, 5, 0, 1, 2, 3, as under two-of-clubs, not from seat 0
    state = dealt(6, {0: "2C", 4: "2C"}, ruleset=DEALT, first_dealer=3)
    assert state.to_act == 4
    state = dealt(6, {0: "2C", 2: "2C"}, ruleset=DEALT, first_dealer=3)
    assert state.to_act == 0


@pytest.mark.rule("LEAD.OPENING_LEADER")
def test_the_dealer_itself_leads_when_it_was_dealt_both_twos_of_clubs() -> None:
    state = dealt(6, {2: "2C 2C"}, ruleset=DEALT, first_dealer=2)
    assert state.to_act == 2


@pytest.mark.rule("LEAD.OPENING_LEADER")
def test_with_both_twos_of_clubs_in_the_extras_the_dealers_left_leads() -> None:
    state = dealt(7, extras="2C 2C AS AS KS KS", ruleset=DEALT, first_dealer=4)
    assert state.to_act == 5


def _pass_all(state: GameState, chosen: dict[int, str]) -> GameState:
    """Every seat passes: the cards in ``chosen``, or else the first three it holds."""
    for seat in range(state.players):
        given = cards(chosen[seat]) if seat in chosen else state.hands[seat][:3]
        state, _ = state.apply(Pass(seat, given))
    return state


_PASSING = Ruleset(opening_lead=OpeningLead.TWO_OF_CLUBS_DEALT)  # deal 1 passes left


@pytest.mark.rule("LEAD.OPENING_LEADER", "LEAD.OPENING_CARD", "PASS.EXCHANGE")
def test_a_leader_that_passed_its_two_of_clubs_still_leads_under_the_default_restriction(
        ) -> None:
    state = GameState.start(6, _PASSING)
    state, _ = state.apply(fill_deal(6, {1: "2C 5D 6D QS 7H 8H", 3: "2C"}))
    state = _pass_all(state, {1: "2C 5D 6D"})
    assert card("2C") in state.hands[2]  # passed left
    assert state.to_act == 1  # the deal found seat 1, not the new holder
    assert card("2C") not in state.legal_plays()
    assert_illegal_cards(state, 1, "QS 7H", "LEAD.OPENING_CARD")
    assert card("QS") not in state.legal_plays()
    lead = state.legal_plays()[0]
    state, _ = state.apply(Play(1, lead))
    assert state.trick == (lead,)


@pytest.mark.rule("LEAD.OPENING_LEADER", "LEAD.OPENING_CARD")
def test_a_leader_that_kept_its_two_of_clubs_must_lead_it() -> None:
    state = GameState.start(6, _PASSING)
    state, _ = state.apply(fill_deal(6, {1: "2C 5D 6D 7D", 3: "2C"}))
    state = _pass_all(state, {1: "5D 6D 7D"})
    assert state.to_act == 1
    assert state.legal_plays() == cards("2C")
    assert_illegal(state, Play(1, state.hands[1][-1]), "LEAD.OPENING_CARD")


@pytest.mark.rule("LEAD.OPENING_LEADER", "LEAD.OPENING_CARD", "PASS.EXCHANGE")
def test_a_leader_that_passed_its_two_of_clubs_and_received_the_other_must_lead_it() -> None:
    state = GameState.start(6, _PASSING)
    state, _ = state.apply(fill_deal(6, {0: "2C 9D 10D", 1: "2C 5D 6D QS"}))
    state = _pass_all(state, {0: "2C 9D 10D", 1: "2C 5D 6D"})  # deal 1 passes left
    assert state.to_act == 1  # dealt the first 2C from the dealer's left
    assert state.legal_plays() == cards("2C")  # received from seat 0: one meaning, it leads it
    assert_illegal(state, Play(1, card("QS")), "LEAD.OPENING_CARD")


@pytest.mark.rule("LEAD.OPENING_LEADER")
def test_under_two_of_clubs_the_holder_after_the_pass_leads_instead() -> None:
    state = GameState.start(6, Ruleset(opening_lead=OpeningLead.TWO_OF_CLUBS))
    state, _ = state.apply(fill_deal(6, {1: "2C 5D 6D", 3: "2C"}))
    state = _pass_all(state, {1: "2C 5D 6D"})
    assert state.to_act == 2


@pytest.mark.rule("LEAD.OPENING_LEADER")
def test_opening_leader_reads_the_dealt_hands_only_under_two_of_clubs_dealt() -> None:
    now = [cards("3C"), cards("4C"), cards("2C"), cards("5C"), cards("6C")]
    before = [cards("3C"), cards("2C"), cards("4C"), cards("5C"), cards("6C")]
    assert opening_leader(3, now, Ruleset(opening_lead=OpeningLead.TWO_OF_CLUBS_DEALT),
                          dealt=before) == 1
    assert opening_leader(3, now, Ruleset(opening_lead=OpeningLead.TWO_OF_CLUBS),
                          dealt=before) == 2
    assert opening_leader(3, now, Ruleset(), dealt=before) == 4


@pytest.mark.rule("PLAYERS.COUNT")
def test_a_five_player_position_needs_min_players_5() -> None:
    pos = position_of(GameState.start(5, FIVE))
    assert check_position(pos) == pos
    assert check_position(pos, FIVE) == pos
    with pytest.raises(InputError) as info:
        check_position(pos, Ruleset())
    assert str(info.value) == ("players: 5: the game is for 6 to 11 players (PLAYERS.COUNT; "
                               "5 players need min_players = 5)")
