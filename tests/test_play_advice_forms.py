"""The play advice at the table in five-card, three-player and four-player (issue 25): the
hints and the web's advice value exactly the cards the seat may lay, by the forms' search
called with what the seat knows; the review (and so ``why``) values each card laid as the hint
did, and as the search asked directly.

The truth is rebuilt here by hand, not read from the advice's code: which cards fit (the count
summed from the cards of the count shown, the hand less the cards the seat laid), and the play
so far as the seat API takes it (:func:`history_by_hand`, the goes put in by the rules), which
:func:`analyzer.advise_play` is then asked about directly.
"""

from __future__ import annotations

import pytest

from analyzer import advise_play
from analyzer.core.cards import card_value, format_card
from analyzer.core.choices import variant_game
from analyzer.table.objective import POINTS
from analyzer.table.tabletop import Table, play_advice

SAMPLES = 200
FORMS = ("five-card", "three-player", "four-player")


def history_by_hand(lays, dealer: int, players: int, kept: int, reset_now: bool = False):
    """The play so far as every seat sees it: ``(seat, card)`` for each card laid and ``(seat,
    None)`` for each turn a seat holding cards did not lay, from the cards laid in order
    (``lays``: ``(seat, card id)``) and the rules (docs/rules.md): the seat on the dealer's left
    leads and the turn passes to the left; a seat that holds cards and lets its turn pass says
    go; when nobody can lay, every seat has passed once more (the last to lay too, if it holds
    a card) and the count starts again, led by the next seat after the last to lay. A card
    that does not fit the running count shows that the count had started again; the position
    after the last card (``reset_now``) says it for the turn being asked."""
    left = [kept] * players
    out: list[tuple[int, int | None]] = []
    count, last = 0, dealer  # before the first card: the dealer's left is next

    def passes(seats):
        out.extend((q, None) for q in seats if left[q])

    def between(a: int, b: int) -> list[int]:  # the seats after a up to b, b excluded
        seats, q = [], (a + 1) % players
        while q != b:
            seats.append(q)
            q = (q + 1) % players
        return seats

    def round_of_goes():
        passes([*between(last, last), last])  # everyone, the last to lay last

    for seat, card in lays:
        if count + card_value(card) > 31:  # nobody could lay: the count started again
            round_of_goes()
            count = 0
        elif out or seat != (dealer + 1) % players:
            passes(between(last, seat) if seat != last else between(last, last))
        out.append((seat, card))
        left[seat] -= 1
        count += card_value(card)
        if count == 31:
            count = 0
        last = seat
    if reset_now:
        round_of_goes()
    return out


def next_turn_passes(out, lays, seat, dealer, players, kept):
    """The goes said between the last card laid and ``seat``'s turn now (no new count)."""
    left = [kept] * players
    for s, _ in lays:
        left[s] -= 1
    last = lays[-1][0] if lays else dealer
    q = (last + 1) % players
    while q != seat:
        if left[q]:
            out.append((q, None))
        q = (q + 1) % players
    return out


