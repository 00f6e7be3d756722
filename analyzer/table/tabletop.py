"""A game at the table: one game of cribbage played move by move, with no terminal code.

:class:`Table` plays one game between seats that are each a person or an AI. An AI seat is a
player spec (``"best"``, ``"ev+lookahead"``, see :func:`analyzer.core.choices.parse_player`); its
decisions come from the engine's own compiled steps, drawn from one xoshiro256** state in the
engine's order:

* the cut (:func:`analyzer.play.engine._cut_cards`, unless the first dealer is given), then for
  each deal: the shuffle and the deal (:func:`analyzer.play.engine._deal`, on a pack that
  persists through the game), each seat's discard in seat order, his heels, the play (each
  card's points :func:`analyzer.play.playstep._lay`) and the show.

Every AI decision is asked of the public seat API, :func:`analyzer.play.seat.discard` and
:func:`analyzer.play.seat.lay`, with what that seat knows and nothing else: its own cards, the
cards laid with the goes said, the starter and the scores (never another seat's hand).

So a game with an AI in every seat is the engine's game for the same state, card for card and
point for point: ``Table(("best", "best"), seed=S).play()`` equals
``simulate(1, seed=S, players="best", record_games=1).records[0]`` with ``"seats"`` added (the
engine's game 0 of a run plays on the state of chunk 0, :func:`analyzer.core.rng.chunk_states`). A
person's decisions draw nothing. The turn logic of the play (go, 31, the last card, the floor a
go sets) is this module's Python twin of :func:`analyzer.play.deal._play_with`; the test suite
proves the two equal.

A person is an object with the methods of :class:`Person`, asked for each decision; it reads
the table through :class:`Table`'s public attributes and methods. The table reports what
happens to ``emit`` as events (plain dicts, :data:`EVENTS`), for a face to show. With
``muggins`` a person counts his own hand and crib (:meth:`Person.claim`); a count too low gives
the difference to the opponent, one too high is corrected.

The record (:meth:`Table.record`) is the project's game record (:mod:`analyzer.sim.records`) with
``"seats"`` (and ``"level"`` when a person plays); a game stopped before its end is
``"unfinished"`` and holds the deals played to the end of the crib count, and the deal in progress
as ``"partial_deal"``; a muggins game has ``"claims"`` in each deal. A table with a person at it
also records how it was set up (``"table"``: the seed, who dealt first, muggins) and the decisions
taken back (``"undos"``), so that :mod:`analyzer.table.session` can replay it.

The table keeps the person's decisions in order (:attr:`Table.decisions`: each discard, card
laid and muggins count; a go is never a choice) and what was shown since each of them, so it can
say whether the last one may be taken back (:meth:`Table.undo_refused`): not once the other
side's answer or the deal has shown cards the person had not seen (the starter, a card laid or
a go said by the AI, the crib or an AI hand in the show, the next deal). A count claimed with
muggins is of the person's own cards, so only the next deal ends the chance to take it back.
:mod:`analyzer.table.session` takes decisions back by replaying the game without them.
"""

from __future__ import annotations

import copy
from typing import Protocol

import numpy as np

from ..core.cards import card_rank, card_value, format_card, format_cards
from ..core.choices import (
    ADVISE_SAMPLES,
    MAX_SEED,
    PERSON,
    check_number,
    parse_player,
    variant_game,
)
from ..core.counting import count_hand, count_peg
from ..core.rules import GO_POINTS, HEELS_POINTS, JACK, MAX_COUNT

__all__ = ["EVENTS", "PERSON", "Person", "QuitGame", "Table", "Undo", "keep_advice",
           "missed_items", "play_advice"]


