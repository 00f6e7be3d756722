"""A person's game at the table, with undo and resume: a game put back by replaying its decisions.

A :class:`~analyzer.table.tabletop.Table` is deterministic given how it is set up (the form, the
seats, the seed, who deals first, muggins) and the person's decisions: the deal and the AI draw
from one xoshiro256** state in the engine's order, and a person's decisions draw nothing. So a
game is put back at any point by a new table with the same setup answering the same decisions,
silently (a whole game replays in milliseconds):

* **Undo.** When the person takes back his last decision (:class:`~analyzer.table.tabletop.Undo`,
  once :meth:`Table.undo_refused` has said it may be), :class:`Session` replays the game without
  it, to the question it answered, and asks it again. The number of decisions taken back is the
  record's ``"undos"``.
* **Resume.** An unfinished record of a game with a person (``crib play`` saves one when the game
  stops) holds its setup (``"table"``) and every decision of the person: the discards, the cards
  laid and the muggins counts of its deals and of its deal in progress (``"partial_deal"``):
  :func:`person_decisions`. :meth:`Session.resume` replays them, and the replay must give the
  record back exactly before the game goes on live; a record whose decisions do not fit the game
  it sets up, or that the replay does not give back, is refused (:class:`ResumeError`).

While a session replays, the table's events are held back; when it reaches the first question
for the person (or the end), ``on_live(table, events, undone)`` is called with the events of the
deal in progress (so a face can show where the game stands; in the first deal, the cut for deal
before them) and the decision taken back (None after a resume); from then on events go to
``emit``.
"""

from __future__ import annotations

import json
from collections import deque

from ..core.cards import format_card, parse_card
from .tabletop import PERSON, Table, Undo

__all__ = ["ResumeError", "Session", "person_decisions"]


class ResumeError(ValueError):
    """A record that cannot be resumed; the message says why, in one line."""


def person_decisions(record: dict, seat: int) -> list[tuple]:
    """The decisions of the person in ``seat`` in a game record, in the order a table asks them:
    ``("discard", seat, ids)`` (sorted), ``("lay", seat, id)``, ``("claim", seat, points)``,
    from its deals and its deal in progress (``"partial_deal"``). A go is no decision: a table
    says it when no card fits.

    Examples
    --------
    >>> from analyzer.table.tabletop import Table
    >>> class FirstCards:
    ...     def discard(self, table, seat): return table.hand(seat)[:2]
    ...     def lay(self, table, seat): return (table.legal(seat) or [None])[0]
    >>> record = Table((FirstCards(), "ev+greedy"), seed=3).play()
    >>> [d[0] for d in person_decisions(record, 0)][:3]
    ['discard', 'lay', 'lay']
    """
    deals = list(record["deals"])
    if "partial_deal" in record:
        deals.append(record["partial_deal"])
    out: list[tuple] = []
    for deal in deals:
        thrown = deal["discards"][seat]
        if thrown:
            out.append(("discard", seat, sorted(parse_card(c) for c in thrown)))
        out.extend(("lay", seat, parse_card(card)) for who, card, _ in deal.get("plays", [])
                   if who == seat)
        # with one person at the table, every claim made is the person's
        out.extend(("claim", seat, claim) for claim in deal.get("claims") or []
                   if claim is not None)
    return out


def _plain(record: dict):
    """A record as JSON reads it back (lists, not tuples; ints)."""
    return json.loads(json.dumps(record))


