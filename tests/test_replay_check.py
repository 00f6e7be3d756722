"""The replay checker accepts legal recorded games and rejects each kind of inconsistency.

Legal games come from a tiny seeded plain-Python player (random discards and plays) that writes
record format v1; it follows the rules turn by turn, unlike the checker's re-simulation.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Sequence

import pytest
from naive import JACK, card, cards, naive_peg_points, naive_play, naive_score, name, rank, value
from replay_check import check_file, check_game, skunk_tier

# --- a tiny legal game player -----------------------------------------------------------------


def _names(cs: Sequence[int]) -> list[str]:
    return [name(c) for c in cs]


def _play_deal(rng: random.Random, dealer: int, scores: list[int], cheat_heels: bool) -> dict:
    """Deal, discard and play at random; stops at the moment a player reaches 121."""
    deck = list(range(52))
    rng.shuffle(deck)
    if cheat_heels and scores[dealer] >= 119:  # turn up a Jack so the dealer wins on his heels
        j = next(i for i in range(13, 52) if rank(deck[i]) == JACK)
        deck[12], deck[j] = deck[j], deck[12]
    hands = [deck[0:6], deck[6:12]]
    starter = deck[12]
    discards = [rng.sample(h, 2) for h in hands]
    kept = [[c for c in hands[p] if c not in discards[p]] for p in (0, 1)]
    pone = 1 - dealer
    plays: list[list] = []
    show: list[int] = []
    deal = {
        "dealer": dealer,
        "hands": [_names(h) for h in hands],
        "discards": [_names(d) for d in discards],
        "starter": name(starter),
        "heels": 0,
        "plays": plays,
        "show": show,
    }

    def peg(player: int, points: int) -> bool:
        scores[player] = min(scores[player] + points, 121)  # nothing past the game hole
        return scores[player] >= 121

    def done() -> dict:
        deal["scores"] = list(scores)
        return deal

    if rank(starter) == JACK:
        deal["heels"] = 2
        if peg(dealer, 2):
            return done()
    left = [list(kept[0]), list(kept[1])]
    count: list[int] = []
    turn, last = pone, pone
    while left[0] or left[1]:
        total = sum(value(c) for c in count)
        options = [c for c in left[turn] if total + value(c) <= 31]
        if options:
            c = rng.choice(options)
            left[turn].remove(c)
            count.append(c)
            points = naive_peg_points(count)
            if not left[0] and not left[1] and total + value(c) != 31:
                points += 1  # the last card, part of laying it
            plays.append([turn, name(c), points])
            last = turn
            if peg(turn, plays[-1][2]):
                return done()
            if total + value(c) == 31:
                count = []
            turn = 1 - turn
        elif any(total + value(c) <= 31 for c in left[1 - turn]):
            turn = 1 - turn  # go
        else:  # neither can lay: go point to the last card's player, the other leads
            plays[-1][2] += 1
            if peg(last, 1):
                return done()
            count, turn = [], 1 - last
    for player, four, crib in (
        (pone, kept[pone], False),
        (dealer, kept[dealer], False),
        (dealer, discards[0] + discards[1], True),
    ):
        show.append(naive_score(four, starter, crib=crib))
        if peg(player, show[-1]):
            return done()
    return done()


def play_game(
    seed: int,
    prefix: Sequence[dict] = (),
    first_dealer: int | None = None,
    cheat_heels: bool = False,
) -> dict:
    """A legal v1 record; ``prefix`` deals (already legal) are played first."""
    rng = random.Random(seed)
    if first_dealer is None:
        first_dealer = rng.randrange(2)
    deals = copy.deepcopy(list(prefix))
    scores = list(deals[-1]["scores"]) if deals else [0, 0]
    while max(scores) < 121:
        dealer = (first_dealer + len(deals)) % 2
        deals.append(_play_deal(rng, dealer, scores, cheat_heels))
    winner = 0 if scores[0] >= 121 else 1
    return {
        "game": seed,
        "first_dealer": first_dealer,
        "winner": winner,
        "scores": scores,
        "skunk": skunk_tier(scores[1 - winner]),
        "deals": deals,
    }


def ending(record: dict) -> str:
    """How the game ended: "heels", "play", "pone", "dealer" or "crib"."""
    last = record["deals"][-1]
    if last["show"]:
        return ["pone", "dealer", "crib"][len(last["show"]) - 1]
    return "play" if last["plays"] else "heels"


# --- the docs/rules.md whole-play example as a deal --------------------------------------------

# Player 0 deals; pone (player 1) holds 6D JH 4H 7C, dealer 5S 4S 2S 6H; the crib is TS 8D KC 8C
# and the starter 5H (the docs/rules.md show examples: 9, 12 and crib 6).
EXAMPLE_DEAL = {
    "dealer": 0,
    "hands": [["5S", "4S", "2S", "6H", "KC", "8C"], ["6D", "JH", "4H", "7C", "TS", "8D"]],
    "discards": [["KC", "8C"], ["TS", "8D"]],
    "starter": "5H",
    "heels": 0,
    "plays": [
        [1, "JH", 0],
        [0, "5S", 2],
        [1, "7C", 0],
        [0, "6H", 3],  # run 5-6-7; pone says go
        [0, "2S", 1],  # 30, dealer's go
        [1, "6D", 0],
        [0, "4S", 0],
        [1, "4H", 3],  # pair 2 + last card 1
    ],
    "show": [9, 12, 6],
    "scores": [6 + 12 + 6, 3 + 9],
}


def example_record() -> dict:
    return play_game(7, prefix=[EXAMPLE_DEAL], first_dealer=0)


def test_example_deal_matches_rules_and_oracle() -> None:
    pegged = [0, 0]
    for player, _, points in EXAMPLE_DEAL["plays"]:
        pegged[player] += points
    assert pegged == [6, 3]  # pone pegs 3, dealer 6
    # naive_play (its player 0 is the pone) laying the cards in the recorded order agrees
    laid = iter(card(c) for _, c, _ in EXAMPLE_DEAL["plays"])
    events, totals = naive_play(
        cards("6D JH 4H 7C"),
        cards("5S 4S 2S 6H"),
        choose=lambda player, playable, history: next(laid),
    )
    assert totals == [3, 6]
    assert [[1 - p, name(c), pts] for p, c, pts in events] == EXAMPLE_DEAL["plays"]


def test_example_record_passes() -> None:
    record = example_record()
    assert record["deals"][0] == EXAMPLE_DEAL
    check_game(record)


# --- legal games pass --------------------------------------------------------------------------


GAMES = [play_game(seed) for seed in range(300)]


def test_generated_plays_match_naive_play() -> None:
    """The player's complete plays agree with naive_play laying the same cards in the same order."""
    checked = 0
    for record in GAMES[:50]:
        for deal in record["deals"]:
            if len(deal["plays"]) < 8 or len(deal["show"]) < 3:
                continue  # the game ended in this deal
            dealer, pone = deal["dealer"], 1 - deal["dealer"]
            kept = [
                [card(c) for c in deal["hands"][p] if c not in deal["discards"][p]] for p in (0, 1)
            ]
            order = [card(c) for _, c, _ in deal["plays"]]
            events, _ = naive_play(
                kept[pone], kept[dealer], lambda p, opts, hist, order=order: order.pop(0)
            )
            relabel = (pone, dealer)
            assert [[relabel[p], name(c), pts] for p, c, pts in events] == deal["plays"]
            checked += 1
    assert checked > 200