#: The events a table emits, with their fields (cards are ids, seats 0..players-1; a hand, a
#: discard or a crib sorted by rank, then suit):
#:
#: * ``cut``: ``cards`` (one a seat, the deciding round), ``dealer``;
#: * ``deal``: ``number`` (1, 2, ...), ``dealer``, ``scores``, ``before`` (each side's score
#:   before its last points: a board's back peg);
#: * ``discard``: ``seat``, ``kept``, ``thrown``;
#: * ``starter``: ``card``, ``dealer``, ``heels`` (points to the dealer), ``scores``;
#: * ``lay``: ``seat``, ``card``, ``count`` (after it), ``cards`` (the cards of this count),
#:   ``points``, ``items`` (:func:`analyzer.core.counting.count_peg`), ``scores``;
#: * ``go``: ``seat`` says go: no card of its fits, and it had not said so on this count;
#:   ``auto`` (True: said for a person by the table, ``auto_go``). The seat that laid the last
#:   card of a count says no go: it pegs the go (``go_point``);
#: * ``go_point``: ``seat`` (pegs one for the go), ``scores``;
#: * ``new_count``: the count starts again at 0 (after 31 or the go, when cards are left);
#: * ``show``: ``seat``, ``cards``, ``crib`` (bool), ``starter``, ``points`` (the true count),
#:   ``items`` (:func:`analyzer.core.counting.count_hand`), ``claimed`` (None unless the seat
#:   counted it, muggins), ``taken`` (points the opponent took by muggins), ``missed`` (with a
#:   count too low: :func:`missed_items`, the combinations that make up what was missed),
#:   ``scores``;
#: * ``end``: ``winner`` (a side), ``scores``, ``skunk`` (tier of each side, 0..3).
EVENTS = ("cut", "deal", "discard", "starter", "lay", "go", "go_point", "new_count", "show",
          "end")


class QuitGame(Exception):  # noqa: N818 - a request, not an error
    """A person stops the game (``quit``, the end of input): raised from a :class:`Person`
    method, it leaves :meth:`Table.play`; :meth:`Table.record` then gives the unfinished game."""


class Undo(Exception):  # noqa: N818 - a request, not an error
    """A person takes back his last decision: raised from a :class:`Person` method once
    :meth:`Table.undo_refused` has said it may be; it leaves :meth:`Table.play`, and
    :class:`analyzer.table.session.Session` replays the game without that decision."""


class Person(Protocol):
    """What a table asks a person. Each method may raise :class:`QuitGame` or :class:`Undo`."""

    def discard(self, table: Table, seat: int) -> list[int]:
        """The cards to throw to the crib (ids, ``table.game.thrown`` of them) from
        ``table.hand(seat)``."""

    def lay(self, table: Table, seat: int) -> int | None:
        """The card to lay (an id of ``table.legal(seat)``), or None for a go (only when that
        list is empty; with ``auto_go`` the table says the go itself and does not ask)."""

    def claim(self, table: Table, seat: int, cards: list[int], crib: bool) -> int:
        """With muggins: the points the person counts in ``cards`` (a hand, or the crib) with
        ``table.starter``."""


