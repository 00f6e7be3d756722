"""The hand counted out: every scoring combination of a show, and the count as said at the table.

The explanatory path of the show score (plain Python, not a hot path): :func:`count_hand` lists
the fifteens, pairs, runs, flush and nobs of a hand or crib with its starter, and
:func:`say_count` says them. Their points add up to :func:`analyzer.core.scoring.score_hand`, which
scores the same show with the compiled kernels. The same for a card laid in the play:
:func:`count_peg` lists what it pegs (fifteen, thirty-one, pairs, a run, the last card), adding
up to :func:`analyzer.core.scoring.peg_points` (and the last-card point), and :func:`say_peg` says
it with the count. This module imports no compiled code, so
``crib count`` starts quickly; :mod:`analyzer.core.scoring` re-exports its names.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from . import cards, rules
from .cards import as_cards, format_cards
from .choices import DEFAULT_VARIANT, check_flag, variant_game

__all__ = ["CountStep", "ScoreItem", "cards_shown", "count_hand", "count_peg", "say_count",
           "say_count_steps", "say_peg"]


def cards_shown(crib: bool, variant: str = DEFAULT_VARIANT) -> tuple[int, str]:
    """How many cards a hand (or, ``crib``, a crib) of ``variant`` holds in the show, and what
    it is called, for a message.

    >>> cards_shown(False, "five-card"), cards_shown(True, "five-card")[0]
    ((3, 'a five-card hand'), 4)
    """
    game = variant_game(variant)
    crib = check_flag("crib", crib)
    what = "crib" if crib else "hand"
    return (game.crib_size if crib else game.kept), f"a {game.name} {what}"


def _check_count(ids: np.ndarray, n: int, what: str) -> None:
    from .cards import CardError

    if len(ids) != n:
        given = format_cards(ids) if len(ids) else "nothing"
        raise CardError(f"expected {n} card{'s' * (n != 1)}, got {len(ids)}: {given} ({what} "
                        f"holds {n})")


def _hand_and_starter(hand, starter, crib: bool = False,
                      variant: str = DEFAULT_VARIANT) -> tuple[np.ndarray, int]:
    from .cards import CardError

    n, what = cards_shown(crib, variant)
    hand_ids = as_cards(hand)
    _check_count(hand_ids, n, what)
    if starter is None:
        raise CardError("starter: one card is needed, got None")
    starter_ids = as_cards(starter, n=1)
    s = int(starter_ids[0])
    if s in hand_ids.tolist():
        raise CardError(f"starter {format_cards([s])} is also in the hand")
    return hand_ids, s


class ScoreItem(NamedTuple):
    """One scoring combination of a counted hand: ``kind`` is one of ``fifteen``, ``pair``,
    ``run``, ``flush``, ``nobs`` (in the play also ``thirty-one``, ``last`` and ``go``);
    ``cards`` are card ids; ``points`` what it scores."""

    kind: str
    cards: tuple[int, ...]
    points: int


#: Flush points by the number of hand cards: (the hand alone, the hand and the starter).
_FLUSH_POINTS = {
    4: (rules.HAND_FLUSH_POINTS, rules.CRIB_FLUSH_POINTS),
    3: (rules.THREE_CARD_FLUSH_POINTS, rules.THREE_CARD_STARTER_FLUSH_POINTS),
}


def count_hand(hand, starter, crib: bool = False,
               variant: str = DEFAULT_VARIANT) -> list[ScoreItem]:
    """Every scoring combination of a hand (or crib) with its starter, in table order.

    The order is the one used at the table: fifteens, pairs, runs, flush, nobs. The points add up
    to :func:`score_hand`. ``variant`` as for :func:`score_hand` (three-card hands in
    ``"five-card"``). This is the explanatory (plain Python) path, not a hot path.

    Examples
    --------
    >>> items = count_hand("5H 5C 5S JD", "5D")
    >>> [i.kind for i in items].count("fifteen"), sum(i.points for i in items)
    (8, 29)
    """
    h, s = _hand_and_starter(hand, starter, crib, variant)
    shown = [*h.tolist(), s]
    items: list[ScoreItem] = []
    for size in range(2, len(shown) + 1):
        for combo in itertools.combinations(shown, size):
            if sum(cards.card_value(c) for c in combo) == rules.FIFTEEN:
                items.append(ScoreItem("fifteen", combo, rules.FIFTEEN_POINTS))
    for a, b in itertools.combinations(shown, 2):
        if cards.card_rank(a) == cards.card_rank(b):
            items.append(ScoreItem("pair", (a, b), rules.PAIR_POINTS))
    for size in range(len(shown), 2, -1):
        runs = [
            combo
            for combo in itertools.combinations(sorted(shown), size)
            if _is_run([cards.card_rank(c) for c in combo])
        ]
        if runs:
            items.extend(ScoreItem("run", combo, size) for combo in runs)
            break
    suits = {cards.card_suit(c) for c in h.tolist()}
    alone, with_starter = _FLUSH_POINTS[len(h)]
    if len(suits) == 1:
        if cards.card_suit(s) in suits:
            items.append(ScoreItem("flush", tuple(shown), with_starter))
        elif not crib:
            items.append(ScoreItem("flush", tuple(h.tolist()), alone))
    for c in h.tolist():
        if cards.card_rank(c) == rules.JACK and cards.card_suit(c) == cards.card_suit(s):
            items.append(ScoreItem("nobs", (c,), rules.NOBS_POINTS))
    return items


def _is_run(ranks: list[int]) -> bool:
    return len(set(ranks)) == len(ranks) and max(ranks) - min(ranks) == len(ranks) - 1


_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty twenty-one twenty-two twenty-three "
    "twenty-four twenty-five twenty-six twenty-seven twenty-eight twenty-nine thirty thirty-one"
).split()
_SAME_RANK = {2: "a pair", 3: "a pair royal", 4: "a double pair royal"}
_RUN_TIMES = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a double double run"}


def say_count(items: list[ScoreItem]) -> str:
    """The count as said at the table.

    Fifteens are said with their running total ("fifteen two, fifteen four"), pairs of one rank
    together (a pair, a pair royal, a double pair royal), runs of one length together with the
    pairs inside them, as players name them (a double run of three is 8 points: two runs and a
    pair; a double run of four 10, a triple run 15, a double double run 16), and the last
    phrase ends with the total: in figures ("... and one for his nob makes 29"), or in words
    when it is a fifteen ("fifteen two, fifteen four and fifteen six"). A hand of nothing is
    "nineteen", as players say, with its meaning for those who do not ("nineteen (nothing:
    0)"). :func:`say_count_steps` gives the same words phrase by phrase, each with its items.

    Examples
    --------
    >>> say_count(count_hand("2S 3D 3H 4S", "9C"))
    'fifteen two, fifteen four and a double run of three makes 12'
    """
    steps = say_count_steps(items)
    if not steps[0].items:
        return steps[0].said
    said = [step.said for step in steps]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


class CountStep(NamedTuple):
    """One phrase of a count said at the table: the words (``said``), the scoring items it
    says (:class:`ScoreItem`, in table order) and the running ``total`` after it."""

    said: str
    items: tuple
    total: int


def say_count_steps(items: list[ScoreItem]) -> list[CountStep]:
    """The count as said at the table, phrase by phrase (:func:`say_count` joins them): each
    fifteen, the pairs of one rank, the runs (with the pairs a double, triple or double double
    run holds), the flush, his nob, with the items each phrase says and the running total. A
    hand of nothing is one step with no items.

    Examples
    --------
    >>> for step in say_count_steps(count_hand("2S 3D 3H 4S", "9C")):
    ...     print(step.said, len(step.items), step.total)
    fifteen two 1 2
    fifteen four 1 4
    a double run of three makes 12 3 12
    """
    if isinstance(items, str) or not isinstance(items, Iterable) or \
            not all(isinstance(i, ScoreItem) for i in items):
        raise TypeError(f"items: the scoring items of a count (count_hand's list of ScoreItem), "
                        f"got {items!r}"[:200])
    total = 0
    phrases: list[tuple[str, int, tuple]] = []  # (what is said, running total, its items)
    for item in items:
        if item.kind == "fifteen":
            total += item.points
            phrases.append(("fifteen", total, (item,)))
    runs = [i for i in items if i.kind == "run"]
    # a double, triple or double double run holds its pairs: "a double run of three" is 8
    in_runs = {cards.card_rank(c) for i in runs for c in i.cards} if len(runs) > 1 else set()
    pairs = [i for i in items if i.kind == "pair"]
    held = [i for i in pairs if cards.card_rank(i.cards[0]) in in_runs]
    pairs_by_rank: dict[int, list[ScoreItem]] = {}
    for item in pairs:
        if item not in held:
            pairs_by_rank.setdefault(cards.card_rank(item.cards[0]), []).append(item)
    for same_rank in pairs_by_rank.values():
        same = {c for item in same_rank for c in item.cards}
        total += rules.PEG_SAME_RANK_POINTS[len(same)]
        phrases.append((_SAME_RANK[len(same)], total, tuple(same_rank)))
    if runs:
        total += sum(i.points for i in runs) + sum(i.points for i in held)
        phrases.append((f"{_RUN_TIMES[len(runs)]} of {_WORDS[len(runs[0].cards)]}", total,
                        (*held, *runs)))
    for item in items:
        if item.kind == "flush":
            total += item.points
            phrases.append((f"a flush of {_WORDS[item.points]}", total, (item,)))
        elif item.kind == "nobs":
            total += item.points
            phrases.append(("one for his nob", total, (item,)))
    if not phrases:
        return [CountStep("nineteen (nothing: 0)", (), 0)]
    steps = [CountStep(f"fifteen {_WORDS[t]}" if text == "fifteen" else f"{text} is {_WORDS[t]}",
                       group, t) for text, t, group in phrases[:-1]]
    text, t, group = phrases[-1]
    steps.append(CountStep(f"fifteen {_WORDS[t]}" if text == "fifteen" else f"{text} makes {t}",
                           group, t))
    return steps


def count_peg(cards_in_count, last: bool = False) -> list[ScoreItem]:
    """What the last card laid in the play pegs, item by item.

    ``cards_in_count`` are the cards of the current count, oldest first (text or ids); ``last``
    says the card is the last of the play (one point, unless it makes 31). Items: ``fifteen``
    and ``thirty-one`` (2 each, all the count's cards), ``pair`` (2, 6 or 12 for two, three or
    four of a rank laid in a row: those cards), ``run`` (the longest run ending with the card:
    its cards, a point each) and ``last`` (1). Their points add up to
    :func:`analyzer.core.scoring.peg_points`, plus the last card. A go is pegged apart (it follows
    no card of its own).

    Examples
    --------
    >>> [(i.kind, i.points) for i in count_peg("7S 8D 8C 8H")]
    [('thirty-one', 2), ('pair', 6)]
    >>> [(i.kind, i.points) for i in count_peg("4C 6D 5H")]
    [('fifteen', 2), ('run', 3)]
    """
    ids = as_cards(cards_in_count).tolist()
    ranks = [cards.card_rank(c) for c in ids]
    count = sum(cards.card_value(c) for c in ids)
    items: list[ScoreItem] = []
    if count == rules.FIFTEEN:
        items.append(ScoreItem("fifteen", tuple(ids), rules.FIFTEEN_POINTS))
    if count == rules.MAX_COUNT:
        items.append(ScoreItem("thirty-one", tuple(ids), rules.THIRTY_ONE_POINTS))
    n = len(ids)
    same = 1
    while same < n and same < 4 and ranks[n - 1 - same] == ranks[-1]:
        same += 1
    if same > 1:  # a pair at the tail rules out a run through it
        items.append(ScoreItem("pair", tuple(ids[n - same:]), rules.PEG_SAME_RANK_POINTS[same]))
    else:
        run = max((k for k in range(3, n + 1) if _is_run(ranks[n - k:])), default=0)
        if run:
            items.append(ScoreItem("run", tuple(ids[n - run:]), run))
    if last and count != rules.MAX_COUNT:
        items.append(ScoreItem("last", (ids[-1],), rules.LAST_CARD_POINTS))
    return items


_PEG_PHRASES = {"pair": {2: "a pair", 6: "a pair royal", 12: "a double pair royal"},
                "last": "one for last", "go": "one for the go"}


def say_peg(count: int, items: list[ScoreItem]) -> str:
    """A card laid, as said at the table: the count, then what it pegs with the running total.

    Examples
    --------
    >>> say_peg(15, count_peg("4C 6D 5H"))
    'fifteen two and a run of three is five'
    >>> say_peg(31, count_peg("7S 8D 8C 8H"))
    'thirty-one for two and a pair royal is eight'
    >>> say_peg(12, count_peg("6C 6D")), say_peg(20, count_peg("KC QD")), say_peg(31, [])
    ('twelve and a pair for two', 'twenty', 'thirty-one')
    """
    rest = list(items)
    if rest and rest[0].kind == "fifteen":
        head, total = "fifteen two", rest.pop(0).points
    elif rest and rest[0].kind == "thirty-one":
        head, total = "thirty-one for two", rest.pop(0).points
    else:
        head, total = _WORDS[count], 0
    phrases = []
    for item in rest:
        if item.kind == "run":
            what = f"a run of {_WORDS[len(item.cards)]}"
        elif item.kind == "pair":
            what = _PEG_PHRASES["pair"][item.points]
        else:
            what = _PEG_PHRASES[item.kind]
            phrases.append(what if not total else f"{what} is {_WORDS[total + item.points]}")
            total += item.points
            continue
        phrases.append(f"{what} is {_WORDS[total + item.points]}" if total
                       else f"{what} for {_WORDS[item.points]}")
        total += item.points
    if not phrases:
        return head
    return head + (" and " + phrases[0] if len(phrases) == 1
                   else ", " + ", ".join(phrases[:-1]) + " and " + phrases[-1])