class Asker:
    """A person at the table who, before each card with a choice of cards, asks the advice and
    notes the truth rebuilt from the events (what the screen shows), then lays the first card
    that fits."""

    def __init__(self):
        self.events = []
        self.asked = []
        self.positions = []  # the history rebuilt, and whether goes had ended the count

    def emit(self, event):
        self.events.append(event)

    def discard(self, table, seat):
        return table.hand(seat)[:table.game.thrown]

    def lay(self, table, seat):
        game = table.game
        deal = max(k for k, e in enumerate(self.events) if e["kind"] == "deal")
        events = self.events[deal:]
        lays = [(e["seat"], e["card"]) for e in events if e["kind"] == "lay"]
        since = events[max((k for k, e in enumerate(events) if e["kind"] == "lay"), default=0):]
        reset_now = (bool(lays) and any(e["kind"] == "new_count" for e in since)
                     and since[0]["count"] != 31)
        # the count and the cards that fit, recounted
        count = sum(card_value(c) for c in table.count_cards)
        mine = [c for s, c in lays if s == seat]
        held = [c for c in table.kept(seat) if c not in mine]
        legal = sorted(c for c in held if count + card_value(c) <= 31)
        if not legal:
            return None
        history = history_by_hand(lays, table.dealer, game.players, game.kept, reset_now)
        if not reset_now:
            next_turn_passes(history, lays, seat, table.dealer, game.players, game.kept)
        starter = next(e for e in events if e["kind"] == "starter")
        frame = play_advice(table, seat, samples=SAMPLES)
        direct = advise_play(sorted(table.kept(seat)), history, dealer=table.dealer, seat=seat,
                             starter=table.starter, thrown=table.thrown(seat),
                             score=starter["scores"], samples=SAMPLES, variant=game.name)
        self.asked.append((legal, frame, direct))
        self.positions.append((history, reset_now))
        return legal[0]

    def claim(self, table, seat, cards, crib):  # pragma: no cover - no muggins here
        raise AssertionError


@pytest.fixture(scope="module", params=FORMS)
def advised(request):
    variant = request.param
    game = variant_game(variant)
    person = Asker()
    table = Table([person] + ["ev+greedy"] * (game.players - 1), variant=variant, seed=7,
                  emit=person.emit)
    return variant, person, table.play()


def test_the_advice_values_exactly_the_cards_that_fit(advised):
    variant, person, _ = advised
    assert len(person.asked) > 5
    # positions after goes, and (with more than two) after a count ended by goes
    assert any(None in [c for _, c in h] for h, _ in person.positions)
    if variant != "five-card":  # one count in five-card
        assert any(reset for _, reset in person.positions)
    for legal, frame, _ in person.asked:
        assert sorted(frame["card"]) == sorted(format_card(c) for c in legal)
        assert frame.attrs["objective"] == POINTS
        assert frame.attrs["best"] == frame.loc[0, "card"]


def test_the_advice_is_the_search_asked_directly_with_the_history_by_hand(advised):
    variant, person, _ = advised
    for _, frame, direct in person.asked:
        by_card = direct.set_index("card")
        for row in frame.to_dict("records"):
            want = by_card.loc[row["card"]]
            assert row["now"] == want["now"] and row["total"] == want["total"]
            assert row["value"] == row["total"]
            assert row["wins_now"] == want["wins_now"] and row["p_win"] == want["p_win"]
        # best first: a card that wins now, then the most points
        keys = list(zip(frame["wins_now"], frame["total"], strict=True))
        assert keys == sorted(keys, reverse=True)


def test_the_hint_and_the_review_rank_each_card_alike(advised):
    """The review of the game, with the hints' samples, ranks each card the person laid with a
    choice as the hint did before it: the same best card, values and top three."""
    from analyzer.table.review import review_game

    variant, person, record = advised
    review = review_game(record, samples=SAMPLES)
    rows = review.decisions[review.decisions["kind"] == "play"].to_dict("records")
    asked = [(legal, frame) for legal, frame, _ in person.asked if len(legal) > 1]
    assert len(rows) == len(asked) > 3
    for row, (legal, frame) in zip(rows, asked, strict=True):
        value = dict(zip(frame["card"], frame["value"], strict=True))
        assert row["done"] == format_card(legal[0])
        assert (row["advised"], row["value_advised"]) == (frame.loc[0, "card"],
                                                          frame.loc[0, "value"])
        assert row["value_done"] == value[row["done"]]
        assert row["alternatives"] == [[c, v] for c, v in zip(frame["card"][:3],
                                                              frame["value"][:3], strict=True)]