def test_generated_games_pass() -> None:
    for record in GAMES:
        check_game(record)


def test_generated_games_cover_every_ending() -> None:
    endings = {ending(r) for r in GAMES}
    assert {"play", "pone", "dealer", "crib"} <= endings
    assert {r["skunk"] for r in GAMES} >= {0, 1}
    assert any(len(r["deals"][-1]["plays"]) < 8 for r in GAMES if ending(r) == "play")


def heels_win() -> dict:
    for seed in range(2000):
        record = play_game(seed, cheat_heels=True)
        if ending(record) == "heels":
            return record
    raise AssertionError("no game won on the heels")  # pragma: no cover


def test_heels_win_passes() -> None:
    record = heels_win()
    last = record["deals"][-1]
    assert last["heels"] == 2 and last["plays"] == [] and last["show"] == []
    check_game(record)


def test_format_key() -> None:
    record = copy.deepcopy(GAMES[0])
    record["format"] = 1
    check_game(record)
    record["format"] = 2
    with pytest.raises(AssertionError, match="format is 2"):
        check_game(record)
    record["version"] = record.pop("format")
    with pytest.raises(AssertionError, match="unknown {'version'}"):
        check_game(record)


def test_check_file(tmp_path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in GAMES[:5]))
    assert check_file(path) == 5
    bad = copy.deepcopy(GAMES[5])
    bad["skunk"] = (bad["skunk"] + 1) % 4
    path.write_text("".join(json.dumps(r) + "\n" for r in [*GAMES[:2], bad]))
    with pytest.raises(AssertionError, match=r"games\.jsonl:3: .*skunk"):
        check_file(path)


