"""One objective for the advice at the table and the review of a game (issue 23, item 5).

A decision (a keep, a card to lay, a muggins count) is valued in one of two ways, and
:func:`objective` says which, from the position alone:

* **points** (:data:`POINTS`) while the game is far from its end: a keep by its expected net
  points in the deal (:func:`analyzer.keep`: the hand's exact mean, the crib table, the pegging
  table), a card by the points it pegs now plus the pegging for minus against in the rest of the
  play (:func:`analyzer.advise_play`'s ``total``);
* **P(win)** (:data:`P_WIN`) near the end: the probability of winning the game, a keep's by
  :func:`analyzer.keep_to_win` and a card's by :func:`analyzer.advise_play` with the score, both
  ending on the shipped win-odds table.

**The rule.** P(win) when either side needs at most :data:`REACH` (30) points to reach 121 at
the decision (before the deal for a keep, at the card for the play), in the two-player six-card
game; points otherwise, and always in the other forms (below). Why 30: a side rarely scores
more than 30 points in one deal (the dealer averages about 17 with his crib, the pone about
10), so further from the end no single deal decides the game, the order in which points arrive does
not matter, and a deal's expected points are what moves P(win); within 30 a keep or a card
can win or lose the game in this deal, and only P(win) sees that (a pone who needs 9 keeps a
sure 8 and a peg over a hand worth 12 on average). It is the line at which the engine's
``best`` player starts keeping to win (:data:`analyzer.play.winkeep.BEST_DISCARD_REACH`), so the
advice, the review and the analyzer's own player change objective at the same score.

**The other forms** (five-card, three-player, four-player) value every decision in points: a
keep by :func:`analyzer.keep` with the form's tables, a card by the forms' search
(:func:`analyzer.play.searchforms.advise_play_forms`: the points it pegs now plus its side's
pegging for minus against in the rest of the play, the other sides' their mean), except that
a card that reaches the target now wins the game and is ranked first whatever its points. Not
P(win): the keep advice of these forms is in points, so the points keep one objective for
every decision of a deal. Each card's ``p_win`` (from the form's win-odds table, three-player's
of three needs included) is shown beside its points, not ranked by. A card that wins now may be
worth fewer points than another: the advice still puts it first, and a review of a card laid
instead charges only the points.

**One evaluation.** :func:`rank_keeps` and :func:`rank_cards` value every alternative of a
decision under its objective, from the same samples for every alternative, best first, with
the value in a column ``value`` and the objective in ``attrs["objective"]``. The hints of
``crib play`` (:func:`analyzer.table.tabletop.keep_advice`, :func:`~analyzer.table.tabletop.
play_advice`), ``why`` after a move of the AI, and the review (:mod:`analyzer.table.review`)
all call them with the same samples and seed, so for one decision they rank the alternatives
identically, and the advised choice is never valued below the one made: under P(win) the
advised keep is the keep of highest P(win) on the samples that value the keep made (not the
points keep that :func:`analyzer.keep_to_win` keeps unless a rival wins clearly more often).
"""

from __future__ import annotations

from ..core.choices import ADVISE_SAMPLES, variant_game

__all__ = ["P_WIN", "POINTS", "REACH", "fixed", "format_alternatives", "objective", "rank_cards",
           "rank_keeps"]

#: The objectives, as the advice and the review print them.
POINTS = "points"
P_WIN = "P(win)"
#: P(win) is the objective when a side needs at most this many points (the ``best`` player's
#: line, :data:`analyzer.play.winkeep.BEST_DISCARD_REACH`; a test holds them equal).
REACH = 30


def objective(scores, variant: str = "six-card") -> str:
    """The objective of a decision at ``scores`` (the deciding side's score and the other's):
    :data:`P_WIN` when the form is the two-player six-card game and either side needs at most
    :data:`REACH` points, else :data:`POINTS` (see the module docstring).

    Examples
    --------
    >>> objective((60, 90)), objective((60, 91)), objective((91, 0), "five-card")
    ('points', 'P(win)', 'points')
    """
    game = variant_game(variant)
    if game.name != "six-card":
        return POINTS
    me, opp = (int(s) for s in scores)
    return P_WIN if game.target - me <= REACH or game.target - opp <= REACH else POINTS


def rank_keeps(hand, dealer: bool, scores, variant: str = "six-card",
               samples: int = ADVISE_SAMPLES, seed: int = 0):
    """Every keep of ``hand`` (the cards dealt, text or ids) valued under the objective at
    ``scores`` (before the deal), best first.

    Points: :func:`analyzer.keep`'s frame (``value`` = ``net``). P(win):
    :func:`analyzer.keep_to_win`'s frame from ``samples`` samples drawn from ``seed``, sorted by
    ``p_win`` then ``net`` (``value`` = ``p_win``). ``attrs["objective"]`` says which.

    Examples
    --------
    >>> frame = rank_keeps("5H 5S 6D JC QS KH", True, (0, 0))
    >>> frame.attrs["objective"], frame.loc[0, "keep"], bool(frame.loc[0, "value"] ==
    ...                                                      frame["net"].max())
    ('points', '5S JC QS KH', True)
    """
    from ..core.cards import as_cards
    from ..keeping.discard import keep

    hand = sorted(int(c) for c in as_cards(hand))  # one order: ties rank alike for every caller
    goal = objective(scores, variant)
    if goal == POINTS:
        frame = keep(hand, bool(dealer), variant=variant_game(variant).name).copy()
        frame["value"] = frame["net"]
    else:
        from ..play.winkeep import keep_to_win

        frame = keep_to_win(hand, bool(dealer), tuple(int(s) for s in scores), samples=samples,
                            seed=seed)
        frame["value"] = frame["p_win"]  # sorted by p_win, then net: the best first
    frame.attrs["objective"] = goal
    return frame


