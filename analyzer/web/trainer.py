"""The discard trainer: a seeded stream of six-card deals, each with a role, and the grading of
the two cards a player throws.

Deal ``k`` of seed ``S`` is always the same six cards and role: its random words are
``numpy.random.SeedSequence(S, spawn_key=(k,))``'s (an algorithm numpy fixes, whatever the
version), drawn into a partial Fisher-Yates shuffle of the 52 cards (multiply-shift bounded
integers, as :mod:`analyzer.core.rng` draws them) and one word for the role. The filters of the page
(the role, only close decisions) do not change a deal: :func:`next_deal` gives the first deal at
or after ``k`` that passes them, and its number.

A throw is graded against :func:`analyzer.keep` with its defaults (the self-play crib table, the
play counted): its rank among the 15 keeps (1 + the number of keeps with a strictly better net,
so keeps that tie with the best all rank 1) and the value lost, the best net minus its own. A
decision is *close* when the best net is less than :data:`CLOSE_GAP` points above the next
different net (keeps that tie with the best, such as two fives of suits that play alike, are
one choice, not a close one): about one deal in five.
"""

from __future__ import annotations

import numpy as np

from ..core.cards import format_card
from .answers import TIE, InputError, _cards, _checked, discards, ranks

__all__ = ["CLOSE_GAP", "MAX_DEAL", "MAX_SCAN", "deal", "grade", "next_deal"]

#: A close decision: the best net is less than this many points above the next different net.
CLOSE_GAP = 0.25
#: The highest deal number of a stream.
MAX_DEAL = 2**32 - 1
#: How many deals :func:`next_deal` looks through for one that passes the filters.
MAX_SCAN = 2000


def deal(seed: int, k: int) -> tuple[list[int], bool]:
    """Deal ``k`` of the stream ``seed``: the six card ids (in id order) and whether the player
    deals (the crib is his).

    Examples
    --------
    >>> deal(7, 0) == deal(7, 0), deal(7, 0) != deal(7, 1)
    (True, True)
    """
    words = np.random.SeedSequence(int(seed), spawn_key=(int(k),)).generate_state(7, np.uint32)
    deck = list(range(52))
    for i in range(6):
        j = i + ((int(words[i]) * (52 - i)) >> 32)
        deck[i], deck[j] = deck[j], deck[i]
    return sorted(deck[:6]), bool(int(words[6]) >> 31)


def _ranked(six: list[int], dealer: bool) -> dict:
    return discards(six, dealer, "table")


def _gap(result: dict) -> float:
    """The best net minus the next different one (nets within
    :data:`~analyzer.web.answers.TIE` are one)."""
    net = result["net"]
    below = net[net < net[0] - TIE]
    return float(net[0] - below[0]) if len(below) else 0.0


def _check(seed: int, k: int) -> None:
    _checked("seed", seed, 0, 2**63 - 1)
    _checked("k", k, 0, MAX_DEAL)


def next_deal(seed: int, k: int = 0, role: str = "any", close: bool = False) -> dict:
    """The first deal of stream ``seed`` numbered ``k`` or more whose role is ``role`` (``"any"``,
    ``"dealer"`` or ``"pone"``) and, with ``close``, whose decision is close.

    Returns
    -------
    dict
        ``seed``, ``k`` (the deal's number), ``hand`` (six card texts, in id order), ``role``.

    Raises
    ------
    InputError
        A seed, number or role out of range, or no such deal among :data:`MAX_SCAN` deals.
    """
    _check(seed, k)
    if role not in ("any", "dealer", "pone"):
        raise InputError("role", f"unknown role {role!r}: any, dealer or pone")
    end = min(k + MAX_SCAN, MAX_DEAL + 1)  # fewer than MAX_SCAN near the last deal
    for i in range(k, end):
        six, dealer = deal(seed, i)
        if role != "any" and dealer != (role == "dealer"):
            continue
        if close and _gap(_ranked(six, dealer)) >= CLOSE_GAP:
            continue
        return {"seed": seed, "k": i, "hand": [format_card(c) for c in six],
                "role": "dealer" if dealer else "pone"}
    raise InputError("k", f"no deal from {k} on passes the filters within {end - k} deal"
                          f"{'s' * (end - k != 1)}")


def grade(seed: int, k: int, throw: str) -> dict:
    """Grade the throw ``throw`` (two cards, as text) of deal ``k`` of stream ``seed``.

    Returns
    -------
    dict
        ``seed``, ``k``, ``hand``, ``role``, ``throw`` and ``keep`` (card texts), ``rank`` (1 =
        the best; keeps that tie share a rank), ``of`` (15), ``net`` (the throw's), ``best``
        (``{"keep", "discard", "net"}``), ``lost`` (the best net minus the throw's, 0 at
        best), ``close`` (whether the decision was close), ``gap`` (the best net minus the
        next different one) and ``rows``: the 15 keeps best first (``rank``, shared by keeps
        that tie as above, ``keep``, ``discard``, ``hand_mean``, ``crib_mean``, ``peg_mean``,
        ``net``).

    Examples
    --------
    >>> six, dealer = deal(7, 0)
    >>> first = grade(7, 0, " ".join(format_card(c) for c in six[:2]))
    >>> best = grade(7, 0, " ".join(first["best"]["discard"]))
    >>> best["rank"], best["lost"]
    (1, 0.0)
    """
    _check(seed, k)
    six, dealer = deal(seed, k)
    thrown = _cards(throw, "throw", n=2)
    names = [format_card(c) for c in six]
    for c in thrown:
        if c not in six:
            raise InputError("throw", f"{format_card(c)} is not in the hand {' '.join(names)}")
    result = _ranked(six, dealer)
    discard = " ".join(format_card(c) for c in sorted(thrown))
    mine = result["discard"].index(discard)
    net = result["net"].tolist()
    rank_of = ranks(net)
    rank = rank_of[mine]
    lost = net[0] - net[mine]
    rows = [{"rank": rank_of[i], "keep": result["keep"][i].split(),
             "discard": result["discard"][i].split(),
             **{c: result[c][i].item() for c in ("hand_mean", "crib_mean", "peg_mean", "net")}}
            for i in range(len(net))]
    return {
        "seed": seed, "k": k, "hand": names, "role": "dealer" if dealer else "pone",
        "throw": discard.split(), "keep": result["keep"][mine].split(),
        "rank": rank, "of": len(net), "net": net[mine],
        "best": {"keep": result["keep"][0].split(), "discard": result["discard"][0].split(),
                 "net": net[0]},
        "lost": 0.0 if rank == 1 else lost, "close": _gap(result) < CLOSE_GAP,
        "gap": _gap(result), "rows": rows,
    }