def test_a_card_that_reaches_the_target_is_ranked_first():
    from analyzer.table.objective import rank_cards

    # four-player, seat 0 (on the dealer's left) led KD; seat 1, whose side has 119, makes 15
    # with 5H: 2 points, the game
    position = {"dealer": 3, "seat": 1, "starter": "AC", "thrown": "7D", "samples": SAMPLES,
                "variant": "four-player"}
    frame = rank_cards("5H 9C 3D 2S", [(0, "KD")], scores=(100, 119), **position)
    assert frame.loc[0, "card"] == "5H" and frame.loc[0, "wins_now"]
    assert not frame["wins_now"][1:].any() and frame.attrs["best"] == "5H"
    assert 0 <= frame["p_win"].min() and frame.loc[0, "p_win"] == 1
    frame = rank_cards("5H 9C 3D 2S", [(0, "KD")], scores=(0, 0), **position)
    assert not frame["wins_now"].any()
    assert list(frame["total"]) == sorted(frame["total"], reverse=True)
    with pytest.raises(ValueError, match="seat: only in the other forms"):
        rank_cards("4C 5H 9S KD", "4C 6D", dealer=False, starter="2S", thrown=None,
                   scores=(0, 0), seat=0)


def check_play_rows(record: dict, rows, samples: int, seed: int = 0) -> int:
    """Each review row of a card laid (``rows``: dicts of :data:`analyzer.table.review.COLUMNS`
    with ``kind`` "play", of one seat) against :func:`analyzer.advise_play` asked directly: the
    position rebuilt by hand from the record (the cards laid before it, the goes by the rules,
    the scores before the play). Returns how many were checked."""
    from analyzer.core.cards import parse_card

    game = variant_game(record.get("variant", "six-card"))
    checked = 0
    for row in rows:
        deal = record["deals"][row["deal"] - 1]
        lays = [(seat, parse_card(card)) for seat, card, _ in deal["plays"]]
        k = next(i for i, (_, c) in enumerate(lays) if c == parse_card(row["done"]))
        seat = lays[k][0]
        # the card itself shows whether the count had started again: the history up to it
        history = history_by_hand(lays[:k + 1], deal["dealer"], game.players, game.kept)[:-1]
        before = list(record["deals"][row["deal"] - 2]["scores"] if row["deal"] > 1
                      else record.get("start", [0] * game.teams))
        before[deal["dealer"] % game.teams] += deal["heels"]
        kept = [c for c in deal["hands"][seat] if c not in deal["discards"][seat]]
        direct = advise_play(kept, history, dealer=deal["dealer"], seat=seat,
                             starter=deal["starter"], thrown=deal["discards"][seat],
                             score=before, samples=samples, seed=seed, variant=game.name)
        total = dict(zip(direct["card"], direct["total"], strict=True))
        winning = direct[direct["wins_now"]]
        top = (winning if len(winning) else direct)["total"].max()
        assert row["objective"] == POINTS
        assert row["value_done"] == total[row["done"]]
        assert row["value_advised"] == top and total[row["advised"]] == top
        assert row["lost"] == pytest.approx(max(top - total[row["done"]], 0))
        assert row["alternatives"][0] == [row["advised"], top]
        assert all(v == total[c] for c, v in row["alternatives"])
        checked += 1
    return checked


@pytest.mark.parametrize("variant", FORMS)
def test_the_review_values_each_card_laid_as_the_search_asked_directly(variant):
    from analyzer import simulate
    from analyzer.table.review import review_game

    game = variant_game(variant)
    players = ["ev+greedy", *["random+greedy"] * (game.players - 1)]
    record = simulate(1, seed=19, players=players, record_games=1, variant=variant).records[0]
    review = review_game({**record, "seats": ["you", *players[1:]]}, samples=SAMPLES)
    assert review.plays_reviewed and review.notes == ()
    d = review.decisions
    plays = d[d["kind"] == "play"].to_dict("records")
    laid = sum(p == 0 for deal in record["deals"] for p, _, _ in deal["plays"])
    assert len(plays) + review.forced == laid and len(plays) > 3
    assert check_play_rows(record, plays, SAMPLES) == len(plays)
    assert review.play_lost == pytest.approx(sum(r["lost"] for r in plays))