class _Replaying:
    """The person's seat while a session replays: answers from the decisions, then asks the
    person (:class:`analyzer.table.tabletop.Person`)."""

    def __init__(self, session: Session, decisions: list[tuple]):
        self._session = session
        self._queue = deque(decisions)

    def _next(self, kind: str, seat: int):
        """The next decision's answer, or None when the replay has run out (the session goes
        live: the person answers)."""
        if not self._queue:
            self._session._go_live()
            return None
        got, at, answer = self._queue.popleft()
        if (got, at) != (kind, seat):
            raise ResumeError(f"the decisions do not fit the game: a {got} where the game asks "
                              f"for a {kind}")
        if not self._queue:
            self._session._replayed = True
        return answer

    def _went_on(self, table) -> bool:
        """Whether the game replayed went on past this go: decisions are left, or a resumed
        game's record is not yet given back (its go may have been said for the person, with
        ``auto_go``, while this table asks for it: the go preference is the run's, not the
        game's). Otherwise the person is asked: the game stopped at this go, or it is an undo's
        question."""
        session = self._session
        if self._queue:
            return True
        return session._expect is not None and _plain(table.record()) != session._expect

    def discard(self, table, seat):
        answer = self._next("discard", seat)
        if answer is None:
            return self._session.person.discard(table, seat)
        hand = table.hand(seat)
        if len(answer) != table.game.thrown or not set(answer) <= set(hand):
            raise ResumeError(f"the decisions do not fit the game: a discard of "
                              f"{' '.join(map(format_card, answer))} from "
                              f"{' '.join(map(format_card, hand))}")
        return answer

    def lay(self, table, seat):
        if not table.legal(seat) and self._went_on(table):
            return None  # a go (asked when the table has no auto_go), said in the game replayed
        answer = self._next("lay", seat)
        if answer is None:
            return self._session.person.lay(table, seat)
        if answer not in table.legal(seat):
            raise ResumeError(f"the decisions do not fit the game: {format_card(answer)} cannot "
                              f"be laid on a count of {table.count}")
        return answer

    def claim(self, table, seat, cards, crib):
        answer = self._next("claim", seat)
        if answer is None:
            return self._session.person.claim(table, seat, cards, crib)
        return answer


