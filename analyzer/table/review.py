"""Reviewing a recorded game's decisions: where a person's choices cost them, and how much.

:func:`review_game` takes a game record (:mod:`analyzer.sim.records`; ``crib play`` saves one with
``"seats"``, the person's seat named ``"you"``) and goes through the person's decisions in order,
deal by deal, comparing each with the analyzer's advice; :func:`format_review` prints the result
(``crib review``).

**One objective.** Each decision is valued under the objective :mod:`analyzer.table.objective`
chooses for its position, the same as the hints of ``crib play`` use: **points** while the game is
far from its end, **P(win)** once either side needs at most
:data:`analyzer.table.objective.REACH` (30) points (two-player six-card game only: in the other
forms, three- and four-player among them, always points). The row says
which (``objective``), and its values and its loss are in that objective's units. The
alternatives are ranked by :func:`analyzer.table.objective.rank_keeps` and
:func:`~analyzer.table.objective.rank_cards`, so the advised choice is the first of the ranking
that values the choice made, and never valued below it.

**Discards.** Points: every keep valued as :func:`analyzer.keep` values it by default (the kept
hand's exact mean over the 46 starters the player cannot see, plus (dealer) or minus (pone) the
crib value of the two cards thrown from the self-play crib-value table, plus the keep's pegging
value from the self-play pegging table); in five-card cribbage the same with the form's own
rules (three kept of five, the 47 starters, the form's crib table, no pegging table); in the
three- and four-player games one card thrown of five, the crib counted for the dealer's side (the
person's when the partner deals: role ``"partner"``), with the form's tables. P(win):
each keep's probability of winning from the scores before the deal
(:func:`analyzer.keep_to_win`, ``samples`` samples of the rest of the deal, seeded); the advised
keep is the one of highest P(win) on those samples. The loss is the advised keep's value minus
the value of the keep made, never negative.

**The play**, in every form. For each card the person laid, the position is rebuilt from the
record: the cards they kept (those laid marked), the cards laid so far in the deal by every
player with the goes (in six-card the counts ended by goes marked; in the other forms the
play as the seat API sees it, :func:`analyzer.sim.records.decisions`, which is what the table
gives its hints), the starter, the person's cards in the crib and the scores.
:func:`analyzer.advise_play` values every card they could lay by determinized rollouts
(``samples`` deals of the others' unseen cards, ``seed``: the same review every run): its
points now plus the mean pegging for minus against in the rest of the play (points; in the
other forms the side's pegging for minus the other sides', a card that reaches the target
ranked first), or its probability of winning (P(win), six-card near the end). A card laid when
no other could be (one legal card) is not a decision: it is counted in :attr:`Review.forced`
and has no row.

**Muggins counts.** In a game played with muggins (``"claims"`` in each deal) each count the
person claimed is a decision (kind ``"count"``): a count too low gives the difference to the
other side (``given``, points); a right count (or one too high, corrected) loses nothing. Muggins
is played by two sides: two players, or the two partnerships of four-player, where the person
claims their own hand and their crib (the partner's are counted for them, no decision) and what
they miss goes to the other partnership; three-player has no muggins. Under
points its loss is the points given away; under P(win) it is the P(win) the count lost: the
show walked as it went, and again with the count right, each to its end (a side reaching 121
wins at once) and then the win-odds table at the start of the next deal
(:func:`analyzer.keeping.winodds.win_probability`).

**Why** (``explain=True``, ``crib review --explain``): the other seats' decisions (the
computer's, in a game of ``crib play``) are valued the same way (:attr:`Review.others`), and
:func:`format_review` prints every seat's decisions in the order they were made, each with its
top alternatives and their values (the column ``alternatives`` of every row holds them).

A game stopped before its end (``"unfinished": true``) has its complete deals reviewed; the deal
it stopped in (``"partial_deal"``) is not, as its decisions are not all made. In a finished game
the last deal stops at the winning moment, and the decisions made before it are reviewed. The
decisions taken back (``"undos"``) are not in the record: the review sees the ones that stood.
"""

from __future__ import annotations

import math
import numbers
import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.choices import ADVISE_SAMPLES, PERSON
from ..core.game import VARIANTS
from ..sim.records import RecordError
from .objective import P_WIN, POINTS, format_alternatives

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["COLUMNS", "PERSON", "TOP", "Review", "explain_deal", "format_review", "review_game"]


#: The columns of :attr:`Review.decisions`, one row per decision.
COLUMNS = ("deal", "role", "kind", "score", "position", "objective", "done", "advised",
           "value_done", "value_advised", "lost", "given", "best", "alternatives")

