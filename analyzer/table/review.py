"""Reviewing a recorded game's decisions: where a person's choices cost them, and how much.

:func:`review_game` takes a game record (:mod:`analyzer.sim.records`; ``crib play`` saves one with
``"seats"``, the person's seat named ``"you"``) and goes through the person's decisions in order,
deal by deal, comparing each with the analyzer's advice; :func:`format_review` prints the result
(``crib review``).

**Discards.** From the six cards dealt and the role, every keep is valued as :func:`analyzer.keep`
values it by default (:func:`analyzer.evaluate_discards` gives the same numbers): the kept hand's
exact mean over the 46 starters the player cannot see, plus (dealer) or minus (pone) the crib
value of the two cards thrown from the self-play crib-value table (``crib="table"``), plus the
keep's pegging value from the self-play pegging table (``pegging=True``). The loss is the best
keep's value minus the value of the keep made: expected points, never negative. In five-card
cribbage the same with the form's own rules (``variant="five-card"``: three kept of five, the
47 starters, the form's crib table, no pegging table).

**The score-aware view** (six-card only, as :func:`analyzer.keep_to_win` is). When the scores
before the deal put the end of the game within reach, that is when either player needs at most
:data:`analyzer.play.winkeep.BEST_DISCARD_REACH` points (the rule the engine's ``best`` player uses
to decide when to keep to win), each keep's probability of winning is estimated too
(:func:`analyzer.keep_to_win`, ``samples`` samples of the rest of the deal, seeded), and the
row gives the P(win) of the keep made, of the score-aware keep (``keep_to_win``'s choice: the
points keep unless another wins clearly more often) and the P(win) lost (never negative).

**The play** (the two-player six-card game). For each card the person laid, the position is
rebuilt from the record: the four cards they kept (those laid marked), the cards laid so far in
the deal by both players with the counts ended by goes marked, the starter, the person's two
cards in the crib and the scores at that moment. :func:`analyzer.advise_play` values every card
they could lay by determinized rollouts (``samples`` deals of the opponent's unseen cards,
``seed``: the same review every run): its points now plus the mean pegging for minus against
in the rest of the play. The loss is the advised card's value minus the laid card's. When the
scores at that moment put the end of the game within reach (the same rule as for the discard),
``advise_play`` is asked again with the scores and the row also gives each card's P(win) and
the P(win) lost. A card laid when no other could be (one legal card) is not a decision: it is
counted in :attr:`Review.forced` and has no row. ``advise_play`` covers the two-player six-card
play only: in five-card records the play is not reviewed (:attr:`Review.notes` says so), nor in
the three- and four-player games, whose discards (one card thrown of five) are valued with the
crib counted for the dealer's side (the person's, when the partner deals).

A game stopped before its end (``"unfinished": true``) has its complete deals reviewed; the deal
it stopped in (``"partial_deal"``) is not, as its decisions are not all made. In a finished game
the last deal stops at the winning moment, and the decisions made before it are reviewed. The
decisions taken back (``"undos"``) are not in the record: the review sees the ones that stood.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.choices import ADVISE_SAMPLES
from ..core.game import VARIANTS
from ..sim.records import RecordError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["COLUMNS", "PERSON", "Review", "format_review", "review_game"]

#: The seat name of the person in a record's ``"seats"``.
PERSON = "you"

#: The columns of :attr:`Review.decisions`, one row per decision.
COLUMNS = ("deal", "role", "kind", "score", "position", "done", "advised", "value_done",
           "value_advised", "lost", "score_aware", "advised_to_win", "p_win_done",
           "p_win_advised", "p_win_lost", "best")

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
        ``"partner"`` when a four-player partner deals), ``kind`` (``"discard"`` or
        ``"play"``), ``score`` (the player's side's score and the best other side's at the
        decision, e.g. ``"57-60"``), ``position`` (the cards dealt for a discard; for a play
        ``"lead"`` or ``"on N"``, the count), ``done`` (the cards kept, or the card laid),
        ``advised`` (the best keep, or the advised card), ``value_done`` and ``value_advised``
        (their values in expected points), ``lost`` (the difference, >= 0), ``score_aware``
        (whether the end of the game was within reach), and for those rows ``advised_to_win``
        (the score-aware keep or card), ``p_win_done``, ``p_win_advised`` and ``p_win_lost``
        (>= 0); empty text and NaN in the other rows. ``best``: what the analyzer's own
        player, the engine's ``best``, keeps or lays there, asked through the seat API
        (:mod:`analyzer.play.seat`) with what the seat knew, drawing from ``seed``.
    discard_lost, play_lost
        Total expected points lost by the discards and by the cards laid.
    worst
        The row (a dict) of the decision that lost most points, or None if none lost any.
    worst_win
        The score-aware row that lost most P(win), or None if none lost any.
    game, seat, variant, seats, unfinished, deals
        The game's number, the seat reviewed, the form, the seat names (None if the record has
        none), whether the game was stopped before its end, the deals in the record.
    forced
        Cards the player laid with no choice (one legal card): not decisions, no rows.
    plays_reviewed
        Whether the cards laid are reviewed (the six-card game only).
    notes
        What the review leaves out, in words (empty when nothing).
    samples, seed
        The samples and the seed of the simulations (score-aware keeps and the play).
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

    def to_dict(self) -> dict:
        """The review as plain JSON-ready values (NaN as None), the rows under ``decisions``."""
        rows = [{k: _plain(v) for k, v in row.items()}
                for row in self.decisions.to_dict("records")]
        return {"game": self.game, "seat": self.seat, "variant": self.variant,
                "seats": None if self.seats is None else list(self.seats),
                "unfinished": self.unfinished, "deals": self.deals, "samples": self.samples,
                "seed": self.seed, "plays_reviewed": self.plays_reviewed,
                "notes": list(self.notes), "discard_lost": self.discard_lost,
                "play_lost": self.play_lost, "forced": self.forced,
                "worst": None if self.worst is None else {k: _plain(v)
                                                          for k, v in self.worst.items()},
                "worst_win": None if self.worst_win is None else {
                    k: _plain(v) for k, v in self.worst_win.items()},
                "decisions": rows}


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
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(f"seat must be 0 to {players - 1}, got {seat!r}")
    return seat


def review_game(record: dict, seat: int | None = None, *, samples: int = ADVISE_SAMPLES,
                seed: int = 0) -> Review:
    """Review one player's decisions in a recorded game (see the module docstring).

    Parameters
    ----------
    record
        A game record (:mod:`analyzer.sim.records`, format 1 or the five-card game's format 2), as
        :func:`analyzer.read_records` reads it; checked with
        :func:`analyzer.sim.records.validate_record`.
    seat
        The seat to review, 0 or 1; by default the seat named ``"you"`` in ``record["seats"]``.
    samples
        Samples of each simulation: the rest of the deal for a score-aware keep
        (:func:`analyzer.keep_to_win`, rounded up to a multiple of 64) and the opponent's unseen
        cards for each card laid (:func:`analyzer.advise_play`). 1 to 1,000,000.
    seed
        Seed of every simulation: the same record, seat, samples and seed give the same review.

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
    >>> review.seat, bool((review.decisions.query("kind == 'discard'")["lost"] < 1e-9).all())
    (0, True)
    """
    import pandas as pd

    from ..core.choices import MAX_SEED, check_number
    from ..core.game import STANDARD
    from ..sim.records import _record_game, validate_record

    if not isinstance(record, dict):
        raise RecordError(f"a game record is a dict, got {type(record).__name__}")
    validate_record(record)
    game = _record_game(record)
    seat = _person_seat(record, seat, game.players)
    samples = check_number("samples", samples, low=1, high=1_000_000, integer=True)
    seed = check_number("seed", seed, low=0, high=MAX_SEED, integer=True)
    six_card = game == STANDARD
    side, sides = seat % game.teams, game.teams
    scores = list(record.get("start", [0] * sides))
    rows: list[dict] = []
    forced = 0
    for number, deal in enumerate(record["deals"], start=1):
        dealer = deal["dealer"] % sides == side  # the crib is the seat's side's
        mine = (scores[side], max(scores[s] for s in range(sides) if s != side))
        rows.append(_review_discard(number, deal["hands"][seat], deal["discards"][seat], dealer,
                                    game, mine, samples, seed))
        if dealer and deal["dealer"] != seat:
            rows[-1]["role"] = "partner"  # four-player: the partner deals, the crib is theirs
        if six_card:
            played, n_forced = _review_plays(number, deal, seat, scores, samples, seed)
            rows.extend(played)
            forced += n_forced
        scores = list(deal["scores"])
    _add_best(rows, record, seat, seed)
    notes = () if six_card else ("the play is not reviewed (the play advice is the six-card "
                                 "game's)",)
    if game.players > 2:
        notes = ("the discards only (the play advice is the two-player six-card game's)",)
    decisions = pd.DataFrame(rows, columns=list(COLUMNS))
    decisions["deal"] = decisions["deal"].astype("int64")
    decisions["score_aware"] = decisions["score_aware"].astype(bool)
    for column in ("value_done", "value_advised", "lost", "p_win_done", "p_win_advised",
                   "p_win_lost"):
        decisions[column] = decisions[column].astype("float64")
    by_kind = decisions.groupby("kind")["lost"].sum()
    worst = worst_win = None
    if len(decisions) and decisions["lost"].max() > 0:
        worst = decisions.loc[decisions["lost"].idxmax()].to_dict()
    aware = decisions[decisions["score_aware"]]
    if len(aware) and aware["p_win_lost"].max() > 0:
        worst_win = aware.loc[aware["p_win_lost"].idxmax()].to_dict()
    seats = record.get("seats")
    return Review(decisions=decisions, discard_lost=float(by_kind.get("discard", 0.0)),
                  play_lost=float(by_kind.get("play", 0.0)), worst=worst, worst_win=worst_win,
                  game=record["game"], seat=seat, variant=game.name,
                  seats=None if seats is None else tuple(seats),
                  unfinished=bool(record.get("unfinished", False)),
                  deals=len(record["deals"]), forced=forced, plays_reviewed=six_card,
                  notes=notes, samples=samples, seed=seed)


def _add_best(rows: list[dict], record: dict, seat: int, seed: int) -> None:
    """Fill each row's ``best``: the choice of the engine's ``best`` player in that position,
    from the seat API, asked with the seat's view of the record
    (:func:`analyzer.sim.records.decisions`)."""
    from ..core.cards import format_card
    from ..play.seat import discard, lay
    from ..sim.records import decisions

    choices = {}
    for d in decisions(record):
        if d["seat"] != seat:
            continue
        if d["kind"] == "discard":
            thrown = discard("best", **d["view"], seed=seed)
            choices[d["deal"] + 1, "discard"] = " ".join(
                format_card(c) for c in d["view"]["hand"] if c not in thrown)
        elif d["answer"] is not None:
            card = lay("best", **d["view"], seed=seed)
            choices[d["deal"] + 1, format_card(d["answer"])] = \
                "go" if card is None else format_card(card)
    for row in rows:
        row["best"] = choices[row["deal"], "discard" if row["kind"] == "discard" else row["done"]]


def _agrees(row: dict) -> bool:
    return _cards_key(row["done"]) == _cards_key(row["best"])


def _within_reach(me: int, opp: int, target: int) -> bool:
    """Whether the game can end in this deal by the engine's ``best`` rule: a player needs at
    most :data:`analyzer.play.winkeep.BEST_DISCARD_REACH` points."""
    from ..play.winkeep import BEST_DISCARD_REACH

    return target - me <= BEST_DISCARD_REACH or target - opp <= BEST_DISCARD_REACH


def _row(number, dealer, kind, score, position, done, advised, value_done, value_advised):
    return {"deal": number, "role": "dealer" if dealer else "pone", "kind": kind,
            "score": f"{score[0]}-{score[1]}", "position": position, "done": done,
            "advised": advised, "value_done": float(value_done),
            "value_advised": float(value_advised),
            "lost": max(float(value_advised) - float(value_done), 0.0), "score_aware": False,
            "advised_to_win": "", "p_win_done": math.nan, "p_win_advised": math.nan,
            "p_win_lost": math.nan, "best": ""}


def _cards_key(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _review_discard(number, hand, thrown, dealer, game, score, samples, seed) -> dict:
    """The row of one discard: the keep made against the best by :func:`analyzer.keep`'s
    default value, and in the score-aware case by :func:`analyzer.keep_to_win`."""
    from ..core.game import STANDARD
    from ..keeping.discard import keep

    kept = _cards_key(" ".join(c for c in hand if c not in thrown))
    points = keep(hand, dealer, variant=game.name)  # crib "table", pegging counted (six-card)
    keeps = [_cards_key(k) for k in points["keep"]]
    made = keeps.index(kept)
    row = _row(number, dealer, "discard", score, " ".join(hand), points["keep"].iloc[made],
               points["keep"].iloc[0], points["net"].iloc[made], points["net"].iloc[0])
    if game == STANDARD and _within_reach(*score, game.target):
        from ..play.winkeep import keep_to_win

        wins = keep_to_win(hand, dealer, score, samples=samples, seed=seed)
        p_win = dict(zip((_cards_key(k) for k in wins["keep"]), wins["p_win"], strict=True))
        advised = wins.attrs["win_keep"]
        row.update(score_aware=True, advised_to_win=advised,
                   p_win_done=float(p_win[kept]),
                   p_win_advised=float(p_win[_cards_key(advised)]))
        row["p_win_lost"] = max(row["p_win_advised"] - row["p_win_done"], 0.0)
    return row


def _review_plays(number, deal, seat, scores_before, samples, seed) -> tuple[list[dict], int]:
    """The rows of the cards ``seat`` laid in one deal of the six-card game, and how many it laid
    with no choice. Each position is rebuilt from the record and given to
    :func:`analyzer.advise_play`."""
    from ..core.cards import card_value, parse_card
    from ..play.search import advise_play

    dealer = deal["dealer"] == seat
    hand = [c for c in deal["hands"][seat] if c not in deal["discards"][seat]]
    left = list(hand)
    scores = list(scores_before)
    scores[deal["dealer"]] += deal["heels"]
    sequence: list[str] = []  # the cards laid, "go" where a count ended by goes
    count = 0
    rows = []
    forced = 0
    for player, card, points in deal["plays"]:
        value = card_value(parse_card(card))
        if count + value > _MAX_COUNT:  # nobody could lay: the count ended by goes
            sequence.append("go")
            count = 0
        if player == seat:
            legal = [c for c in left if count + card_value(parse_card(c)) <= _MAX_COUNT]
            if len(legal) > 1:
                mine = (scores[seat], scores[1 - seat])
                position = "lead" if count == 0 else f"on {count}"
                rows.append(_review_card(number, dealer, hand, deal["discards"][seat],
                                         deal["starter"], sequence, card, mine, position,
                                         samples, seed, advise_play))
            else:
                forced += 1
            left.remove(card)
        sequence.append(card)
        count += value
        if count == _MAX_COUNT:
            count = 0
        scores[player] += points
    return rows, forced


def _review_card(number, dealer, hand, thrown, starter, sequence, card, score, position,
                 samples, seed, advise_play) -> dict:
    """The row of one card laid: its value against the advised card's, by ``advise_play``
    (``hand`` the four kept, ``thrown`` the two in the crib, ``sequence`` the cards laid before
    it with the goes marked)."""
    from ..core.rules import GAME_POINTS

    kwargs = {"dealer": dealer, "starter": starter, "thrown": " ".join(thrown),
              "samples": samples, "seed": seed}
    played = " ".join(sequence)
    advice = advise_play(" ".join(hand), played, **kwargs)
    total = dict(zip(advice["card"], advice["total"], strict=True))
    best = advice.attrs["best"]
    row = _row(number, dealer, "play", score, position, card, best, total[card], total[best])
    if _within_reach(*score, GAME_POINTS):
        aware = advise_play(" ".join(hand), played, score=score, **kwargs)
        p_win = dict(zip(aware["card"], aware["p_win"], strict=True))
        to_win = aware.attrs["best"]
        row.update(score_aware=True, advised_to_win=to_win, p_win_done=float(p_win[card]),
                   p_win_advised=float(p_win[to_win]))
        row["p_win_lost"] = max(row["p_win_advised"] - row["p_win_done"], 0.0)
    return row


# --------------------------------------------------------------------------- text


def _seat_name(review: Review, seat: int) -> str:
    name = f"player {seat}"
    if review.seats is not None and review.seats[seat] != PERSON:
        name += f" ({review.seats[seat]})"
    return name


def format_review(review: Review) -> str:
    """The review as plain text, at most 80 columns: a header, one line per decision (and a
    second for a score-aware one), and the summary. The text of ``crib review``."""
    you = " (you)" if review.seats and review.seats[review.seat] == PERSON else ""
    game = VARIANTS[review.variant]
    seat, sides = review.seat, game.teams
    partner = [s for s in range(game.players) if s != seat and s % sides == seat % sides]
    others = " and ".join(_seat_name(review, s) for s in range(game.players)
                          if s % sides != seat % sides)
    with_ = "".join(f" with {_seat_name(review, s)}" for s in partner)
    lines = textwrap.wrap(f"review of game {review.game} ({review.variant}), player {seat}{you}"
                          f"{with_} against {others}", width=80, subsequent_indent="  ",
                          break_on_hyphens=False)
    said = "stopped unfinished" if review.unfinished else "played to the end"
    lines.append(f"{review.deals} deals, {said}; values in expected points")
    if review.variant == "six-card":
        lines.append(f"simulated: {review.samples:,} samples, seed {review.seed}")
    lines.extend(f"note: {note}" for note in review.notes)
    role = 7 if (review.decisions["role"] == "partner").any() else 6  # four-player's
    lines.append(f"{'deal':>4} {'role':<{role}} {'decision':<11} {'done':<11} {'value':>7} "
                 f"{'advised':<11} {'value':>7} {'lost':>6}")
    for row in review.decisions.to_dict("records"):
        what = "discard" if row["kind"] == "discard" else (
            "lead" if row["position"] == "lead" else f"lay {row['position']}")
        lines.append(f"{row['deal']:>4} {row['role']:<{role}} {what:<11} {row['done']:<11} "
                     f"{row['value_done']:>7.3f} {row['advised']:<11} "
                     f"{row['value_advised']:>7.3f} {row['lost']:>6.3f}")
        if row["score_aware"]:
            lines.append(f"{'':>12}at {row['score']}: P(win) {row['p_win_done']:.4f}; to win "
                         f"{row['advised_to_win']} {row['p_win_advised']:.4f}, lost "
                         f"{row['p_win_lost']:.4f}")
    lines.append("")
    d = review.decisions
    discards = d[d["kind"] == "discard"]
    plays = d[d["kind"] == "play"]
    lines.append(f"lost by discard   {review.discard_lost:7.3f} points; "
                 f"{int((discards['lost'] > 0).sum())} of {len(discards)} discards not the best "
                 "keep")
    if review.plays_reviewed:
        lines.append(f"lost by the play  {review.play_lost:7.3f} points; "
                     f"{int((plays['lost'] > 0).sum())} of {len(plays)} cards not the advised "
                     "one")
        lines.append(f"cards laid with no choice (not counted): {review.forced}")
    if len(review.decisions):
        agreed = sum(_agrees(row) for row in review.decisions.to_dict("records"))
        lines.append(f"the analyzer's own player (best) chose as you did in {agreed} of "
                     f"{len(review.decisions)} decisions")
    if review.worst is None:
        lines.append("worst decision: none lost points")
    else:
        lines.append("worst decision: " + _describe(review.worst, "lost"))
    if review.worst_win is not None:
        lines.append("most P(win) lost: " + _describe(review.worst_win, "p_win_lost"))
    return "\n".join(lines)


def _describe(row: dict, measure: str) -> str:
    """One decision in words, with what it lost by ``measure`` (``"lost"``: points; else
    P(win))."""
    if row["kind"] == "discard":
        what = f"deal {row['deal']}, kept {row['done']}"
    else:
        where = "to lead" if row["position"] == "lead" else row["position"]
        what = f"deal {row['deal']}, laid {row['done']} {where}"
    if measure == "lost":
        return f"{what}, best {row['advised']}: {row['lost']:.3f} points"
    lost = row["p_win_lost"]
    said = "under 0.0001" if 0 < lost < 0.00005 else f"{lost:.4f}"
    return f"{what}, to win {row['advised_to_win']}: {said}"