class Table:
    """One game at the table.

    Parameters
    ----------
    seats
        One entry a seat, in seat order: a player spec for an AI (``"best"``,
        ``"ev+lookahead"``, ...) or a :class:`Person`.
    variant
        The form of the game (:data:`analyzer.core.game.VARIANTS`).
    seed
        The game plays on the state of chunk 0 of ``seed`` (as the engine's game 0 of a run with
        that seed). Or give ``state``.
    state
        A xoshiro256** state, uint64 (4,), used (and advanced) in place: a second game on the
        same array is the engine's next game of that chunk.
    first
        ``"cut"`` (the cut decides, drawing from the state) or the seat that deals first.
    muggins
        People count their own hands and cribs (two sides only).
    level
        The name of the level the person chose (:mod:`analyzer.table.levels`), or None for an
        opponent chosen by its player spec: written in the record of a game with a person.
    emit
        Called with each event (a dict with ``"kind"``, :data:`EVENTS`).
    auto_go
        A person with no card that fits says go without being asked (the default asks, and
        takes only None).
    names
        How the reasons :meth:`undo_refused` gives name each seat, one a seat (by default
        ``"the AI"`` for every AI seat), e.g. ``("you", "West", "East")``.

    Examples
    --------
    >>> table = Table(("ev+greedy", "ev+greedy"), seed=3)
    >>> record = table.play()
    >>> record["winner"] in (0, 1), record["scores"][record["winner"]] >= 121
    (True, True)
    """

    def __init__(self, seats, variant: str = "six-card", seed: int | None = 0, state=None,
                 first="cut", muggins: bool = False, emit=None, auto_go: bool = False,
                 level: str | None = None, names=None):
        from ..core.rng import check_state, chunk_states

        self.game = variant_game(variant)
        game = self.game
        if len(seats) != game.players:
            raise ValueError(f"{game.name} has {game.players} seats, got {len(seats)}")
        self.seats = list(seats)
        self.ai = [isinstance(s, str) for s in seats]
        for spec, ai in zip(seats, self.ai, strict=True):
            if ai:
                parse_player(spec)  # a bad spec is refused here, before the game starts
        if first != "cut" and first not in range(game.players):
            raise ValueError(f"first must be 'cut' or a seat 0..{game.players - 1}, got {first!r}")
        if muggins and game.teams != 2:
            raise ValueError("muggins is played by two sides")
        self.first = first
        self.muggins = bool(muggins)
        self.level = level
        self.auto_go = bool(auto_go)
        self._names = (list(names) if names is not None else
                       ["the AI" if ai else PERSON for ai in self.ai])
        if len(self._names) != game.players:
            raise ValueError(f"names: one a seat, {game.players}, got {len(self._names)}")
        self._emit = emit or (lambda event: None)
        #: How the game was set up, for its record to be replayed (the record's ``"table"``):
        #: the seed, ``first`` and ``muggins``; None when the table was given a ``state``.
        self.setup = None
        if state is None:  # the seed a whole number, never truncated (1.5) or negative
            seed = check_number("seed", seed, low=0, high=MAX_SEED, integer=True)
            self.setup = {"seed": seed, "first": first, "muggins": self.muggins}
            state = chunk_states(seed, 1)[0]
        self._st = check_state("state", state)
        self._game = game.as_array()
        n, sides = game.players, game.teams
        self._deck = np.arange(52, dtype=np.int64)
        self._hands = np.zeros((n, game.dealt), np.int64)
        self._kept = np.zeros((n, game.kept), np.int64)
        self._thrown = np.zeros((n, game.thrown), np.int64)
        self._laid = np.zeros((n, game.kept), np.bool_)
        self._seq = np.zeros(n * game.kept + 1, np.int64)
        self.scores = np.zeros(sides, np.int64)  #: by side, live
        #: by side: its score before its last points (where a board's back peg stands)
        self.before = np.zeros(sides, np.int64)
        self.first_dealer: int | None = None
        self.dealer: int | None = None
        self.starter: int | None = None
        self.crib: list[int] = []
        self.count = 0  #: the running count of the play
        self.count_cards: list[int] = []  #: the cards of the current count
        self.played: list[int] = []  #: every card laid this deal, in order
        #: The play so far this deal as every seat sees it and the seat API takes it
        #: (:func:`analyzer.play.seat.lay`): ``(seat, card)`` for a card laid, ``(seat, None)``
        #: for each turn a seat holding cards could not lay (a go).
        self.history: list[tuple[int, int | None]] = []
        #: The scores by side before this deal's play (his heels in): what the seats are given
        #: with :attr:`history`, whose cards' points the seat API adds itself.
        self.play_scores: list[int] = [0] * game.teams
        self.winner: int | None = None
        self._go_reset = False  # the count was ended by goes and no card laid since
        self._deals: list[dict] = []  # deals played to the end of the crib count, or the last
        self._deal: dict | None = None  # the deal in progress (or the last)
        self._start: list[int] = [0] * sides
        #: The person's decisions in order: ``("discard", seat, [ids])``, ``("lay", seat, id)``,
        #: ``("claim", seat, points)``.
        self.decisions: list[tuple] = []
        self.undos = 0  #: decisions taken back before this table (the record's ``"undos"``)
        self._marks: list[tuple[int, int]] = []  # per decision: (len(_reveals), _dealt)
        self._dealt = 0  # deals dealt so far
        self._reveals: list[str] = []  # what showed the person unseen cards, in order
        self._seen: set[int] = set()  # the cards the person has seen this deal
        self._said_go: set[int] = set()  # the seats that said go on this count
        self._last_to_lay = -1  # the seat that laid the last card of this count

    # ------------------------------------------------------------------ what a person may read

    def hand(self, seat: int) -> list[int]:
        """The cards ``seat`` holds now, sorted by rank, then suit: the cards dealt before the
        discard, then the cards kept not yet laid."""
        if self._deal is not None and self._deal["discards"][seat]:
            return sorted(int(c) for c, done in zip(self._kept[seat], self._laid[seat],
                                                    strict=True) if not done)
        return sorted(int(c) for c in self._hands[seat])

    def kept(self, seat: int) -> list[int]:
        """The cards ``seat`` kept this deal (laid or not), sorted."""
        return sorted(int(c) for c in self._kept[seat])

    def thrown(self, seat: int) -> list[int]:
        """The cards ``seat`` threw to the crib this deal, sorted."""
        return sorted(int(c) for c in self._thrown[seat])

    def legal(self, seat: int) -> list[int]:
        """The cards ``seat`` may lay on the count now (none: it must say go)."""
        return [c for c in self.hand(seat) if self.count + card_value(c) <= MAX_COUNT]

    def says_go(self, seat: int) -> bool:
        """Whether ``seat``, with no card that fits, is to say go now: once a count, and not
        when it laid the last card (it pegs the go). Otherwise it passes in silence."""
        return (not self.legal(seat) and seat not in self._said_go
                and seat != self._last_to_lay)

    def side(self, seat: int) -> int:
        return seat % self.game.teams

    @property
    def over(self) -> bool:
        return self.winner is not None

    def undo_refused(self) -> str | None:
        """Why the person's last decision cannot be taken back, in one line; None when it can.

        A discard or a card laid stands once cards the person had not seen were shown since:
        the starter, a card laid or a go said by the AI, an AI hand or the crib in the show, the
        next deal. A muggins count stands once the next deal is dealt.

        Examples
        --------
        >>> Table(("ev+greedy", "ev+greedy"), seed=3).undo_refused()
        'nothing to undo: no decision of yours yet'
        """
        if not self.decisions:
            return "nothing to undo: no decision of yours yet"
        kind, _, answer = self.decisions[-1]
        revealed, deal = self._marks[-1]
        what = {"discard": lambda: f"your discard {format_cards(sorted(answer))}",
                "lay": lambda: f"your {format_card(answer)}",
                "claim": lambda: f"your count of {answer}"}[kind]()
        if kind == "claim":
            if deal != self._dealt:
                return f"cannot undo {what}: the next deal is dealt since"
        elif len(self._reveals) > revealed:
            return f"cannot undo {what}: {self._reveals[revealed]} since"
        return None

    # ------------------------------------------------------------------ the game

    def play(self) -> dict:
        """Play the game to its end; return its record. A :class:`QuitGame` (or any exception)
        from a person leaves the game where it stands: :meth:`record` gives it, unfinished."""
        from ..play.engine import cut_for_deal

        game = self.game
        if self.first_dealer is None:
            if self.first == "cut":
                cut = np.zeros(game.players, np.int64)
                self.first_dealer = cut_for_deal(self._st, cut)
                self._tell({"kind": "cut", "cards": cut.tolist(), "dealer": self.first_dealer})
            else:
                self.first_dealer = int(self.first)
            self._start[(self.first_dealer + 1) % game.teams] = game.start_points
            self.scores[:] = self._start
            self.dealer = self.first_dealer
        while self.winner is None:
            self._play_deal()
            self.dealer = (self.dealer + 1) % game.players
        return self.record()

    def _scores_of(self, seat: int) -> tuple[int, int]:
        """The scores as a seat's discard reads them: its side's, then the next side's."""
        side = self.side(seat)
        return int(self.scores[side]), int(self.scores[(side + 1) % self.game.teams])

    def _peg(self, seat: int, points: int) -> bool:
        """Add points to the seat's side; True when that side wins. A side that reaches the
        target wins at once, with the target as its score: points past it are not counted."""
        side = self.side(seat)
        if points:
            self.before[side] = self.scores[side]
        self.scores[side] += points
        if self.scores[side] >= self.game.target and self.winner is None:
            self.winner = side
            self.scores[side] = self.game.target
        return self.winner is not None

    def _tell(self, event: dict) -> None:
        """Emit an event, noting first whether it shows the person cards unseen (undo)."""
        kind, person = event["kind"], [p for p, ai in enumerate(self.ai) if not ai]
        why = None
        if kind == "deal":
            self._dealt += 1
            self._seen = {int(c) for p in person for c in self._hands[p]}
            self._said_go = set()
            why = "the next deal is dealt"
        elif kind == "starter":
            self._seen.add(event["card"])
            why = f"the starter {format_card(event['card'])} is cut"
        elif kind == "lay":
            self._seen.add(event["card"])
            if self.ai[event["seat"]]:
                why = f"{self._names[event['seat']]} has laid {format_card(event['card'])}"
        elif kind == "go" and self.ai[event["seat"]]:
            why = f"{self._names[event['seat']]} has said go"
        elif kind == "show" and not set(event["cards"]) <= self._seen:
            why = ("the crib is shown" if event["crib"] else
                   f"{self._names[event['seat']]}'s hand is shown")
        if why is not None:
            self._reveals.append(why)
        self._emit(event)

    def _decided(self, kind: str, seat: int, answer) -> None:
        """Log a decision of the person (:attr:`decisions`) with what was shown before it."""
        self.decisions.append((kind, seat, answer))
        self._marks.append((len(self._reveals), self._dealt))

    def _play_deal(self) -> None:
        from ..play.engine import deal_cards
        from ..play.seat import discard as seat_discard

        game, n, dealer = self.game, self.game.players, self.dealer
        starter = deal_cards(self._st, self._game, self._deck, self._hands)
        deal = {"dealer": dealer, "hands": [[format_card(c) for c in h] for h in self._hands],
                "discards": [[] for _ in range(n)]}
        if game != variant_game("six-card"):
            deal["pack"] = [format_card(self._deck[n * game.dealt + i])
                            for i in range(game.crib_from_pack)]
        self._deal = deal
        self.starter = None
        self.crib = []
        self.count, self.count_cards, self.played = 0, [], []
        self.history = []
        self._laid[:, :] = False
        self._tell({"kind": "deal", "number": len(self._deals) + 1, "dealer": dealer,
                    "scores": self.scores.tolist(), "before": self.before.tolist()})
        for p in range(n):
            own = self.side(p) == self.side(dealer)
            if self.ai[p]:
                thrown = seat_discard(self.seats[p], self._hands[p], own_crib=own,
                                      scores=self._scores_of(p), variant=game.name,
                                      rng=self._st, position=(p - dealer) % n)
                self._kept[p] = [c for c in self._hands[p].tolist() if c not in thrown]
                self._thrown[p] = thrown
            else:
                self._person_discard(p)
            deal["discards"][p] = [format_card(c) for c in self._thrown[p]]
            self._tell({"kind": "discard", "seat": p, "kept": self.kept(p),
                        "thrown": self.thrown(p)})
        self.crib = [int(c) for c in self._thrown.ravel()]
        self.crib += [int(self._deck[n * game.dealt + i]) for i in range(game.crib_from_pack)]
        self.starter = starter
        heels = HEELS_POINTS if card_rank(starter) == JACK else 0
        deal.update(starter=format_card(starter), heels=heels, plays=[], show=[])
        if self.muggins:
            deal["claims"] = []
        won = bool(heels) and self._peg(dealer, heels)
        self._tell({"kind": "starter", "card": starter, "dealer": dealer, "heels": heels,
                    "scores": self.scores.tolist()})
        if not won:
            self._play()
        if self.winner is None:
            self._show()
        deal["scores"] = self.scores.tolist()
        self._deals.append(deal)
        if self.winner is not None:
            self._tell({"kind": "end", "winner": self.winner, "scores": self.scores.tolist(),
                        "skunk": self._tiers()})

    def _person_discard(self, p: int) -> None:
        hand = [int(c) for c in self._hands[p]]
        throw = [int(c) for c in self.seats[p].discard(self, p)]
        if len(set(throw)) != self.game.thrown or not set(throw) <= set(hand):
            raise ValueError(f"a discard must be {self.game.thrown} cards of the hand, got "
                             f"{throw!r}")
        self._decided("discard", p, sorted(throw))
        self._kept[p] = [c for c in hand if c not in throw]
        self._thrown[p] = [c for c in hand if c in throw]

    def _play(self) -> None:
        """The play: the Python twin of :func:`analyzer.play.deal._play_with`."""
        from ..play.playstep import lay_card
        from ..play.seat import lay as seat_lay

        game, n, n_cards = self.game, self.game.players, self.game.kept
        dealer, kept, laid, plays = self.dealer, self._kept, self._laid, self._deal["plays"]
        left = [n_cards] * n
        self._seq[:] = 0
        history = self.history = []  # what every seat sees: (seat, card), (seat, None) a go
        start = self.scores.copy()  # the scores before the play (his heels in)
        self.play_scores = start.tolist()
        total_left = n * n_cards
        nseq = count = passes = 0
        turn, last = (dealer + 1) % n, -1
        self._said_go, self._last_to_lay = set(), -1
        while total_left > 0:
            p = turn
            nxt = (p + 1) % n
            choice = -1
            if left[p] > 0:
                if self.ai[p]:  # from what the seat knows (analyzer.play.seat)
                    card = seat_lay(self.seats[p], kept[p], history, seat=p, dealer=dealer,
                                    starter=self.starter, thrown=self._thrown[p],
                                    scores=start, variant=game.name, rng=self._st)
                    choice = -1 if card is None else kept[p].tolist().index(card)
                else:
                    choice = self._person_lay(p)
                if choice < 0:
                    history.append((p, None))
                    if self.says_go(p):  # once a count, and not by the last to lay
                        self._said_go.add(p)
                        self._tell({"kind": "go", "seat": p,
                                    "auto": not self.ai[p] and self.auto_go})
            if choice < 0:  # go (or no cards left)
                passes += 1
                if passes >= n:  # nobody can lay: the last to lay pegs one for the go
                    plays[-1][2] += GO_POINTS
                    won = self._peg(last, GO_POINTS)
                    self._tell({"kind": "go_point", "seat": last, "scores": self.scores.tolist()})
                    if won or game.one_count:
                        return
                    count = nseq = passes = 0
                    self.count, self.count_cards, self._go_reset = 0, [], True
                    self._said_go, self._last_to_lay = set(), -1
                    self._tell({"kind": "new_count"})
                    turn = (last + 1) % n
                else:
                    turn = nxt
                continue
            card = int(kept[p, choice])
            laid[p, choice] = True
            left[p] -= 1
            total_left -= 1
            history.append((p, card))
            count, nseq, points = lay_card(self._seq, nseq, count, card, total_left)
            self.count_cards.append(card)
            self.played.append(card)
            self.count, self._go_reset = count, False
            plays.append([p, format_card(card), points])
            items = count_peg(self.count_cards, last=total_left == 0)
            won = self._peg(p, points)
            self._tell({"kind": "lay", "seat": p, "card": card, "count": count,
                        "cards": list(self.count_cards), "points": points, "items": items,
                        "scores": self.scores.tolist()})
            if won:
                return
            last, passes = p, 0
            self._last_to_lay = p
            if count == MAX_COUNT:  # 31: a new count, led by the next player
                if game.one_count:
                    return
                count = nseq = 0
                self.count, self.count_cards = 0, []
                self._said_go, self._last_to_lay = set(), -1
                if total_left:  # not after the last card of the play
                    self._tell({"kind": "new_count"})
            turn = nxt

    def _person_lay(self, p: int) -> int:
        legal = self.legal(p)
        if not legal and self.auto_go:
            return -1
        card = self.seats[p].lay(self, p)
        if card is None:
            if legal:
                raise ValueError(f"seat {p} said go holding a card that fits")
            return -1
        if int(card) not in legal:
            raise ValueError(f"seat {p} cannot lay {format_card(card)} now")
        self._decided("lay", p, int(card))
        return [int(c) for c in self._kept[p]].index(int(card))

    def _show(self) -> None:
        """The show: each hand from the dealer's left round to the dealer, then the crib, each
        to its side until a side reaches the target (:func:`analyzer.play.deal._show`)."""
        game, n, dealer = self.game, self.game.players, self.dealer
        counts = [((dealer + 1 + k) % n, self.kept((dealer + 1 + k) % n), False)
                  for k in range(n)]
        counts.append((dealer, sorted(self.crib), True))
        for seat, cards, is_crib in counts:
            items = count_hand(cards, self.starter, crib=is_crib,
                               variant="six-card" if is_crib else game.name)
            points = sum(i.points for i in items)
            claimed = None
            if self.muggins and not self.ai[seat]:
                claimed = int(self.seats[seat].claim(self, seat, cards, is_crib))
                self._decided("claim", seat, claimed)
            self._deal["show"].append(points)
            if self.muggins:
                self._deal["claims"].append(claimed)
            taken = 0
            won = self._peg(seat, points if claimed is None else min(claimed, points))
            if not won and claimed is not None and claimed < points:
                taken = points - claimed
                self._peg(seat + 1, taken)  # the other side (two sides: the next seat's)
            missed = (missed_items(items, points - claimed)
                      if claimed is not None and claimed < points else [])
            self._tell({"kind": "show", "seat": seat, "cards": cards, "crib": is_crib,
                        "starter": self.starter, "points": points, "items": items,
                        "claimed": claimed, "taken": taken, "missed": missed,
                        "scores": self.scores.tolist()})
            if self.winner is not None:
                break

    def _tiers(self) -> list[int]:
        return [sum(int(s) < line for line in self.game.skunk_lines) if q != self.winner else 0
                for q, s in enumerate(self.scores.tolist())]

    # ------------------------------------------------------------------ the record

    def record(self) -> dict:
        """The game's record (:mod:`analyzer.sim.records`): finished, or (before the end)
        ``"unfinished"`` with the deals played to the end of the crib count, the deal in
        progress as ``"partial_deal"`` (what it holds so far, its ``"scores"`` the live ones)
        and the live scores. With a person at the table, also ``"table"`` (the seed, ``first``
        and ``muggins`` the table was made with; not when it was given a ``state``) and
        ``"undos"``."""
        from ..core.game import STANDARD

        game = self.game
        v1 = game == STANDARD
        finished = self.winner is not None
        deals = self._deals
        partial = None
        if not finished and self._deal is not None and (not deals or deals[-1] is not self._deal):
            partial = {**copy.deepcopy(self._deal), "scores": self.scores.tolist()}
        scores = (partial["scores"] if partial is not None else
                  deals[-1]["scores"] if deals else list(self._start))
        if finished:
            tiers = self._tiers()
            skunk = max(tiers) if v1 else tiers
        else:
            skunk = 0 if v1 else [0] * game.teams
        record = {"format": 1 if v1 else 2}
        if not v1:
            record["variant"] = game.name
        record.update({"game": 0, "first_dealer": (self.first_dealer if self.first_dealer
                                                   is not None else 0),
                       "winner": self.winner, "scores": list(scores), "skunk": skunk,
                       "deals": [dict(d) for d in deals]})
        if not v1:
            record["start"] = list(self._start)
        record["seats"] = [s if ai else PERSON for s, ai in zip(self.seats, self.ai, strict=True)]
        if not all(self.ai):
            record["level"] = self.level
        if not finished:
            record["unfinished"] = True
            if partial is not None:
                record["partial_deal"] = partial
        if not all(self.ai):
            if self.setup is not None:
                record["table"] = dict(self.setup)
            record["undos"] = self.undos
        return record