#: The alternatives a row keeps (and ``--explain`` prints), best first.
TOP = 3

#: The play's count may not pass this.
_MAX_COUNT = 31


@dataclass
class Review:
    """The review of one player's decisions in a recorded game (:func:`review_game`).

    Attributes
    ----------
    decisions
        One row per decision, in the order they were made (pandas DataFrame, columns
        :data:`COLUMNS`): ``deal`` (1, 2, ...), ``role`` (``"dealer"`` or ``"pone"``;
        ``"partner"`` when a four-player partner deals), ``kind`` (``"discard"``, ``"play"`` or
        ``"count"``, a muggins count), ``score`` (the player's side's score and the best other
        side's at the decision, e.g. ``"57-60"``), ``position`` (the cards
        dealt for a discard; for a play ``"lead"`` or ``"on N"``, the count; for a count
        ``"hand"`` or ``"crib"``), ``objective`` (``"points"`` or ``"P(win)"``,
        :func:`analyzer.table.objective.objective`), ``done`` (the cards kept, the card laid, the
        points claimed), ``advised`` (the best under the objective: a keep, a card, the true
        count), ``value_done`` and ``value_advised`` (their values: expected points, or P(win)),
        ``lost`` (the difference, >= 0, in the objective's units), ``given`` (points a count
        too low gave the other side; 0 in other rows), ``best`` (what the analyzer's own player,
        the engine's ``best``, keeps or lays there, asked through the seat API
        (:mod:`analyzer.play.seat`) with what the seat knew, drawing from ``seed``; for a count,
        the true count) and ``alternatives`` (the top :data:`TOP` choices with their values,
        ``[[choice, value], ...]``, best first; empty for a count).
    discard_lost, play_lost
        Expected points lost by the discards and by the cards laid valued in points.
    muggins_lost
        Points the player's counts too low gave away (muggins), at any score.
    p_win_lost
        P(win) lost by the decisions valued in P(win) (discards, cards, counts), summed.
    worst
        The points row (a dict) that lost most points, or None if none lost any.
    worst_win
        The P(win) row that lost most P(win), or None if none lost any.
    game, seat, variant, seats, unfinished, deals
        The game's number, the seat reviewed, the form, the seat names (None if the record has
        none), whether the game was stopped before its end, the deals in the record.
    forced
        Cards the player laid with no choice (one legal card): not decisions, no rows.
    plays_reviewed
        Whether the cards laid are reviewed: always, in every form since issue 25 (kept for
        the readers of older reviews, where five-card and the group forms had False).
    notes
        What the review leaves out, in words (empty when nothing).
    samples, seed
        The samples and the seed of the simulations (P(win) keeps and the play).
    others
        With ``explain``: the other seats' decisions, valued the same way (a DataFrame of
        :data:`COLUMNS`, the seats in turn within a deal's discards); None without.
    """

    decisions: pd.DataFrame
    discard_lost: float
    play_lost: float
    worst: dict | None
    worst_win: dict | None
    game: int
    seat: int
    variant: str
    seats: tuple[str, ...] | None
    unfinished: bool
    deals: int
    forced: int
    plays_reviewed: bool
    notes: tuple[str, ...] = field(default=())
    samples: int = 0
    seed: int = 0
    muggins_lost: float = 0.0
    p_win_lost: float = 0.0
    others: pd.DataFrame | None = None
    #: (seat, row index in decisions or, for another seat, in others) of every row, as made
    _order: tuple = field(default=(), repr=False)

    def to_dict(self) -> dict:
        """The review as plain JSON-ready values (NaN as None), the rows under ``decisions``
        (and the other seats' under ``others`` with ``explain``)."""
        return {"game": self.game, "seat": self.seat, "variant": self.variant,
                "seats": None if self.seats is None else list(self.seats),
                "unfinished": self.unfinished, "deals": self.deals, "samples": self.samples,
                "seed": self.seed, "plays_reviewed": self.plays_reviewed,
                "notes": list(self.notes), "discard_lost": self.discard_lost,
                "play_lost": self.play_lost, "muggins_lost": self.muggins_lost,
                "p_win_lost": self.p_win_lost, "forced": self.forced,
                "worst": None if self.worst is None else _plain_row(self.worst),
                "worst_win": None if self.worst_win is None else _plain_row(self.worst_win),
                "decisions": _plain_rows(self.decisions),
                "others": None if self.others is None else _plain_rows(self.others)}