# --- mutations are caught ----------------------------------------------------------------------


def _plays(record: dict, *entries: list) -> None:
    record["deals"][0]["plays"] = [list(e) for e in entries]


def _game_with(pred: Callable[[dict], bool]) -> dict:
    return copy.deepcopy(next(r for r in GAMES if pred(r)))


def m_play_points(r: dict) -> None:
    r["deals"][0]["plays"][3][2] = 2  # the run of 3 recorded as 2


def m_no_go_point(r: dict) -> None:
    r["deals"][0]["plays"][4][2] = 0  # 2S at 30 misses the go point


def m_no_last_card(r: dict) -> None:
    r["deals"][0]["plays"][7][2] = 2


def m_illegal_go(r: dict) -> None:  # at 15 the pone holds 7C, 6D, 4H but the dealer lays again
    _plays(r, [1, "JH", 0], [0, "5S", 2], [0, "4S", 0])


def m_wrong_leader(r: dict) -> None:  # after the dealer's go the pone must lead
    p = r["deals"][0]["plays"]
    p[5:] = [[0, "4S", 0], [1, "6D", 0], [1, "4H", 0]]


def m_dealer_first(r: dict) -> None:
    _plays(r, [0, "5S", 0])


def m_laid_twice(r: dict) -> None:
    r["deals"][0]["plays"][5][1] = "JH"


def m_past_31(r: dict) -> None:  # at 28 the pone lays 6D
    p = r["deals"][0]["plays"]
    p[4] = [1, "6D", 0]


def m_not_in_hand(r: dict) -> None:
    r["deals"][0]["plays"][0][1] = "QS"


def m_discarded_card_laid(r: dict) -> None:
    r["deals"][0]["plays"][0][1] = "TS"


def m_play_stops_early(r: dict) -> None:
    del r["deals"][0]["plays"][5:]


def m_show_score(r: dict) -> None:
    r["deals"][0]["show"][1] = 13


def m_show_swapped(r: dict) -> None:  # dealer's hand counted first
    r["deals"][0]["show"] = [12, 9, 6]


def m_show_short(r: dict) -> None:
    r["deals"][0]["show"] = [9, 12]


def m_deal_scores(r: dict) -> None:
    r["deals"][0]["scores"] = [24, 13]


def m_deal_after_win(r: dict) -> None:
    d = copy.deepcopy(r["deals"][-2])
    d["scores"] = list(r["scores"])
    r["deals"].append(d)


def m_game_never_ends(r: dict) -> None:
    r["deals"].pop()
    r["scores"] = r["deals"][-1]["scores"]


def m_skunk(r: dict) -> None:
    r["skunk"] = (r["skunk"] + 1) % 4


def m_winner(r: dict) -> None:
    r["winner"] = 1 - r["winner"]


def m_game_scores(r: dict) -> None:
    r["scores"] = [r["scores"][0] + 1, r["scores"][1]]


def m_heels_without_jack(r: dict) -> None:
    r["deals"][0]["heels"] = 2


def m_jack_without_heels(r: dict) -> None:
    r["deals"][0]["starter"] = "JC"


def m_dealer_repeats(r: dict) -> None:
    r["deals"][1]["dealer"] = r["deals"][0]["dealer"]


def m_first_dealer(r: dict) -> None:
    r["first_dealer"] = 1


def m_duplicate_card(r: dict) -> None:
    r["deals"][0]["hands"][1][0] = "5S"


def m_starter_dealt(r: dict) -> None:
    r["deals"][0]["starter"] = "KC"


def m_foreign_discard(r: dict) -> None:
    r["deals"][0]["discards"][0][0] = "TS"


def m_bad_card(r: dict) -> None:
    r["deals"][0]["hands"][0][4] = "10C"