class Session:
    """One game of a person against AI seats, with undo (and, made by :meth:`resume`, resume).

    Parameters
    ----------
    seats
        As for :class:`~analyzer.table.tabletop.Table`: player specs, and one person.
    variant, seed, first, muggins, auto_go, level, names
        As for :class:`~analyzer.table.tabletop.Table` (``auto_go`` on by default here: a person
        is never asked to say go); a resumed game takes its level from its record.
    emit
        Called with each event of the game, live (not while a replay puts the game back).
    on_live
        Called as ``on_live(table, events, undone)`` when a replay (after an undo, or a resume)
        reaches the person's next question: ``events`` those of the deal in progress, ``undone``
        the decision taken back (``(kind, seat, answer)`` as :attr:`Table.decisions`), None
        after a resume.
    decisions, undos, expect
        For :meth:`resume`: the decisions to replay first, the undos made before, and the record
        the replay must give back.

    Attributes
    ----------
    table
        The table playing now (a new one after each undo).
    person
        The person.

    Examples
    --------
    >>> class FirstCards:
    ...     def discard(self, table, seat): return table.hand(seat)[:2]
    ...     def lay(self, table, seat): return table.legal(seat)[0]
    >>> record = Session((FirstCards(), "ev+greedy"), seed=3).play()
    >>> record["undos"], record["table"]
    (0, {'seed': 3, 'first': 'cut', 'muggins': False})
    """

    def __init__(self, seats, variant: str = "six-card", seed: int = 0, first="cut",
                 muggins: bool = False, emit=None, auto_go: bool = True, on_live=None,
                 decisions=(), undos: int = 0, expect: dict | None = None,
                 level: str | None = None, names=None):
        people = [s for s in seats if not isinstance(s, str)]
        if len(people) != 1:
            raise ValueError(f"a session has one person at the table, got {len(people)}")
        self.person = people[0]
        self._seats = list(seats)
        self._setup = {"variant": variant, "seed": seed, "first": first, "muggins": muggins,
                       "auto_go": auto_go, "level": level, "names": names}
        self._emit = emit or (lambda event: None)
        self._on_live = on_live
        self.undos = int(undos)
        self._expect = None if expect is None else _plain(expect)
        self._before = self._expect  # the record to save while a replay has not gone live
        self.table = self._new_table(list(decisions), None,
                                     fresh=not decisions and expect is None)

    @classmethod
    def resume(cls, record: dict, person, emit=None, on_live=None,
               auto_go: bool = True, names=None) -> Session:
        """A session that replays the unfinished game of ``record`` (a record with a person,
        ``"you"`` in its ``"seats"``, and its setup, ``"table"``) with ``person`` in the
        person's seat; :meth:`play` goes on from where it stopped. :class:`ResumeError` (one
        line) for a record that is not such a game, or a finished one; :meth:`play` raises it
        when the replay does not give the record back.
        """
        from ..sim.records import RecordError, validate_record

        try:
            validate_record(record)
        except RecordError as exc:
            raise ResumeError(f"not a valid game record: {exc}") from None
        if not record.get("unfinished", False):
            scores = "-".join(map(str, record["scores"]))
            raise ResumeError(f"the game is finished ({scores}): there is nothing to resume")
        seats = record.get("seats") or []
        if "table" not in record or seats.count(PERSON) != 1:
            raise ResumeError("not a game of a person against the AI saved by crib play (no "
                              "seat \"you\", or no \"table\": how it was set up)")
        seat = seats.index(PERSON)
        setup = record["table"]
        variant = record.get("variant", "six-card")
        level = record.get("level")
        if level is not None:  # the level and the AI it names must agree (a hand edit)
            from .levels import LevelError, find_level

            try:
                player = find_level(level).player
            except LevelError as exc:
                raise ResumeError(str(exc)) from None
            others = {name for name in seats if name != PERSON}
            if others != {player}:
                raise ResumeError(f"the level {level} is played by {player}, but the record's "
                                  f"AI is {', '.join(sorted(others))}")
        try:
            return cls([person if name == PERSON else name for name in seats],
                       variant=variant, seed=setup["seed"], first=setup["first"],
                       muggins=setup["muggins"], emit=emit, auto_go=auto_go, on_live=on_live,
                       decisions=person_decisions(record, seat),
                       undos=record.get("undos", 0), expect=record,
                       level=level, names=names)
        except ValueError as exc:  # a player this version does not know
            raise ResumeError(str(exc).splitlines()[0]) from None

    @property
    def live(self) -> bool:
        """True once the game is back where it was (a replay reached the person's question)."""
        return self._live

    @property
    def resuming(self) -> bool:
        """True while a resumed game has not yet been put back where it stopped (its file then
        holds the game as it stands)."""
        return self._expect is not None

    def _new_table(self, decisions: list[tuple], undone, fresh: bool = False) -> Table:
        """A table replaying ``decisions`` (silently, unless ``fresh``: a new game)."""
        seats = [_Replaying(self, decisions) if s is self.person else s for s in self._seats]
        self._live = fresh
        self._replayed = not decisions  # every decision answered: the record may match now
        self._matched = False
        self._held: list[dict] = []  # the events of the deal in progress, held while replaying
        self._undone = undone
        setup = self._setup
        table = Table(seats, variant=setup["variant"], seed=setup["seed"], first=setup["first"],
                      muggins=setup["muggins"], emit=self._gate, auto_go=setup["auto_go"],
                      level=setup["level"], names=setup["names"])
        table.undos = self.undos
        self.table = table
        return table

    def _gate(self, event: dict) -> None:
        """An event of the table: passed on live; held while replaying."""
        if self._live:
            self._emit(event)
            return
        if event["kind"] == "deal":  # a deal's events from its start; the first's after the
            # cut, which says who deals first
            self._held = [e for e in self._held if e["kind"] == "cut" and event["number"] == 1]
        self._held.append(event)
        if self._expect is not None and self._replayed and not self._matched:
            # a game stopped while the AI chose is given back before the next question
            self._matched = _plain(self.table.record()) == self._expect

    def _go_live(self) -> None:
        """The replay has reached the person's question (or the end): check a resumed record,
        then show where the game stands and go on live."""
        if self._live:
            return
        if self._expect is not None:
            if not (self._matched or _plain(self.table.record()) == self._expect):
                raise ResumeError("the decisions replayed do not give the record back: it was "
                                  "changed, or saved by another version")
            self._expect = None
        self._live = True
        if self._on_live is not None:
            self._on_live(self.table, list(self._held), self._undone)

    def play(self) -> dict:
        """Play the game to its end (replaying first, after a resume); return its record. An
        :class:`~analyzer.table.tabletop.Undo` from the person replays the game without his
        last decision and asks it again; a :class:`~analyzer.table.tabletop.QuitGame` (or any
        other exception) leaves the game where it stands: :meth:`record` gives it."""
        while True:
            try:
                record = self.table.play()
            except Undo:
                table = self.table
                why = table.undo_refused()
                if why is not None:
                    raise ValueError(f"undo refused: {why}") from None
                self.undos += 1
                self._before = {**table.record(), "undos": self.undos}
                self._new_table(table.decisions[:-1], table.decisions[-1])
                continue
            self._go_live()  # a resumed game can end in its replay (the AI's move was next)
            return record

    def record(self) -> dict:
        """The game's record as it stands (:meth:`Table.record`); while a replay has not gone
        live, the record it puts back."""
        return self.table.record() if self._live else self._before