def missed_items(items, missed: int) -> list[tuple]:
    """What a muggins count too low may have left out: every set of a count's items
    (:func:`analyzer.core.counting.count_hand`) whose points make ``missed``, each a tuple of
    items in table order, the smallest sets first. A run of four missed and two fifteens
    missed are both worth 4: both are listed, as either may be what the count left out. Empty
    when no set of items makes it (the count claimed was not a sum of the hand's
    combinations), or when the sets are too many to list (more than 20,000 of them, or more
    than 500,000 sets looked at).

    Examples
    --------
    >>> from analyzer.core.counting import count_hand
    >>> [[(i.kind, i.points) for i in s] for s in missed_items(count_hand("4H 5S 6D KC", "9C"),
    ...                                                          3)]
    [[('run', 3)]]
    >>> [[i.kind for i in s] for s in missed_items(count_hand("2D 3D 4S QH", "AC"), 4)]
    [['run'], ['fifteen', 'fifteen']]
    """
    items = list(items)
    if missed <= 0:
        return []
    if missed == sum(i.points for i in items):
        return [tuple(items)]
    found: list[tuple[int, ...]] = []
    looked = 0

    def walk(start: int, chosen: list[int], left: int) -> bool:
        """Sets of the items from ``start`` on making ``left`` more points (every item is worth
        at least 1): False once there are too many to list."""
        nonlocal looked
        for k in range(start, len(items)):
            looked += 1
            points = items[k].points
            if looked > 500_000:
                return False
            if points == left:
                found.append((*chosen, k))
                if len(found) > 20_000:
                    return False
            elif points < left and not walk(k + 1, [*chosen, k], left - points):
                return False
        return True

    if not walk(0, [], missed):
        return []
    return [tuple(items[k] for k in ks) for ks in sorted(found, key=lambda ks: (len(ks), ks))]


