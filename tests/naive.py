"""Naive plain-Python reference for cribbage scoring and pegging (the test oracle).

Deliberately slow and obvious: every combination is enumerated with ``itertools``. It shares no code
with ``analyzer`` so the fast kernels can be checked against it.

Card ids are ``rank * 4 + suit``: rank 0..12 = A, 2..10, J, Q, K; suit 0..3 = C, D, H, S.
The counting value of a card is ``min(rank + 1, 10)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

RANKS = "A23456789TJQK"
SUITS = "CDHS"
_SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
JACK = 10

Item = tuple[str, tuple[int, ...], int]
Event = tuple[int, int, int]
Chooser = Callable[[int, list[int], tuple[int, ...]], int]


# --- cards -------------------------------------------------------------------------------------


def card(text: str) -> int:
    """Card id of one card written like ``5H``, ``5h``, ``5♥``, ``10H``, ``TH`` or ``AS``."""
    t = text.strip().upper()
    for sym, letter in _SUIT_SYMBOLS.items():
        t = t.replace(sym, letter)
    m = re.fullmatch(r"(10|[A2-9TJQK])([CDHS])", t)
    if m is None:
        raise ValueError(f"bad card {text!r}")
    rank = 9 if m.group(1) == "10" else RANKS.index(m.group(1))
    return rank * 4 + SUITS.index(m.group(2))


def cards(text: str) -> list[int]:
    """Card ids of cards separated by spaces and/or commas, e.g. ``"5H 5S, 6D"``."""
    return [card(tok) for tok in re.split(r"[\s,]+", text.strip()) if tok]


def name(c: int) -> str:
    """Two-character name of a card id, e.g. 37 -> ``"TD"``."""
    return RANKS[c // 4] + SUITS[c % 4]


def rank(c: int) -> int:
    return c // 4


def suit(c: int) -> int:
    return c % 4


def value(c: int) -> int:
    return min(c // 4 + 1, 10)


# --- the show ----------------------------------------------------------------------------------


def _is_run(combo: Sequence[int]) -> bool:
    ranks = {rank(c) for c in combo}
    return len(ranks) == len(combo) and max(ranks) - min(ranks) == len(combo) - 1


def _check_show(hand: Iterable[int], starter: int, crib: bool) -> tuple[list[int], int]:
    hand = [int(c) for c in hand]
    starter = int(starter)
    every = [*hand, starter]
    sizes = (4,) if crib else (4, 3)  # three: a five-card cribbage hand; a crib is always 4
    if len(hand) not in sizes:
        raise ValueError(f"a {'crib' if crib else 'hand'} has {' or '.join(map(str, sizes))} "
                         f"cards, got {len(hand)}")
    if any(not 0 <= c < 52 for c in every) or len(set(every)) != len(every):
        raise ValueError(f"need {len(every)} distinct card ids in 0..51, got {every}")
    return hand, starter


def naive_items(hand: Iterable[int], starter: int, crib: bool = False) -> list[Item]:
    """Every scoring combination of a hand (or crib) with the starter, as (kind, cards, points).

    A hand is four cards, or three (five-card cribbage); a crib four. Kinds: "fifteen" (2),
    "pair" (2), "run" (its length), "flush" (one point a card: 4 or 5 for a four-card hand, 3 or
    4 for a three-card one, only 5 for a crib), "nobs" (1). Cards in each item are sorted ids.
    """
    hand, starter = _check_show(hand, starter, crib)
    shown = [*hand, starter]
    items: list[Item] = []
    for k in range(2, len(shown) + 1):
        for combo in combinations(shown, k):
            if sum(value(c) for c in combo) == 15:
                items.append(("fifteen", tuple(sorted(combo)), 2))
    for a, b in combinations(shown, 2):
        if rank(a) == rank(b):
            items.append(("pair", tuple(sorted((a, b))), 2))
    for k in range(len(shown), 2, -1):  # only runs of the longest length that occurs
        runs = [combo for combo in combinations(shown, k) if _is_run(combo)]
        if runs:
            items.extend(("run", tuple(sorted(combo)), k) for combo in runs)
            break
    if len({suit(c) for c in shown}) == 1:
        items.append(("flush", tuple(sorted(shown)), len(shown)))
    elif not crib and len({suit(c) for c in hand}) == 1:
        items.append(("flush", tuple(sorted(hand)), len(hand)))
    for c in hand:
        if rank(c) == JACK and suit(c) == suit(starter):
            items.append(("nobs", (c,), 1))
    return items


def naive_score(hand: Iterable[int], starter: int, crib: bool = False) -> int:
    """Show score of a 4-card (or 3-card) hand, or 4-card crib (``crib=True``), with the
    starter."""
    return sum(points for _, _, points in naive_items(hand, starter, crib))


# --- the play ----------------------------------------------------------------------------------


def naive_peg_points(cards_in_count: Sequence[int]) -> int:
    """Points for the last card of the current count: 15, 31, pairs and runs (no go/last card)."""
    laid = [int(c) for c in cards_in_count]
    if not laid:
        raise ValueError("no card laid")
    count = sum(value(c) for c in laid)
    if count > 31:
        raise ValueError(f"count {count} passes 31")
    points = 2 if count in (15, 31) else 0
    same = 1
    while same < len(laid) and rank(laid[-1 - same]) == rank(laid[-1]):
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for n in range(len(laid), 2, -1):
        if _is_run(laid[-n:]):
            points += n
            break
    return points


def _first_playable(player: int, playable: list[int], history: tuple[int, ...]) -> int:
    return playable[0]


def naive_play(
    pone_cards: Iterable[int],
    dealer_cards: Iterable[int],
    choose: Chooser | None = None,
) -> tuple[list[Event], list[int]]:
    """Play out the whole pegging between pone (player 0) and dealer (player 1).

    ``choose(player, playable, history)`` returns the card to lay; ``playable`` keeps the order of
    the player's remaining cards and ``history`` is the tuple of cards laid so far in the current
    count.
    The default lays the first playable card. Returns ``(events, [pone_total, dealer_total])`` where
    each event is ``(player, card, points)`` and the points include the go and last-card points.
    """
    choose = choose or _first_playable
    hands = [[int(c) for c in pone_cards], [int(c) for c in dealer_cards]]
    events: list[list[int]] = []
    count_cards: list[int] = []
    total = 0
    turn = 0  # the pone leads
    last = -1  # who laid the last card

    def playable(player: int) -> list[int]:
        return [c for c in hands[player] if total + value(c) <= 31]

    while hands[0] or hands[1]:
        options = playable(turn)
        if options:
            c = int(choose(turn, options, tuple(count_cards)))
            if c not in options:
                raise ValueError(f"player {turn} cannot lay {name(c)} at count {total}")
            hands[turn].remove(c)
            count_cards.append(c)
            total += value(c)
            events.append([turn, c, naive_peg_points(count_cards)])
            last = turn
            if total == 31:  # 2 already scored by naive_peg_points, no go point
                count_cards, total = [], 0
            turn = 1 - last
        elif playable(1 - turn):
            turn = 1 - turn  # go: the other player lays every card they can
        else:  # neither can lay: go point to whoever laid the last card, the other leads
            events[-1][2] += 1
            count_cards, total = [], 0
            turn = 1 - last
    if count_cards:  # last card (a last card making 31 has already scored its 2)
        events[-1][2] += 1
    totals = [0, 0]
    for player, _, points in events:
        totals[player] += points
    return [(p, c, pts) for p, c, pts in events], totals


def naive_play_round(
    hands: Sequence[Iterable[int]],
    one_count: bool = False,
    choose: Chooser | None = None,
) -> tuple[list[Event], list[int]]:
    """The play for any number of players: ``hands`` in turn order, ``hands[0]`` leads.

    Written from the rules of docs/rules.md, separately from :func:`naive_play`: the turn goes
    round the table; a player who cannot lay a card is passed over ("go") and the next player able
    to lay one goes on; when nobody can, whoever laid the last card pegs 1 for the go, the count
    starts again from 0, and the player after them leads. 31 pegs 2 (no go point) and the count
    starts again with the next player. The last card of the play pegs 1 (2 in all if it makes
    31). With ``one_count`` (five-card cribbage) the play ends at the first go or 31; cards still
    held are not played. Returns ``(events, totals)`` by position in ``hands``.
    """
    choose = choose or _first_playable
    held = [[int(c) for c in h] for h in hands]
    n = len(held)
    events: list[list[int]] = []
    count_cards: list[int] = []
    total = 0
    turn = 0
    last = -1
    while any(held):
        able = [p for p in ((turn + k) % n for k in range(n))
                if any(total + value(c) <= 31 for c in held[p])]
        if not able:  # nobody can lay: the go
            events[-1][2] += 1
            if one_count:
                break
            count_cards, total = [], 0
            turn = (last + 1) % n
            continue
        p = able[0]
        options = [c for c in held[p] if total + value(c) <= 31]
        c = int(choose(p, options, tuple(count_cards)))
        if c not in options:
            raise ValueError(f"player {p} cannot lay {name(c)} at count {total}")
        held[p].remove(c)
        count_cards.append(c)
        total += value(c)
        events.append([p, c, naive_peg_points(count_cards)])
        last = p
        turn = (p + 1) % n
        if total == 31:
            if one_count:
                break
            count_cards, total = [], 0
    else:
        if count_cards:  # the last card of the play (a 31 has scored its 2 already)
            events[-1][2] += 1
    totals = [0] * n
    for p, _, points in events:
        totals[p] += points
    return [(p, c, pts) for p, c, pts in events], totals

