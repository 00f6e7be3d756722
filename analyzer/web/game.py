"""The game against the AI in the browser, stateless: each request replays the game from its moves.

A game is fully determined by its variant, the opponent's player spec, the seed, who deals first,
muggins and the person's moves so far: :class:`analyzer.table.tabletop.Table` with the same seed
and the same answers plays the same game (a person's decisions draw nothing from the state). So the
server keeps nothing. :func:`game_answer` builds the table with the person in seat 0 and the AI
in seat 1, answers each of the person's decisions from the moves (:class:`_Scripted`), and stops
at the first decision it has no move for; the answer is the events so far, the table as the
person sees it and what is asked next. :func:`game_record` gives the record of the game
(:meth:`Table.record`) for ``crib replay``.

Moves are text, one token a decision, separated by spaces or commas: a throw is its cards joined
by ``-`` (``5H-JC``), a card laid is the card (``7D``), and with muggins a count is a number
(``12``). A go is no move: it is said for the person whenever no card of theirs fits (a ``go``
token there, as moves were written when the page asked for each go, is read as that go). A move
that does not fit its decision is an :class:`InputError` on ``moves`` naming the move, its
number and why.

Every form is played: two-player six-card and five-card, three-player (you and two AIs) and
four-player (you and an AI partner against two AIs), the AIs at a level of
:mod:`analyzer.table.levels` or by a player spec. The answer also says what the page shows
beside the table: the pegs of each side (front and back), each show's count phrase by phrase
(:func:`analyzer.core.counting.say_count_steps`), whether the last decision may be taken back
(:meth:`Table.undo_refused`, and the moves to keep if so), and on request the AIs' choices in
the last deal explained (:func:`game_why`, :func:`analyzer.table.review.explain_deal`) and the
review of a finished game (:func:`game_review`, :func:`analyzer.table.review.review_game`).
"""

from __future__ import annotations

import re

from ..core.cards import CardError, format_card, parse_card
from ..core.choices import ADVISE_SAMPLES, VARIANT_NAMES
from .answers import InputError

__all__ = ["ASKS", "MAX_MOVES", "OPPONENTS", "SEAT_NAMES", "game_answer", "game_record",
           "game_review", "game_why", "parse_moves", "replay_record", "review_record"]

#: What the person is asked: ``throw`` (cards to the crib), ``lay`` (a card on the count),
#: ``count`` (muggins: the points of a hand or crib), ``over``. A go is never asked: when no card
#: of the person's fits, the go is said for them, as ``crib play`` says it by default.
ASKS = ("throw", "lay", "count", "over")
#: The most moves a request may carry (a game has far fewer: about 60 to 121 points).
MAX_MOVES = 400
#: The opponents the page offers (any player spec of :func:`analyzer.core.choices.parse_player` is
#: taken).
OPPONENTS = ("best", "ev+lookahead", "ev+greedy", "random+random")
#: The AIs' player when neither an opponent nor a level is named: the strongest.
DEFAULT_OPPONENT = "best"
#: The seats' names by the number of players, seat 0 (the person) first: as ``crib play`` says
#: them (``analyzer/cli/seating.py``, a face above this one).
SEAT_NAMES = {2: ("you", "the AI"), 3: ("you", "West", "East"),
              4: ("you", "West", "your partner", "East")}
_FIRST = {"cut": "cut", "you": 0, "ai": 1}


class _Ask(Exception):  # noqa: N818 - a signal, not an error
    """The replay has reached a decision with no move for it."""

    def __init__(self, kind: str, detail: dict | None = None):
        super().__init__(kind)
        self.kind = kind
        self.detail = detail or {}