# --------------------------------------------------------------------------- advice


def _side_scores(table: Table, seat: int) -> tuple[int, int]:
    """The seat's side's score and the best of the other sides', live."""
    mine = table.side(seat)
    others = [int(x) for q, x in enumerate(table.scores) if q != mine]
    return int(table.scores[mine]), max(others)


def keep_advice(table: Table, seat: int, top: int = 3, samples: int = ADVISE_SAMPLES):
    """The analyzer's best keeps for ``seat``'s dealt hand under the objective of the position
    (:func:`analyzer.table.objective.rank_keeps`: points far from the end, P(win) near it, from
    the scores before the deal), best first: a DataFrame of at most ``top`` rows with
    :func:`analyzer.keep`'s columns, ``value`` (``net`` or ``p_win``) and
    ``attrs["objective"]``. The same ranking the review (:mod:`analyzer.table.review`) gives
    that discard with the same ``samples`` (seed 0)."""
    from .objective import rank_keeps

    own = table.side(seat) == table.side(table.dealer)
    frame = rank_keeps([int(c) for c in table._hands[seat]], own, _side_scores(table, seat),
                       table.game.name, samples=samples)
    goal = frame.attrs["objective"]
    frame = frame.head(top)
    frame.attrs["objective"] = goal
    return frame