EXAMPLE_MUTATIONS = [
    (m_play_points, r"entry 3 .*recorded 2 points, expected 3"),
    (m_no_go_point, r"entry 4 .*expected 0 for the card \+ 1 for the go"),
    (m_no_last_card, r"entry 7 .*\+ 1 for the last card"),
    (m_illegal_go, r"player 1 holds .*playable at count 15 and may not say go"),
    (m_wrong_leader, r"player 1 leads the new count"),
    (m_dealer_first, r"pone \(player 1\) lays the first card"),
    (m_laid_twice, r"JH was already laid"),
    (m_past_31, r"6D takes the count from 28 past 31"),
    (m_not_in_hand, r"QS is not in player 1's kept hand"),
    (m_discarded_card_laid, r"TS was discarded to the crib"),
    (m_play_stops_early, r"play stops after 5 of 8 cards"),
    (m_show_score, r"show\[1\] \(the dealer's hand .*is 13, expected 12"),
    (m_show_swapped, r"show\[0\] .*is 12, expected 9"),
    (m_show_short, r"show stops after 2 counts"),
    (m_deal_scores, r"deal 0: deal scores \[24, 13\] != running totals \[24, 12\]"),
    (m_deal_after_win, r"already won in deal"),
    (m_game_never_ends, r"never ends"),
    (m_skunk, r"skunk is"),
    (m_winner, r"winner is"),
    (m_game_scores, r"game scores"),
    (m_heels_without_jack, r"heels is 2 with starter 5H"),
    (m_jack_without_heels, r"heels is 0 with starter JC"),
    (m_dealer_repeats, r"deal 1: dealer is 0, expected 1"),
    (m_first_dealer, r"deal 0: dealer is 0, expected 1"),
    (m_duplicate_card, r"not 13 distinct"),
    (m_starter_dealt, r"not 13 distinct"),
    (m_foreign_discard, r"player 0 discards TS 8C, not 2 of their hand"),
    (m_bad_card, r"must be a card like"),
]


@pytest.mark.parametrize(
    ("mutate", "message"), EXAMPLE_MUTATIONS, ids=[m.__name__[2:] for m, _ in EXAMPLE_MUTATIONS]
)
def test_example_mutation_caught(mutate: Callable[[dict], None], message: str) -> None:
    record = example_record()
    check_game(record)
    mutate(record)
    with pytest.raises(AssertionError, match=message):
        check_game(record)


def test_play_after_win_caught() -> None:
    record = _game_with(lambda r: ending(r) == "play" and len(r["deals"][-1]["plays"]) < 8)
    check_game(record)
    last = record["deals"][-1]
    laid = {c for _, c, _ in last["plays"]}
    player = 1 - last["plays"][-1][0]
    spare = next(
        c for c in last["hands"][player] if c not in last["discards"][player] and c not in laid
    )
    last["plays"].append([player, spare, 0])
    with pytest.raises(AssertionError, match=r"won, but 1 more play entries follow"):
        check_game(record)


def test_show_after_win_caught() -> None:
    record = _game_with(lambda r: ending(r) == "pone")
    check_game(record)
    record["deals"][-1]["show"].append(0)
    with pytest.raises(AssertionError, match=r"won with show\[0\] .*but the show goes on"):
        check_game(record)


def test_show_after_play_win_caught() -> None:
    record = _game_with(lambda r: ending(r) == "play")
    record["deals"][-1]["show"] = [0]
    with pytest.raises(AssertionError, match=r"ended before the show"):
        check_game(record)


def test_extra_point_on_winning_card_caught() -> None:
    """An extra point on the winning card is caught, also when the card's own points won the game
    (the game is over at once, so no go point follows)."""
    messages = []
    for record in GAMES:
        if ending(record) != "play":
            continue
        record = copy.deepcopy(record)
        last = record["deals"][-1]
        last["plays"][-1][2] += 1  # the scores stay at 121: the winner's, whatever it pegs
        with pytest.raises(AssertionError) as info:
            check_game(record)
        messages.append(str(info.value))
    assert any("wins the game at once" in m for m in messages)


def test_heels_then_play_caught() -> None:
    record = heels_win()
    record["deals"][-1]["plays"] = [[1 - record["deals"][-1]["dealer"], "AS", 0]]
    with pytest.raises(AssertionError, match=r"won on his heels"):
        check_game(record)


@pytest.mark.parametrize(
    ("loser", "tier"), [(0, 3), (30, 3), (31, 2), (60, 2), (61, 1), (90, 1), (91, 0), (120, 0)]
)
def test_skunk_tier(loser: int, tier: int) -> None:
    assert skunk_tier(loser) == tier