def parse_moves(text: str) -> list[str]:
    """The move tokens of ``text`` (spaces or commas between them), upper-cased but ``go``."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if len(tokens) > MAX_MOVES:
        raise InputError("moves", f"{len(tokens)} moves: a game has at most {MAX_MOVES}")
    return [t.lower() if t.lower() == "go" else t.upper() for t in tokens]


class _Scripted:
    """The person of a replay: each decision is the next move
    (:class:`analyzer.table.tabletop.Person`)."""

    def __init__(self, moves: list[str]):
        self.moves = moves
        self.used = 0
        self.decided: list[int] = []  # the move number (1, 2, ...) of each decision, a go none

    def _next(self, kind: str, detail: dict | None = None) -> tuple[int, str]:
        if self.used >= len(self.moves):
            raise _Ask(kind, detail)
        self.used += 1
        return self.used, self.moves[self.used - 1]

    @staticmethod
    def _bad(k: int, move: str, why: str):
        return InputError("moves", f"move {k} {move!r}: {why}")

    def _card(self, k: int, move: str, token: str) -> int:
        try:
            return parse_card(token)
        except (CardError, ValueError) as exc:
            raise self._bad(k, move, str(exc)) from None

    def discard(self, table, seat: int) -> list[int]:
        k, move = self._next("throw")
        n = table.game.thrown
        hand = table.hand(seat)
        if move == "go":
            raise self._bad(k, move, f"throw {n} cards to the crib, not go")
        cards = [self._card(k, move, t) for t in move.split("-")]
        if len(cards) != n or len(set(cards)) != n:
            raise self._bad(k, move, f"a throw is {n} different cards joined by '-' (e.g. "
                            f"{'-'.join(format_card(c) for c in hand[:n])})")
        for c in cards:
            if c not in hand:
                raise self._bad(k, move, f"{format_card(c)} is not in your hand "
                                f"({' '.join(format_card(h) for h in hand)})")
        self.decided.append(k)
        return cards

    def lay(self, table, seat: int) -> int | None:
        legal = table.legal(seat)
        if not legal:  # no card fits: the go is said for the person, who is not asked
            if self.used < len(self.moves) and self.moves[self.used] == "go":
                self.used += 1  # a game of moves written when each go was asked: said here
            return None
        k, move = self._next("lay")
        if move == "go":
            raise self._bad(k, move, f"you cannot say go: "
                            f"{' '.join(format_card(c) for c in legal)} fit")
        card = self._card(k, move, move)
        if card not in legal:
            where = ("is not in your hand" if card not in table.hand(seat) else
                     f"makes {table.count + _value(card)}, over 31")
            raise self._bad(k, move, f"{format_card(card)} {where}")
        self.decided.append(k)
        return card

    def claim(self, table, seat: int, cards: list[int], crib: bool) -> int:
        k, move = self._next("count", {"cards": [format_card(c) for c in cards],
                                       "crib": bool(crib),
                                       "starter": format_card(table.starter)})
        if not (move.isascii() and move.isdigit()) or int(move) > 29:  # not ٣ or ³
            raise self._bad(k, move, "a count is a whole number of points, 0 to 29")
        self.decided.append(k)
        return int(move)


def _value(card: int) -> int:
    from ..core.cards import card_value

    return int(card_value(card))


def _items(items) -> list[dict]:
    return [{"kind": i.kind, "cards": [format_card(c) for c in i.cards], "points": int(i.points)}
            for i in items]


def _event(event: dict) -> dict:
    """An event of the table for the page: cards as text, the AI's discard hidden, the items of
    a count with the words said at the table."""
    from ..core.counting import say_count, say_count_steps, say_peg

    kind = event["kind"]
    out = {k: v for k, v in event.items() if k != "items"}
    for key in ("card", "starter"):
        if out.get(key) is not None:
            out[key] = format_card(out[key])
    for key in ("cards", "kept", "thrown"):
        if key in out:
            out[key] = [format_card(c) for c in out[key]]
    if kind == "discard" and event["seat"] != 0:
        out.pop("kept")
        out.pop("thrown")
    if kind == "lay":
        out["items"] = _items(event["items"])
        out["said"] = say_peg(event["count"], event["items"])
    if kind == "show":
        out["items"] = _items(event["items"])
        out["said"] = say_count(event["items"])
        out["steps"] = [{"said": step.said, "total": int(step.total),
                         "cards": [format_card(c) for c in  # by rank: a run in order
                                   sorted({c for i in step.items for c in i.cards})]}
                        for step in say_count_steps(event["items"])]
        out["missed"] = [_items(s) for s in event.get("missed", [])]
    return out


def _check(variant: str, opponent: str, seed: int, first: str) -> None:
    from ..core.choices import parse_player

    if variant not in VARIANT_NAMES:
        raise InputError("variant", f"unknown variant {variant!r}: one of "
                         f"{', '.join(VARIANT_NAMES)}")
    try:
        parse_player(opponent)
    except ValueError as exc:
        raise InputError("opponent", str(exc).splitlines()[0] if str(exc) else
                         f"unknown opponent {opponent!r}") from None
    if not 0 <= int(seed) < 2**63:
        raise InputError("seed", f"seed {seed} is out of range 0..2**63-1")
    if first not in _FIRST:
        raise InputError("first", f"unknown first dealer {first!r}: cut, you or ai")


def _opponent(opponent: str | None, level: str | None) -> tuple[str, str | None]:
    """The AIs' player spec and the level's name: the level's player when a level is named
    (in any case), the opponent's when it is, else ``best``; not both, as ``crib play`` takes
    ``--level`` or ``--opponent``."""
    from ..table.levels import LevelError, find_level

    if not level:  # none, or blank
        return (DEFAULT_OPPONENT if opponent is None else opponent), None
    if opponent:  # a blank one is none, as a blank level is
        raise InputError("level", f"a level or an opponent, not both: level {level!r} and "
                         f"opponent {opponent!r}")
    try:
        found = find_level(level)
    except LevelError as exc:
        raise InputError("level", str(exc)) from None
    return found.player, found.name


def _replay(variant: str, opponent: str | None, seed: int, first: str, muggins: bool, moves: str,
            level: str | None = None):
    """The table replayed to the first decision without a move: (table, person, events, ask).
    ``opponent`` and ``level`` as :func:`game_answer` takes them."""
    from ..core.choices import variant_game
    from ..table.tabletop import Table

    opponent, level = _opponent(opponent, level)
    _check(variant, opponent, seed, first)
    opponent = opponent.strip().lower()  # as the players read it, and crib play writes it
    game = variant_game(variant)
    if muggins and game.teams != 2:
        raise InputError("muggins", f"muggins is played by two sides, not in {variant}")
    person = _Scripted(parse_moves(moves))
    events: list[dict] = []
    table = Table((person, *[opponent] * (game.players - 1)), variant=variant, seed=int(seed),
                  first=_FIRST[first], muggins=bool(muggins), emit=events.append, level=level,
                  names=SEAT_NAMES[game.players])
    try:
        table.play()
    except _Ask as ask:
        return table, person, events, ask
    if person.used < len(person.moves):
        k = person.used + 1
        raise InputError("moves", f"move {k} {person.moves[k - 1]!r}: the game is over")
    return table, person, events, _Ask("over")


def _pegs(events: list[dict], sides: int) -> list[list[int]]:
    """Each side's pegs, ``[front, back]``: the front peg in the hole of the score, the back peg
    in the hole of the score before the side's last points (0: off the board)."""
    pegs = [[0, 0] for _ in range(sides)]
    for event in events:
        for side, score in enumerate(event.get("scores") or []):
            if score != pegs[side][0]:
                pegs[side] = [int(score), pegs[side][0]]
    return pegs