def _plain_rows(frame) -> list[dict]:
    return [_plain_row(row) for row in frame.to_dict("records")]


def _plain_row(row: dict) -> dict:
    return {k: ([[c, _plain(v)] for c, v in value] if k == "alternatives" else _plain(value))
            for k, value in row.items()}


def _plain(value):
    """A numpy scalar as a plain Python value; NaN as None (JSON has no NaN)."""
    value = value.item() if hasattr(value, "item") else value
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _person_seat(record: dict, seat, players: int) -> int:
    """The seat to review: ``seat`` if given (checked), else the one named :data:`PERSON`."""
    names = record.get("seats")
    if seat is None:
        if names is None:
            raise RecordError(f"game {record['game']} names no seats: say which seat to "
                              "review")
        mine = [p for p, name in enumerate(names) if name == PERSON]
        if not mine:
            raise RecordError(f"game {record['game']} has no seat named {PERSON!r} (seats: "
                              f"{', '.join(names)}): say which seat to review")
        if len(mine) > 1:
            raise RecordError(f"game {record['game']} has {len(mine)} seats named {PERSON!r}: "
                              "say which seat to review")
        return mine[0]
    if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) \
            or not 0 <= seat < players:
        seats = "0 or 1" if players == 2 else f"0 to {players - 1}"
        raise ValueError(f"seat must be {seats}, got {seat!r}")
    return int(seat)


def review_game(record: dict, seat: int | None = None, *, samples: int = ADVISE_SAMPLES,
                seed: int = 0, explain: bool = False) -> Review:
    """Review one player's decisions in a recorded game of any form (see the module docstring).

    Parameters
    ----------
    record
        A game record of any form (:mod:`analyzer.sim.records`: format 1, or format 2 for
        five-card, three- and four-player), as
        :func:`analyzer.read_records` reads it; checked with
        :func:`analyzer.sim.records.validate_record`.
    seat
        The seat to review, 0 to the form's players less 1; by default the seat named ``"you"``
        in ``record["seats"]``.
    samples
        Samples of each simulation: the rest of the deal for a keep valued in P(win)
        (:func:`analyzer.keep_to_win`, rounded up to a multiple of 64) and the opponent's unseen
        cards for each card laid (:func:`analyzer.advise_play`). 1 to 1,000,000.
    seed
        Seed of every simulation: the same record, seat, samples and seed give the same review.
    explain
        Value the other seats' decisions too (:attr:`Review.others`), for :func:`format_review`
        to print every seat's choices with their top alternatives.

    Returns
    -------
    Review

    Raises
    ------
    RecordError
        If the record is not a valid record, or (with no ``seat``) names no seat ``"you"``.
    ValueError
        For a ``seat``, ``samples`` or ``seed`` out of range.

    Examples
    --------
    >>> from analyzer import simulate
    >>> record = simulate(3, seed=4, players=("pegging+lookahead", "ev+greedy"),
    ...                   record_games=1).records[0]
    >>> review = review_game({**record, "seats": ["you", "ev+greedy"]}, samples=64)
    >>> d = review.decisions.query("kind == 'discard' and objective == 'points'")
    >>> review.seat, bool((d["lost"] < 1e-9).all())
    (0, True)
    """
    import pandas as pd

    from ..core.choices import MAX_SEED, check_number
    from ..sim.records import record_form, validate_record

    if not isinstance(record, dict):
        raise RecordError(f"a game record is a dict, got {type(record).__name__}")
    validate_record(record)
    game = record_form(record)
    seat = _person_seat(record, seat, game.players)
    samples = check_number("samples", samples, low=1, high=1_000_000, integer=True)
    seed = check_number("seed", seed, low=0, high=MAX_SEED, integer=True)
    seats = (seat, *(p for p in range(game.players) if p != seat)) if explain else (seat,)
    scores = list(record.get("start", [0] * game.teams))  # by side
    rows: list[dict] = []
    forced = 0
    views = _lay_views(record)
    for number, deal in enumerate(record["deals"], start=1):
        made, n_forced = _deal_rows(number, deal, seats, scores, game, samples, seed,
                                    views.get(number - 1, []))
        rows.extend(made)
        forced += n_forced
        scores = list(deal["scores"])
    _add_best(rows, record, seed)
    rows.sort(key=lambda r: (r["deal"], r["_step"], r["_seat"]))
    notes = ()
    mine = _frame(pd, [r for r in rows if r["_seat"] == seat])
    others = _frame(pd, [r for r in rows if r["_seat"] != seat]) if explain else None
    order, seen = [], {True: 0, False: 0}  # each row's index in decisions, or in others
    for r in rows:
        own = r["_seat"] == seat
        order.append((r["_seat"], seen[own]))
        seen[own] += 1
    in_points = mine[mine["objective"] == POINTS]
    by_kind = in_points.groupby("kind")["lost"].sum()
    in_p_win = mine[mine["objective"] == P_WIN]
    worst = worst_win = None
    if len(in_points) and in_points["lost"].max() > 0:
        worst = mine.loc[in_points["lost"].idxmax()].to_dict()
    if len(in_p_win) and in_p_win["lost"].max() > 0:
        worst_win = mine.loc[in_p_win["lost"].idxmax()].to_dict()
    names = record.get("seats")
    return Review(decisions=mine, discard_lost=float(by_kind.get("discard", 0.0)),
                  play_lost=float(by_kind.get("play", 0.0)), worst=worst, worst_win=worst_win,
                  game=record["game"], seat=seat, variant=game.name,
                  seats=None if names is None else tuple(names),
                  unfinished=bool(record.get("unfinished", False)),
                  deals=len(record["deals"]), forced=forced, plays_reviewed=True,
                  notes=notes, samples=samples, seed=seed,
                  muggins_lost=float(mine["given"].sum()),
                  p_win_lost=float(in_p_win["lost"].sum()), others=others, _order=tuple(order))