def play_advice(table: Table, seat: int, samples: int = ADVISE_SAMPLES):
    """The analyzer's value of each card ``seat`` may lay now under the objective of the
    position (:func:`analyzer.table.objective.rank_cards`), best first, in every form, from
    what the seat knows: its kept cards, the play so far with the goes said, its throw, the
    starter and the scores.

    Six-card: points far from the end, P(win) near it, from the live scores, with ``p_win``
    always. Five-card, three-player, four-player: points, a card that reaches the target now
    first; the position as the AI seats are given it (:attr:`Table.history` and
    :attr:`Table.play_scores`, :func:`analyzer.play.seat.lay`), ``p_win`` beside the points.
    The advice draws from its own seeded samples, never from
    the game's state: with the same ``samples`` it is the review's ranking of that card.
    """
    from .objective import rank_cards

    game = table.game
    if game.name != "six-card":
        return rank_cards(table.kept(seat), list(table.history), dealer=table.dealer,
                          seat=seat, starter=table.starter, thrown=table.thrown(seat),
                          scores=table.play_scores, samples=samples, variant=game.name)
    played = [format_card(c) for c in table.played]
    if table._go_reset and played:
        played.append("go")  # the count was ended by goes: advise the lead of the new one
    return rank_cards(table.kept(seat), played, dealer=seat == table.dealer,
                      starter=table.starter, thrown=table.thrown(seat),
                      scores=_side_scores(table, seat), samples=samples)