def rank_cards(hand, played, *, dealer, starter, thrown, scores,
               samples: int = ADVISE_SAMPLES, seed: int = 0, variant: str = "six-card",
               seat: int | None = None):
    """Every card the player may lay now valued under the objective, best first, in any form
    (:func:`analyzer.advise_play`'s arguments).

    **Six-card** (``dealer`` True or False, ``played`` the cards laid with ``"go"`` where goes
    ended a count, ``scores`` the player's and the opponent's now): the cards are valued once,
    with the score (so ``p_win`` is always there): :func:`analyzer.advise_play`'s frame.
    Points: sorted by ``total`` (``value``); P(win) (:func:`objective` at ``scores``): as
    ``advise_play`` sorts it (a card that wins now, then ``p_win``, then ``total``; ``value`` =
    ``p_win``).

    **Five-card, three-player, four-player** (``variant``; ``seat`` and ``dealer`` seat
    numbers, ``played`` the seat API's history, ``(seat, card)`` and ``(seat, None)`` for each
    go, ``scores`` each side's score before the play in side order, the cards of ``played``
    adding their points): the objective is always points. The cards are valued once with the
    score by :func:`analyzer.play.searchforms.advise_play_forms`; a card that reaches the
    target now (``wins_now``) comes first, then the others by ``total`` (``value``: the points
    it pegs now plus its side's pegging for minus against in the rest of the play). The
    frame keeps ``p_win`` (the form's win-odds table), shown beside the points but not
    ranked by.

    ``attrs``: ``objective``, ``best`` (the first card, or ``"go"``), ``count``.

    Examples
    --------
    >>> frame = rank_cards("4C 5H 9S KD", "4C 6D", dealer=False, starter="2S", thrown=None,
    ...                    scores=(0, 0), samples=500)
    >>> frame.attrs["objective"], frame.attrs["best"], int(frame.loc[0, "now"])
    ('points', '5H', 5)
    >>> frame = rank_cards("8H 2C KD QS", [(1, "7C"), (2, "8D")], dealer=0, seat=0,
    ...                    starter="4S", thrown="5D", scores=(0, 0, 0), samples=200,
    ...                    variant="three-player")
    >>> frame.attrs["objective"], frame.attrs["best"], int(frame.loc[0, "now"])
    ('points', '8H', 2)
    """
    from ..core.cards import as_cards
    from ..play.search import advise_play

    hand = sorted(int(c) for c in as_cards(hand))  # one order: ties rank alike for every caller
    game = variant_game(variant)
    if game.name != "six-card":
        frame = advise_play(hand, played, dealer=dealer, starter=starter, thrown=thrown,
                            score=[int(s) for s in scores], samples=samples, seed=seed,
                            variant=game.name, seat=seat)
        attrs = dict(frame.attrs)
        frame = frame.sort_values(["wins_now", "total"], ascending=False,
                                  kind="stable").reset_index(drop=True)
        frame["value"] = frame["total"]
        attrs.update(objective=POINTS, best=frame.loc[0, "card"] if len(frame) else "go")
        frame.attrs.update(attrs)
        return frame
    if seat is not None:
        raise ValueError("seat: only in the other forms (variant=); in six-card say dealer="
                         "True or False")
    scores = tuple(min(int(s), 120) for s in scores)
    goal = objective(scores)
    frame = advise_play(hand, played, dealer=bool(dealer), starter=starter, thrown=thrown,
                        score=scores, samples=samples, seed=seed)
    attrs = dict(frame.attrs)
    if goal == POINTS:
        frame = frame.sort_values("total", ascending=False, kind="stable").reset_index(drop=True)
        frame["value"] = frame["total"]
    else:
        frame = frame.copy()
        frame["value"] = frame["p_win"]
    attrs.update(objective=goal, best=frame.loc[0, "card"] if len(frame) else "go")
    frame.attrs.update(attrs)
    return frame


def fixed(x: float, places: int = 2, sign: str = "") -> str:
    """``x`` to ``places`` decimals, with ``sign="+"`` a plus sign before a positive value; a
    value that rounds to zero is 0.00, never -0.00.

    >>> fixed(-0.0031, sign="+"), fixed(-0.004), fixed(1.236, sign="+"), fixed(-2.5)
    ('+0.00', '0.00', '+1.24', '-2.50')
    >>> fixed(-1e-5, 4)
    '0.0000'
    """
    return format(round(x, places) + 0.0, f"{sign}.{places}f")


def format_alternatives(alternatives, goal: str, done: str | None = None,
                        value_done: float | None = None) -> str:
    """A decision's top alternatives, ``(choice, value)`` best first, in one line: points to two
    decimals, P(win) to four. With ``done`` (the choice made) and its ``value_done``, the choice
    made is added when it is not among them, so that the line always shows it.

    Examples
    --------
    >>> format_alternatives([("TD", 1.718), ("KC", 1.5912)], POINTS)
    '1. TD 1.72  2. KC 1.59'
    >>> format_alternatives([("TD", 1.718), ("KC", 1.5912)], POINTS, "5H", 0.25)
    '1. TD 1.72  2. KC 1.59  (chosen: 5H 0.25)'
    >>> format_alternatives([("TD", 0.0004), ("KC", -0.0021)], POINTS)
    '1. TD 0.00  2. KC 0.00'
    """
    def value(v) -> str:
        return fixed(v, 4 if goal == P_WIN else 2)

    line = "  ".join(f"{k}. {choice} {value(v)}"
                     for k, (choice, v) in enumerate(alternatives, start=1))
    if done is not None and value_done is not None and frozenset(done.split()) not in {
            frozenset(str(choice).split()) for choice, _ in alternatives}:
        line += f"  (chosen: {done} {value(value_done)})"
    return line