def _deal_rows(number, deal, seats, scores, game, samples, seed,
               views) -> tuple[list[dict], int]:
    """The rows of one deal's decisions by ``seats`` (the reviewed seat first), from the
    scores before it (by side), and how many cards the first seat laid with no choice.
    ``views``: each card laid in the deal, the seat API's view of it (:func:`_lay_views`)."""
    sides = game.teams
    rows = []
    for p in seats:
        rows.append(_review_discard(number, p, deal, game, _side_scores(scores, p % sides),
                                    samples, seed))
    played, forced, after_play = _review_plays(number, deal, seats, scores, game, samples,
                                               seed, views)
    rows.extend(played)
    rows.extend(_review_counts(number, deal, seats, after_play, game))
    return rows, forced


def _lay_views(record: dict) -> dict[int, list[dict]]:
    """Each card laid in the record, by deal index, in order: the seat API's view of it (what
    the seat knew: its kept cards, the play so far with the goes, the starter, its throw, the
    scores before the play; :func:`analyzer.sim.records.decisions`), as the table gives it to
    the seat and its hints."""
    from ..sim.records import decisions

    views: dict[int, list[dict]] = {}
    for d in decisions(record):
        if d["kind"] == "lay" and d["answer"] is not None:
            views.setdefault(d["deal"], []).append(d["view"])
    return views


def explain_deal(record: dict, number: int, seat: int, *, samples: int = ADVISE_SAMPLES,
                 seed: int = 0) -> list[dict]:
    """The decisions ``seat`` made in deal ``number`` (1, 2, ...) of a record of any form,
    valued as :func:`review_game` values them (its rows, :data:`COLUMNS` but ``best``), in
    the order made, each with its top :data:`TOP` alternatives: what ``crib review --explain``
    prints of that deal, and ``why`` in ``crib play`` of the AI's last deal shown. The record
    is taken as valid (a table's own, :meth:`analyzer.table.tabletop.Table.record`)."""
    from ..sim.records import record_form

    game = record_form(record)
    deals = record["deals"]
    if not 1 <= number <= len(deals):
        raise ValueError(f"no deal {number}: the record has {len(deals)} complete deals")
    scores = list(deals[number - 2]["scores"] if number > 1
                  else record.get("start", [0] * game.teams))
    rows, _ = _deal_rows(number, deals[number - 1], (seat,), scores, game, samples, seed,
                         _lay_views(record).get(number - 1, []))
    rows.sort(key=lambda r: r["_step"])
    return [{k: r[k] for k in COLUMNS if k != "best"} for r in rows]


def _frame(pd, rows: list[dict]):
    """The rows as a DataFrame of :data:`COLUMNS`, typed."""
    frame = pd.DataFrame([{k: r[k] for k in COLUMNS} for r in rows], columns=list(COLUMNS))
    frame["deal"] = frame["deal"].astype("int64")
    frame["given"] = frame["given"].astype("int64")
    for column in ("value_done", "value_advised", "lost"):
        frame[column] = frame[column].astype("float64")
    return frame