def game_answer(variant: str = "six-card", opponent: str | None = None, seed: int = 0,
                first: str = "cut", muggins: bool = False, moves: str = "", since: int = 0,
                advice: bool = False, level: str | None = None) -> dict:
    """The game replayed from its moves, stopped at the person's next decision.

    Parameters
    ----------
    variant
        ``"six-card"``, ``"five-card"``, ``"three-player"`` or ``"four-player"``.
    opponent
        The AIs' player spec (``"best"``, ``"ev+lookahead"``, ...; None: ``"best"``, or the
        level's player).
    seed
        The game's seed (:class:`analyzer.table.tabletop.Table`).
    first
        ``"cut"``, ``"you"`` or ``"ai"``: who deals first.
    muggins
        You count your own hands and crib.
    moves
        Your moves so far (see the module).
    since
        Give the events from this index on (the page asks for the new ones).
    advice
        Add the analyzer's advice for the decision asked (keeps, or cards to lay, in every
        form: :func:`analyzer.table.tabletop.play_advice`).
    level
        A level of :mod:`analyzer.table.levels` (``"Beginner"`` ..., any case): the AIs play
        as its player, in place of ``opponent`` (an :class:`InputError` with both).

    Returns
    -------
    dict
        ``game`` (the parameters, ``moves`` as a list), ``events`` (from ``since``), ``n_events``,
        ``ask`` (:data:`ASKS`) with ``ask_detail`` (a count's cards), ``state`` (``hand``,
        ``legal``, ``count``, ``count_cards``, ``played``, ``scores`` [you, AI], ``starter``,
        ``dealer`` and ``crib`` as ``"you"``/``"ai"``, ``target``, ``skunk_lines``, ``winner``),
        and with ``advice`` an ``advice`` list: for a throw the best keeps under the objective
        of the position (:func:`analyzer.table.tabletop.keep_advice`, as the terminal's ``?``
        and the review rank them: ``keep``, ``discard``, ``net``, ``hand``, ``crib`` (the
        crib's expected points, counted for you or against you as ``state["crib"]`` says:
        ``net`` is ``hand`` plus or minus ``crib``, plus ``peg``, the play, 0 outside
        six-card), ``p_win`` (under P(win) only, else None), ``objective``), for a card each
        card that fits, best first (``card``, ``now``, ``rest``, ``total``, ``p_win``,
        ``wins_now``: it reaches the target; ``objective``).

    Examples
    --------
    >>> answer = game_answer("six-card", "best", seed=3, first="you")
    >>> answer["ask"], len(answer["state"]["hand"])
    ('throw', 6)
    """
    table, person, events, ask = _replay(variant, opponent, seed, first, muggins, moves, level)
    game = table.game
    who = ("you", "ai")
    dealer = next((e["dealer"] for e in reversed(events) if e["kind"] == "deal"), None)
    refused = table.undo_refused() if ask.kind != "over" else "the game is over"
    state = {
        "hand": [format_card(c) for c in (table.hand(0) if dealer is not None else [])],
        "legal": [format_card(c) for c in table.legal(0)] if ask.kind == "lay" else [],
        "count": table.count, "count_cards": [format_card(c) for c in table.count_cards],
        "played": [format_card(c) for c in table.played],
        "scores": [int(s) for s in table.scores],
        "starter": format_card(table.starter) if table.starter is not None else None,
        "dealer": (who[min(dealer, 1)] if dealer is not None else None),  # of this deal
        "crib": (who[min(table.side(dealer), 1)] if dealer is not None else None),
        "target": game.target,
        "skunk_lines": list(game.skunk_lines[:game.skunk_tiers]),  # five-card: [31]
        "winner": (who[min(table.winner, 1)] if table.winner is not None else None),
        "players": game.players, "names": list(SEAT_NAMES[game.players]), "sides": game.teams,
        "dealer_seat": dealer, "winner_side": table.winner, "thrown": game.thrown,
        "pegs": _pegs(events, game.teams),
        "undo": {"moves": None if refused else person.decided[-1] - 1, "refused": refused},
    }
    out = {
        "game": {"variant": game.name, "opponent": table.seats[1], "level": table.level,
                 "seed": int(seed), "first": first, "muggins": bool(muggins),
                 "moves": person.moves},
        "events": [_event(e) for e in events[max(0, int(since)):]],
        "n_events": len(events),
        "ask": ask.kind,
        "ask_detail": ask.detail,
        "state": state,
    }
    if advice:
        out["advice"] = _advice(table, ask.kind)
    return out


def _advice(table, ask: str) -> list[dict] | None:
    from ..table.objective import P_WIN
    from ..table.tabletop import keep_advice, play_advice

    if ask == "throw":  # as the terminal's `?` and the review rank these keeps
        frame = keep_advice(table, 0)
        goal = frame.attrs["objective"]
        return [{"keep": r.keep.split(), "discard": r.discard.split(), "net": float(r.net),
                 "hand": float(r.hand_mean), "crib": float(r.crib_mean),
                 "peg": float(r.peg_mean),
                 "p_win": float(r.p_win) if goal == P_WIN else None, "objective": goal}
                for r in frame.itertuples(index=False)]
    if ask == "lay":  # the samples of the terminal's `?` and the review: their values
        frame = play_advice(table, 0)
        has_p_win = "p_win" in frame
        return [{"card": str(r.card), "now": int(r.now), "rest": float(r.rest),
                 "total": float(r.total),
                 "p_win": float(r.p_win) if has_p_win else None,
                 "wins_now": bool(getattr(r, "wins_now", False)),
                 "objective": frame.attrs["objective"]}
                for r in frame.itertuples(index=False)]
    return None


def replay_record(variant: str = "six-card", opponent: str | None = None, seed: int = 0,
                  first: str = "cut", muggins: bool = False, moves: str = "",
                  level: str | None = None) -> dict:
    """The record of the game (:meth:`analyzer.table.tabletop.Table.record`, ``"unfinished"``
    before its end) replayed from its moves."""
    table, _, _, _ = _replay(variant, opponent, seed, first, muggins, moves, level)
    return table.record()