def _add_best(rows: list[dict], record: dict, seed: int) -> None:
    """Fill each row's ``best``: the choice of the engine's ``best`` player in that position,
    from the seat API, asked with the seat's view of the record
    (:func:`analyzer.sim.records.decisions`); for a count, the true count."""
    from ..core.cards import format_card
    from ..play.seat import discard, lay
    from ..sim.records import decisions

    wanted = {r["_seat"] for r in rows}
    choices = {}
    for d in decisions(record):
        if d["seat"] not in wanted:
            continue
        if d["kind"] == "discard":
            thrown = discard("best", **d["view"], seed=seed)
            choices[d["seat"], d["deal"] + 1, "discard"] = " ".join(
                format_card(c) for c in d["view"]["hand"] if c not in thrown)
        elif d["answer"] is not None:
            card = lay("best", **d["view"], seed=seed)
            choices[d["seat"], d["deal"] + 1, format_card(d["answer"])] = \
                "go" if card is None else format_card(card)
    for row in rows:
        if row["kind"] == "count":
            row["best"] = row["advised"]
        else:
            row["best"] = choices[row["_seat"], row["deal"],
                                  "discard" if row["kind"] == "discard" else row["done"]]


def _agrees(row: dict) -> bool:
    return _cards_key(row["done"]) == _cards_key(row["best"])


def _side_scores(scores, side: int) -> tuple[int, int]:
    """The side's score and the best other side's, from the scores by side."""
    return scores[side], max(s for k, s in enumerate(scores) if k != side)


def _role(deal: dict, seat: int, sides: int) -> str:
    """The seat's role in the deal: ``"dealer"``, ``"partner"`` (four-player: the partner
    deals, the crib is the seat's side's) or ``"pone"``."""
    if deal["dealer"] == seat:
        return "dealer"
    return "partner" if deal["dealer"] % sides == seat % sides else "pone"


def _row(number, seat, role, kind, score, position, goal, done, advised, value_done,
         value_advised, step, alternatives=()) -> dict:
    return {"deal": number, "role": role, "kind": kind,
            "score": f"{score[0]}-{score[1]}", "position": position, "objective": goal,
            "done": done, "advised": advised, "value_done": float(value_done),
            "value_advised": float(value_advised),
            "lost": max(float(value_advised) - float(value_done), 0.0), "given": 0,
            "best": "", "alternatives": [[c, float(v)] for c, v in alternatives],
            "_seat": seat, "_step": step}