def game_record(variant: str = "six-card", opponent: str | None = None, seed: int = 0,
                first: str = "cut", muggins: bool = False, moves: str = "",
                level: str | None = None) -> str:
    """The record of the game (:meth:`analyzer.table.tabletop.Table.record`, ``"unfinished"`` before
    its end) as one line of JSON Lines, as ``crib play`` saves it and ``crib replay`` reads it."""
    import json

    record = replay_record(variant, opponent, seed, first, muggins, moves, level)
    return json.dumps(record, separators=(",", ":")) + "\n"


def game_why(variant: str = "six-card", opponent: str | None = None, seed: int = 0,
             first: str = "cut", muggins: bool = False, moves: str = "",
             level: str | None = None, samples: int = ADVISE_SAMPLES) -> dict:
    """The AIs' choices in the last deal whose show is over, each with its top alternatives, as
    ``why`` in ``crib play`` says them (:func:`analyzer.table.review.explain_deal`): ``deal``
    (None before the first show: the AI's cards are not seen yet) and ``rows``, each with
    ``seat``, ``name``, ``kind`` (``discard`` or ``play``), ``position``, ``done``,
    ``objective`` and ``alternatives`` (``[[choice, value], ...]``, best first) and ``said``,
    the alternatives in one line (:func:`analyzer.table.objective.format_alternatives`); with
    the terminal's samples, so the same values as its ``why``."""
    from ..table.objective import format_alternatives
    from ..table.review import explain_deal

    table, _, _, _ = _replay(variant, opponent, seed, first, muggins, moves, level)
    record = table.record()
    number = len(record["deals"])
    if not number:
        return {"deal": None, "rows": []}
    names = SEAT_NAMES[table.game.players]
    rows = []
    for seat in (p for p, ai in enumerate(table.ai) if ai):
        for row in explain_deal(record, number, seat, samples=samples):
            alternatives = [[str(c), float(v)] for c, v in row["alternatives"]]
            rows.append({"seat": seat, "name": names[seat], "kind": row["kind"],
                         "position": str(row["position"]), "done": str(row["done"]),
                         "objective": row["objective"], "alternatives": alternatives,
                         "said": format_alternatives(alternatives, row["objective"],
                                                     str(row["done"]), row["value_done"])})
    return {"deal": number, "rows": rows}


def game_review(variant: str = "six-card", opponent: str | None = None, seed: int = 0,
                first: str = "cut", muggins: bool = False, moves: str = "",
                level: str | None = None, samples: int = ADVISE_SAMPLES) -> dict:
    """The review of your decisions in the game (:func:`analyzer.table.review.review_game`, its
    :meth:`~analyzer.table.review.Review.to_dict`), with ``names`` (the seats'), the final
    ``scores`` and the ``winner`` (a side). A discard's ``position`` is the cards dealt, its
    ``done`` and ``advised`` the cards kept; a card's the card laid."""
    record = replay_record(variant, opponent, seed, first, muggins, moves, level)
    return review_record(record, samples)


def review_record(record: dict, samples: int = ADVISE_SAMPLES) -> dict:
    """:func:`game_review` of a game's record (one from the history, say)."""
    from ..table.review import review_game

    review = review_game(record, samples=samples).to_dict()
    review["names"] = list(SEAT_NAMES[len(record["seats"])])
    review["scores"] = list(record["scores"])
    review["winner"] = record["winner"]
    return review