def _cards_key(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _review_discard(number, seat, deal, game, score, samples, seed) -> dict:
    """The row of one seat's discard: every keep ranked under the objective
    (:func:`analyzer.table.objective.rank_keeps`; the crib the seat's side's when a seat of it
    deals), the keep made against the first."""
    from .objective import rank_keeps

    hand, thrown = deal["hands"][seat], deal["discards"][seat]
    role = _role(deal, seat, game.teams)
    kept = _cards_key(" ".join(c for c in hand if c not in thrown))
    frame = rank_keeps(hand, role != "pone", score, game.name, samples=samples, seed=seed)
    keeps = [_cards_key(k) for k in frame["keep"]]
    made = keeps.index(kept)
    return _row(number, seat, role, "discard", score, " ".join(hand), frame.attrs["objective"],
                frame["keep"].iloc[made], frame["keep"].iloc[0], frame["value"].iloc[made],
                frame["value"].iloc[0], 0,
                zip(frame["keep"][:TOP], frame["value"][:TOP], strict=True))


def _review_plays(number, deal, seats, scores_before, game, samples, seed, views):
    """The rows of the cards ``seats`` laid in one deal, how many the first of them laid with
    no choice, and the scores after the play (by side). Each position is rebuilt from the
    record (six-card: the cards laid with the goes that ended a count; the other forms: the
    seat API's view, ``views``) and ranked by :func:`analyzer.table.objective.rank_cards`."""
    from ..core.cards import card_value, parse_card
    from ..core.game import STANDARD

    sides, n = game.teams, game.players
    kept = [[c for c in deal["hands"][p] if c not in deal["discards"][p]] for p in range(n)]
    left = [list(k) for k in kept]
    scores = list(scores_before)
    scores[deal["dealer"] % sides] += deal["heels"]
    sequence: list[str] = []  # six-card: the cards laid, "go" where a count ended by goes
    count = 0
    rows = []
    forced = 0
    for step, (player, card, points) in enumerate(deal["plays"], start=1):
        value = card_value(parse_card(card))
        if count + value > _MAX_COUNT:  # nobody could lay: the count ended by goes
            sequence.append("go")
            count = 0
        if player in seats:
            legal = [c for c in left[player] if count + card_value(parse_card(c)) <= _MAX_COUNT]
            if len(legal) > 1:
                mine = _side_scores(scores, player % sides)
                position = "lead" if count == 0 else f"on {count}"
                if game == STANDARD:
                    rows.append(_review_card(number, player, deal, kept[player], sequence,
                                             card, mine, position, samples, seed, step))
                else:
                    rows.append(_review_card_forms(number, player, deal, views[step - 1],
                                                   card, mine, position, game, samples, seed,
                                                   step))
            elif player == seats[0]:
                forced += 1
            left[player].remove(card)
        sequence.append(card)
        count += value
        if count == _MAX_COUNT:
            count = 0
        scores[player % sides] += points
    return rows, forced, scores


def _review_card(number, seat, deal, hand, sequence, card, score, position, samples, seed,
                 step) -> dict:
    """The row of one card laid: the cards it could have been ranked under the objective
    (``hand`` the four kept, ``sequence`` the cards laid before it with the goes marked)."""
    from .objective import rank_cards

    frame = rank_cards(" ".join(hand), " ".join(sequence), dealer=deal["dealer"] == seat,
                       starter=deal["starter"], thrown=" ".join(deal["discards"][seat]),
                       scores=score, samples=samples, seed=seed)
    value = dict(zip(frame["card"], frame["value"], strict=True))
    best = frame.attrs["best"]
    return _row(number, seat, _role(deal, seat, 2), "play", score, position,
                frame.attrs["objective"], card, best, value[card], value[best], step,
                zip(frame["card"][:TOP], frame["value"][:TOP], strict=True))


def _review_card_forms(number, seat, deal, view, card, score, position, game, samples, seed,
                       step) -> dict:
    """The row of one card laid in five-card, three- or four-player: the cards it could have
    been ranked as the table's hint ranks them (:func:`analyzer.table.objective.rank_cards`
    with the seat's ``view``, the play as the seat API saw it); ``score`` the live scores
    (the seat's side's, the best other side's) for the row."""
    from .objective import rank_cards

    frame = rank_cards(view["hand"], view["played"], dealer=view["dealer"], seat=view["seat"],
                       starter=view["starter"], thrown=view["thrown"], scores=view["scores"],
                       samples=samples, seed=seed, variant=game.name)
    value = dict(zip(frame["card"], frame["value"], strict=True))
    best = frame.attrs["best"]
    return _row(number, seat, _role(deal, seat, game.teams), "play", score, position,
                frame.attrs["objective"], card, best, value[card], value[best], step,
                zip(frame["card"][:TOP], frame["value"][:TOP], strict=True))


def _show_counts(deal, game) -> list[tuple[int, int, bool]]:
    """The show of a deal, in order: (owner seat, true points, crib) for each hand from the
    dealer's left round to the dealer, then the crib, counted from the cards."""
    from ..core.scoring import score_hand

    dealer, n = deal["dealer"], game.players
    out = []
    for owner, crib in (*(((dealer + 1 + k) % n, False) for k in range(n)), (dealer, True)):
        if crib:
            cards = [c for p in range(n) for c in deal["discards"][p]] + deal.get("pack", [])
        else:
            cards = [c for c in deal["hands"][owner] if c not in deal["discards"][owner]]
        out.append((owner, score_hand(" ".join(cards), deal["starter"], crib=crib,
                                      variant="six-card" if crib else game.name), crib))
    return out


def _walk_show(scores, counts, claims, target):
    """The show walked from ``scores`` (after the play, by side; muggins is played by two
    sides): each count pegged to its owner's side as claimed (the smaller of the claim and the
    true count; None: counted by the table), a count too low giving the rest to the other side
    (muggins). Returns the winner (a side, or None) and the scores at its end."""
    s = list(scores)
    sides = len(s)
    for (owner, points, _), claimed in zip(counts, claims, strict=False):
        side = owner % sides
        s[side] += points if claimed is None else min(claimed, points)
        if s[side] >= target:
            return side, s
        if claimed is not None and claimed < points:
            other = (side + 1) % sides
            s[other] += points - claimed
            if s[other] >= target:
                return other, s
    return None, s


def _p_win_after_show(seat, dealer, scores, counts, claims, target) -> float:
    """``seat``'s P(win) after the show walked with ``claims`` (two players: P(win) is the
    two-player six-card game's): 1 or 0 if a side reaches ``target`` in it, else the win-odds
    table at the start of the next deal (the roles swapped)."""
    from ..keeping.winodds import win_probability

    winner, s = _walk_show(scores, counts, claims, target)
    if winner is not None:
        return 1.0 if winner == seat else 0.0
    return win_probability(s[seat], s[1 - seat], seat != dealer)


def _review_counts(number, deal, seats, after_play, game) -> list[dict]:
    """The rows of the muggins counts ``seats`` claimed in one deal (none without muggins): a
    seat's own hand, and the crib when it deals (four-player: the partner's count is the
    table's, no claim). ``after_play`` is by side."""
    from .objective import objective

    claims = deal.get("claims")
    if not claims:
        return []
    counts = _show_counts(deal, game)
    rows = []
    for k, claimed in enumerate(claims):
        owner, points, crib = counts[k]
        if claimed is None or owner not in seats:
            continue
        _, at = _walk_show(after_play, counts[:k], claims[:k], game.target)
        score = _side_scores(at, owner % game.teams)
        goal = objective(score, game.name)
        # too low gives the rest away, unless the count claimed wins the game (as the table)
        given = max(points - claimed, 0) if score[0] + claimed < game.target else 0
        if goal == POINTS:
            done, advised = min(claimed, points), points
        else:
            right = list(claims)
            right[k] = points
            done = _p_win_after_show(owner, deal["dealer"], after_play, counts, claims,
                                     game.target)
            advised = _p_win_after_show(owner, deal["dealer"], after_play, counts, right,
                                        game.target)
        row = _row(number, owner, _role(deal, owner, game.teams), "count", score,
                   "crib" if crib else "hand", goal, str(claimed), str(points), done, advised,
                   100 + k)
        row["given"] = given
        rows.append(row)
    return rows


# --------------------------------------------------------------------------- text


def _seat_name(review: Review, seat: int) -> str:
    name = f"player {seat}"
    if review.seats is not None:  # "player 0 (you)", "player 1 (ev+greedy)"
        name += f" ({review.seats[seat]})"
    return name


def _value(value: float, goal: str, width: int) -> str:
    return f"{value:>{width}.4f}" if goal == P_WIN else f"{value:>{width}.3f}"


def _what(row: dict) -> str:
    if row["kind"] == "discard":
        return "discard"
    if row["kind"] == "count":
        return f"count {row['position']}"
    return "lead" if row["position"] == "lead" else f"lay {row['position']}"


def format_review(review: Review) -> str:
    """The review as plain text, at most 80 columns: a header, one line per decision (saying
    its objective), the summary, and with ``explain`` every seat's decisions with their top
    alternatives. The text of ``crib review``."""
    if not isinstance(review, Review):
        raise TypeError(f"review: the Review that review_game returns, got "
                        f"{type(review).__name__}")
    you = " (you)" if review.seats and review.seats[review.seat] == PERSON else ""
    game = VARIANTS[review.variant]
    seat, sides = review.seat, game.teams
    partner = [s for s in range(game.players) if s != seat and s % sides == seat % sides]
    others = " and ".join(_seat_name(review, s) for s in range(game.players)
                          if s % sides != seat % sides)
    with_ = "".join(f" with {_seat_name(review, s)}" for s in partner)
    lines = _wrapped(f"review of game {review.game} ({review.variant}), player {seat}{you}"
                     f"{with_} against {others}")
    said = "stopped unfinished" if review.unfinished else "played to the end"
    lines.append(f"{review.deals} deal{'' if review.deals == 1 else 's'}, {said}")
    if review.variant == "six-card":
        lines.append("values by objective: points, or P(win) once a player needs 30 or fewer")
    else:
        lines.append(f"values by objective: points (a card reaching {game.target} advised "
                     "first)")
    lines.append(f"simulated: {review.samples:,} samples, seed {review.seed}")
    for note in review.notes:
        lines.extend(_wrapped(f"note: {note}"))
    role = _role_width(review.decisions)
    lines.append(f"{'deal':>4} {'role':<{role}} {'decision':<10} {'done':<11} {'value':>7} "
                 f"{'advised':<11} {'value':>7} {'lost':>6} by")
    for row in review.decisions.to_dict("records"):
        lines.append(_line(row, role))
    lines.append("")
    d = review.decisions
    points = d[d["objective"] == POINTS]
    discards = points[points["kind"] == "discard"]
    plays = points[points["kind"] == "play"]
    lines.append(f"lost by discard   {review.discard_lost:7.3f} points; "
                 f"{int((discards['lost'] > 0).sum())} of {len(discards)} discards in points "
                 "not the best")
    if review.plays_reviewed:
        lines.append(f"lost by the play  {review.play_lost:7.3f} points; "
                     f"{int((plays['lost'] > 0).sum())} of {len(plays)} cards in points not the "
                     "best")
        lines.append(f"cards laid with no choice (not counted): {review.forced}")
    counts = d[d["kind"] == "count"]
    if len(counts):
        lines.append(f"given by muggins  {review.muggins_lost:7.0f} points; "
                     f"{int((counts['given'] > 0).sum())} of {len(counts)} counts too low")
    in_p_win = d[d["objective"] == P_WIN]
    if len(in_p_win):
        lines.append(f"lost to win       {review.p_win_lost:7.4f} P(win); "
                     f"{int((in_p_win['lost'] > 0).sum())} of {len(in_p_win)} decisions in "
                     "P(win) not the best")
    if len(review.decisions):
        agreed = sum(_agrees(row) for row in review.decisions.to_dict("records"))
        lines.append(f"the analyzer's own player (best) chose as you did in {agreed} of "
                     f"{len(review.decisions)} decisions")
    if review.worst is None:
        lines.append("worst decision: none lost points")
    else:
        lines.append("worst decision: " + _describe(review.worst))
    if review.worst_win is not None:
        lines.append("most P(win) lost: " + _describe(review.worst_win))
    if review.others is not None:
        lines.extend(_explained(review))
    return "\n".join(lines)


def _wrapped(text: str) -> list[str]:
    """A line broken at 80 columns, the rest indented."""
    return textwrap.wrap(text, width=80, subsequent_indent="  ", break_on_hyphens=False)


def _role_width(decisions) -> int:
    """The role column's width: 7 when a four-player partner deals in some row, else 6."""
    return 7 if (decisions["role"] == "partner").any() else 6


def _line(row: dict, role: int = 6) -> str:
    goal = row["objective"]
    places = 4 if goal == P_WIN else 3
    # a loss below the places shown says so, rather than 0.000 among the decisions not the best
    lost = (f"{'<.' + '0' * (places - 1) + '1':>6}" if 0 < row["lost"] < 0.5 * 10**-places
            else f"{row['lost']:>6.{places}f}")
    return (f"{row['deal']:>4} {row['role']:<{role}} {_what(row):<10} {row['done']:<11} "
            f"{_value(row['value_done'], goal, 7)} {row['advised']:<11} "
            f"{_value(row['value_advised'], goal, 7)} {lost} {goal}")


def _explained(review: Review) -> list[str]:
    """Every seat's decisions in the order made, each with its top alternatives."""
    lines = ["", f"why: every decision and its top {TOP} by its objective"]
    if review.variant == "three-player":  # three scores: which two are shown
        lines.append("  (at: the seat's own score, then the higher of the other two)")
    mine, others = review.decisions.to_dict("records"), review.others.to_dict("records")
    for seat, k in review._order:
        row = (mine if seat == review.seat else others)[k]
        if row["kind"] == "count":
            continue
        name = "you" if review.seats and review.seats[seat] == PERSON else f"player {seat}"
        verb = "kept" if row["kind"] == "discard" else "laid"
        lines.append(f"{row['deal']:>4} {name:<9} {_what(row):<10} {verb} {row['done']:<12} "
                     f"at {row['score']:<8} by {row['objective']}")
        said = " " * 8 + format_alternatives(row["alternatives"], row["objective"],
                                             row["done"], row["value_done"])
        if len(said) > 80:  # the choice made, when not among the top, on a line of its own
            said = said.replace("  (chosen: ", "\n" + " " * 8 + "(chosen: ")
        lines.extend(said.split("\n"))
    return lines


def _describe(row: dict) -> str:
    """One decision in words, with what it lost under its objective."""
    if row["kind"] == "discard":
        what = f"deal {row['deal']}, kept {row['done']}"
    elif row["kind"] == "count":
        what = f"deal {row['deal']}, counted {row['done']} of {row['advised']} ({row['position']})"
    else:
        where = "to lead" if row["position"] == "lead" else row["position"]
        what = f"deal {row['deal']}, laid {row['done']} {where}"
    if row["objective"] == POINTS:
        if row["kind"] == "count":
            return f"{what}: {row['lost']:.0f} points given away"
        return f"{what}, best {row['advised']}: {row['lost']:.3f} points"
    lost = row["lost"]
    said = "under 0.0001" if 0 < lost < 0.00005 else f"{lost:.4f}"
    if row["kind"] == "count":
        return f"{what}: {said} P(win)"
    return f"{what}, to win {row['advised']}: {said}"
