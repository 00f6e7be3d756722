"""One seat's decision: the engine's player, from what that seat knows and nothing else.

A program that plays cribbage (against people, or other programs) can seat any of the
analyzer's players (``"best"``, ``"ev+lookahead"``, ...) in any form of the game:

* :func:`discard`: the cards to throw, from the hand dealt, whose crib it is and the scores;
* :func:`lay`: the card to lay (or ``None`` for a go), from the cards kept, the cards laid so
  far in order with the goes said, the starter, the cards thrown and the scores.

Each is the choice the engine's player makes in the same position, exactly: the same compiled
steps (:func:`analyzer.play.engine._discard_one`; for a card, the policies'
:func:`analyzer.play.players._choose_play` or ``best``'s search,
:func:`analyzer.play.search.best_play_at_seat`) on the same tables
(:func:`analyzer.play.reads.player_tables`), with the position rebuilt from the seat's view
alone. The other hands are never given: where the engine's arrays hold them, the
seat's view holds only the cards they have laid (the ``best`` search draws the rest from what
the seat has seen). A game at the table (:class:`analyzer.table.tabletop.Table`) makes every AI
decision through these two calls, and its games equal the engine's for the same seed
(``tests/test_seat.py`` replays recorded engine games of every form through them).

Chance: the ``random`` players and ``best`` draw from a xoshiro256** stream, a ``uint64 (4,)``
state advanced in place (``rng=``), as the engine draws from its chunk's stream. A
:class:`Seat` keeps a stream of its own, seeded, so a program that asks it again and again
gets reproducible answers.

Examples
--------
>>> from analyzer import Seat, format_cards
>>> me = Seat("ev+greedy", seed=1)
>>> format_cards(me.discard("5H 5S 6D JC QS KH", dealer=0))  # seat 0 deals: its own crib
'5H 6D'
>>> format_cards([me.lay("5S JC QS KH", [(1, "9C")], dealer=0, starter="2D", thrown="5H 6D")])
'KH'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np

from ..core import rules
from ..core.cards import CardError, as_cards, card_rank, card_value
from ..core.choices import (
    DISCARD_POLICIES,
    MAX_SEED,
    PEGGING_POLICIES,
    check_flag,
    check_number,
    check_reachable,
    parse_player,
    variant_game,
)
from ..core.rng import check_state, chunk_states
from ..keeping.discard import _DISCARD_TABLE
from .engine import _discard_one
from .players import _choose_play
from .playstep import _go_floor, _lay
from .reads import PlayerTables, player_tables
from .search import best_play_at_seat
from .searchforms import _asked_for_lead, _go_unsaid, _played_pairs, best_play_forms_at_seat
from .winkeep import BEST_DISCARD_REACH, _points_values

__all__ = ["Seat", "SeatError", "discard", "lay", "prepare"]


class SeatError(ValueError):
    """A position that cannot happen in the game: one line that says what is wrong."""


# --------------------------------------------------------------------------- the play


_PEG_BEST = PEGGING_POLICIES["best"]

# what is wrong with a history the seat cannot replay (_replay names the event)
_TURN, _SEEN, _OVER31, _OWN_GO, _NOT_HELD, _EARLY_GO, _UNDER_GO = range(7)
_PROBLEMS = {
    _TURN: "it was seat {who}'s turn to lay or say go, not seat {seat}'s",
    _UNDER_GO: "seat {seat} cannot hold {card}: it said go where a card of {fits} or less "
               "would have fitted",
    _SEEN: "{card} is not in play (it is the starter, your own, thrown, or laid before)",
    _OVER31: "{card} takes the count past 31",
    _OWN_GO: "seat {seat} said go with a card that fits",
    _NOT_HELD: "{card} is not one of your kept cards, or you laid it before",
    _EARLY_GO: "seat {seat} said go at a count of {count}, where every card fits (a go "
               "needs a count over 21)",
}


class _View:
    """The engine's arrays of the play as one seat sees them at its decision
    (:func:`_replay`): the other seats' rows of ``kept`` hold only the cards they have laid,
    in play order; ``seq[:nseq]`` the ranks of the count; ``floor`` the least card value each
    seat's goes leave it; ``unseen`` the seat's unseen ranks (its own row only); ``sc`` the
    scores by side with the points pegged; ``next_left`` the cards the next seat holds;
    ``last_card`` whether the seat's card would be the play's last."""

    __slots__ = ("kept", "laid", "thrown", "unseen", "floor", "seq", "nseq", "count", "sc",
                 "next_left", "last_card")


def _replay(game, hand: np.ndarray, seat: int, dealer: int, ev_seat: list[int],
            ev_card: list[int], starter: int, thrown: np.ndarray, scores: np.ndarray,
            lead_after_go: bool = False) -> _View:
    """Replay the play's history from one seat's view, up to that seat's decision.

    ``hand`` the seat's kept cards in its own order; ``ev_seat``, ``ev_card`` the history, a
    card or -1 for a go; ``thrown`` its own throw; ``scores`` by side before the play (each
    card's points are added as it is laid, by the engine's own step,
    :func:`analyzer.play.playstep._lay`). The turn, the goes, the count, the floor each go sets
    and the seat's unseen ranks follow :func:`analyzer.play.deal._play_with` step by step; a
    history the game cannot reach is a SeatError naming the event.

    The engine says a go at each turn a seat cannot lay: again at each of its turns until the
    count restarts, and by the last to lay when it can lay no more. A history as the goes are
    said at the table (once a count, none by the last to lay) leaves those out; they are taken
    as said where the next entry shows them (another seat's entry, or a card of a seat that
    said go, which starts the next count), so both give the same view. At the end of the
    history a turn is still the engine's: a seat that said go and is asked again says go (give
    its go again, ``"1:go"``, to ask for the next count's lead), and the last to lay is taken
    to lay no more when another seat is asked. With ``lead_after_go`` (``lay(goes="table")``)
    a seat that said go in this count and is asked again, or that laid last, every other seat
    passed since and none of its cards fitting, is asked for the next count's lead: its go is
    taken as said (the last to lay pegs it), and the others' as above.

    A few events a decision, in Python: the choice itself is the player's compiled step, which
    :func:`lay` asks directly (a compiled replay calling it would compile the search again
    inside it, and the replay itself took a second to compile).
    """
    n_players, n_cards, n_sides = game.players, game.kept, game.teams
    v = _View()
    v.kept = np.zeros((n_players, n_cards), np.int64)
    v.laid = np.zeros((n_players, n_cards), np.bool_)
    v.thrown = np.zeros((n_players, game.thrown), np.int64)
    v.unseen = np.zeros((n_players, 13), np.int64)
    v.floor = np.zeros(n_players, np.int64)
    v.seq = np.zeros(n_players * n_cards + 1, np.int64)
    v.sc = np.array(scores, np.int64)
    kept, laid, sc = v.kept, v.laid, v.sc
    kept[seat] = hand
    v.thrown[seat] = thrown
    own = [int(c) for c in hand]
    seen = set(own) | {int(c) for c in thrown} | {starter}
    v.unseen[seat] = 4
    for c in seen:
        v.unseen[seat, card_rank(c)] -= 1
    left = [n_cards] * n_players
    total_left = n_players * n_cards
    nseq = count = 0
    turn = (dealer + 1) % n_players
    last, passes, e = -1, 0, 0

    def problem(code: int, who: int = -1) -> SeatError:
        seat_e = ev_seat[e]
        text = _PROBLEMS[code].format(who=who, seat=seat_e, card=_card_text(ev_card[e]),
                                      count=count, fits=int(v.floor[seat_e]) - 1)
        return SeatError(f"played[{e}]: {text}")

    said: set[int] = set()  # the seats that said go in this count
    while True:
        if total_left == 0:
            raise SeatError("the play is over")
        p = turn
        nxt = (p + 1) % n_players
        choice = -1
        if left[p] > 0:
            at_end = e == len(ev_seat)
            # a card of the seat's own fits the count (its go would be refused); another seat's
            # cards are unknown: a ten-card fits below 22, and no hand says go there
            fits = (any(not laid[p, i] and count + card_value(own[i]) <= rules.MAX_COUNT
                        for i in range(n_cards)) if p == seat
                    else count + 10 <= rules.MAX_COUNT)
            # lead_after_go: at the table such a seat pegs the go (or another has) and leads
            # the next count
            if at_end and p == seat and not (lead_after_go and _asked_for_lead(
                    p, said, last, passes, n_players, fits, game.one_count)):
                # the seat's own decision, now
                v.nseq, v.count, v.next_left = nseq, count, left[nxt]
                v.last_card = total_left - left[p] == 0 and left[p] == 1
                return v
            # a go the table leaves unsaid (the docstring); at the end of the history, another
            # seat's turn before this one's is its go, where no card of its could fit
            entry = None if at_end else (ev_seat[e], ev_card[e])
            implied = (at_end or _go_unsaid(p, said, last, passes, n_players, entry, count)) \
                and not fits
            if not implied and at_end:
                raise SeatError(f"it is seat {p}'s turn, not seat {seat}'s (a seat is taken to "
                                f"say go only at a count of 22 or more; the count is {count})")
            if not implied and ev_seat[e] != p:
                raise problem(_TURN, p)
            card = -1 if implied else ev_card[e]
            if card >= 0:
                if p == seat:
                    held = [i for i in range(n_cards) if own[i] == card and not laid[p, i]]
                    if not held:
                        raise problem(_NOT_HELD)
                    choice = held[-1]
                else:
                    if card in seen:
                        raise problem(_SEEN)
                    if card_value(card) < v.floor[p]:  # it would have fitted at a go
                        raise problem(_UNDER_GO)
                    choice = n_cards - left[p]  # the other seats' laid cards, in play order
                    kept[p, choice] = card
                if count + card_value(card) > rules.MAX_COUNT:
                    raise problem(_OVER31)
                seen.add(card)
            elif fits:
                raise problem(_OWN_GO if p == seat else _EARLY_GO)
            if not implied:
                e += 1
            if choice < 0:
                v.floor[p] = max(v.floor[p], _go_floor.py_func(count))
                said.add(p)
        if choice < 0:  # go (or no cards left)
            passes += 1
            if passes >= n_players:
                sc[last % n_sides] += rules.GO_POINTS
                if game.one_count or sc[last % n_sides] >= game.target:
                    total_left = 0  # the five-card play ends at the first go
                    continue
                count = nseq = passes = 0
                said.clear()
                turn = (last + 1) % n_players
            else:
                turn = nxt
            continue
        card = int(kept[p, choice])
        laid[p, choice] = True
        left[p] -= 1
        total_left -= 1
        count, nseq, points = (int(x) for x in _lay(v.seq, nseq, count, card, total_left))
        if p != seat:
            v.unseen[seat, card_rank(card)] -= 1
        sc[p % n_sides] += points
        if sc[p % n_sides] >= game.target:  # the game is won in the play
            total_left = 0
            continue
        last = p
        passes = 0
        if count == rules.MAX_COUNT:
            if game.one_count:
                total_left = 0
                continue
            count = nseq = 0
            said.clear()
        turn = nxt


def _stream(rng, seed) -> np.ndarray:
    if rng is not None:
        try:
            return check_state("rng", np.asarray(rng))
        except ValueError as exc:
            raise SeatError(str(exc)) from None
    return chunk_states(_seed(seed), 1)[0]


def _seed(seed) -> int:
    try:
        return check_number("seed", seed, low=0, high=MAX_SEED, integer=True)
    except ValueError as exc:
        raise SeatError(str(exc)) from None


def _ids(cards, n: int | None, what: str) -> np.ndarray:
    """Card ids, int64: ids are checked in plain Python (the common case of a program's loop,
    a few cards), text is parsed (:func:`analyzer.core.cards.as_cards`)."""
    if isinstance(cards, int | np.integer) and not isinstance(cards, bool):
        cards = (cards,)
    if isinstance(cards, np.ndarray | list | tuple):
        ids = cards.tolist() if isinstance(cards, np.ndarray) else cards
        if all(type(c) is int and 0 <= c < 52 for c in ids) and (n is None or len(ids) == n) \
                and len(set(ids)) == len(ids) and ids:
            return np.array(ids, np.int64)
    try:
        return as_cards(cards, n=n).astype(np.int64)
    except CardError as exc:
        raise SeatError(f"{what}: {exc}") from None


@lru_cache(maxsize=64)
def _policies(player: str) -> tuple[int, int]:
    try:
        return parse_player(player)
    except ValueError as exc:
        raise SeatError(str(exc)) from None


@lru_cache(maxsize=8)
def _game(variant: str):
    """The form and its array as the kernels read it (read-only: made once)."""
    try:
        game = variant_game(variant)
    except ValueError as exc:
        raise SeatError(str(exc)) from None
    return game, game.as_array()


def _seat_number(value, n_players: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) \
            or not 0 <= value < n_players:
        raise SeatError(f"{what}: a seat 0..{n_players - 1}, got {value!r}")
    return int(value)


def _scores(scores, sides: int, target: int, game=None, pone: int | None = None) -> np.ndarray:
    """Each side's score, 0 to ``target - 1`` (a side at the target has won: no decision);
    with ``game``, scores a deal of it can be played at (five-card's three for last; ``pone``
    the pone's side, where it is known: :func:`analyzer.core.choices.check_reachable`)."""
    if scores is None:
        return np.zeros(sides, np.int64)
    if isinstance(scores, tuple | list) and len(scores) == sides \
            and all(type(s) is int and 0 <= s < target for s in scores):
        out = np.array(scores, np.int64)
    else:
        out = np.asarray(scores)
        if out.shape != (sides,) or not np.issubdtype(out.dtype, np.integer) \
                or (out < 0).any() or (out >= target).any():
            raise SeatError(f"scores: {sides} whole numbers 0 to {target - 1}, one a side in "
                            f"side order, got {scores!r}")
    if game is not None:
        try:
            check_reachable(game, out.tolist(), pone=pone)
        except ValueError as exc:
            raise SeatError(f"scores: {exc}") from None
    return out.astype(np.int64)


_TABLES: dict[tuple[str, str], PlayerTables] = {}


def _tables(variant: str, player: str) -> PlayerTables:
    key = (variant, player)
    if key not in _TABLES:
        _TABLES[key] = player_tables(variant, [player])
    return _TABLES[key]


def _history(played, n_players: int) -> tuple[np.ndarray, np.ndarray]:
    """``[(seat, card or None), ...]`` (or text, ``"1:7C 2:go"``, as ``crib peg`` takes it) into
    two int64 arrays (a go is -1)."""
    if isinstance(played, str):
        try:
            played = _played_pairs(played)
        except ValueError as exc:
            raise SeatError(str(exc)) from None
    if not isinstance(played, Iterable) or isinstance(played, bytes | dict):
        raise SeatError(f"played: the play so far, (seat, card) pairs in order (an empty list "
                        f"before the first card), or text, got {played!r}")
    seats, cards = [], []
    for k, event in enumerate(played):
        try:
            if isinstance(event, str):  # "QS" would unpack as seat "Q", card "S"
                raise TypeError
            who, card = event
        except (TypeError, ValueError):
            raise SeatError(f"played[{k}]: a (seat, card) pair, card None for a go (or the "
                            f"whole play as text, '1:7C 2:go'), got {event!r}") from None
        seats.append(_seat_number(who, n_players, f"played[{k}]"))
        if card is None or (isinstance(card, str) and card.strip().lower() == "go"):
            cards.append(-1)
        elif isinstance(card, int | np.integer) and not isinstance(card, bool) \
                and 0 <= card < 52:
            cards.append(int(card))
        else:
            cards.append(int(_ids(card, 1, f"played[{k}]")[0]))
    return np.array(seats, np.int64), np.array(cards, np.int64)


def lay(player: str, hand, played: Iterable = (), *, seat: int = 0, dealer: int, starter,
        thrown, scores=None, variant: str = "six-card", rng=None, seed: int = 0,
        goes: str = "engine") -> int | None:
    """The card ``player`` lays in the play, from what its seat knows: a card id, or None for
    a go.

    Parameters
    ----------
    player
        A player spec (``"best"``, ``"ev+lookahead"``, ...); its pegging policy lays.
    hand
        The seat's kept cards, text or ids: all of them in the order it holds them (which breaks
        ties between equal choices, as the engine's hand order does), or only those it still
        holds (the laid ones are then taken from ``played``).
    played
        The play so far, in order: ``(seat, card)`` for each card laid, ``(seat, None)`` (or
        ``"go"``) for each go said; or text, ``"1:7C 2:go"``. Seats are numbered round the
        table; a seat with no cards left is passed over without an entry, as at the table.
        The goes as the table says them (once a count, none by the last to lay when another
        seat leads next) or as the engine records them (again at each turn a seat cannot lay,
        and by the last to lay at the end of its cards that fit) give the same position. At
        the end of the history the turn is the engine's: when it is this seat's, a seat that
        said go in this count says go again (to ask it for the next count's lead, end with its
        go said again, or pass ``goes="table"``); when it is another's, the seats up to this
        one are taken to say go (at a count of 22 or more only), and the count restarts where
        the rules say.
    seat, dealer
        This seat's number and the dealer's (0 to players - 1).
    starter, thrown
        The starter and this seat's own cards in the crib.
    scores
        Each side's score before the play (side ``s`` is seats ``s``, ``s + sides``, ...), by
        default zeros (``None``: taken as is, five-card's three for last not checked); the
        points pegged in ``played`` are added as they are replayed.
    variant
        The form of the game.
    rng, seed
        The stream the player draws from (``random`` and ``best``): a writable ``uint64 (4,)``
        state advanced in place, or else a fresh stream from ``seed``.
    goes
        Who is asked at the end of ``played``: ``"engine"`` (the default) asks the seat at its
        turn in the engine's order, which for a seat that said go in this count is another go;
        ``"table"``, for a program that asks a seat only when it is to lay, as at the table,
        asks such a seat for the next count's lead (``"1:go 0:2S"``: the dealer has laid all
        that fits, and seat 1 leads), and so the last to lay when none of its cards fits and
        every other seat has passed since (out of cards, or gone): it pegs the go and leads.
        Five-card's one count has no next lead: there such a seat says go either way.

    Raises
    ------
    SeatError
        A position the game cannot reach: out of turn, a card seen twice, past 31, a card
        that would have fitted when its seat said go, not this seat's turn, the play over; or
        a bad argument. One line.
    """
    game = _game(variant)[0]
    pol = _policies(player)[1]
    if goes not in ("engine", "table"):
        raise SeatError(f"goes: 'engine' or 'table', got {goes!r}")
    n = game.players
    seat = _seat_number(seat, n, "seat")
    dealer = _seat_number(dealer, n, "dealer")
    starter_id = int(_ids(starter, 1, "starter")[0])
    thrown_ids = _ids(thrown, game.thrown, "thrown")
    ev_seat, ev_card = _history(played, n)
    held = _ids(hand, None, "hand")
    if len(held) != game.kept:
        mine = [c for s, c in zip(ev_seat.tolist(), ev_card.tolist(), strict=True)
                if s == seat and c >= 0]
        both = sorted(set(mine) & set(held.tolist()))
        if both:
            raise SeatError(f"hand: {_card_text(both[0])} is laid in played: give the "
                            f"{game.kept} cards kept, or those still held")
        if len(held) + len(mine) != game.kept:
            raise SeatError(f"hand: the {game.kept} cards kept, or those still held, got "
                            f"{len(held)} (and {len(mine)} laid)")
        held = np.array(mine + held.tolist(), np.int64)
    known = held.tolist() + thrown_ids.tolist() + [starter_id]
    if len(set(known)) != len(known):
        raise SeatError("hand, thrown and starter share a card")
    t = _tables(game.name, player)
    st = _stream(rng, seed)
    v = _replay(game, held, seat, dealer, ev_seat.tolist(), ev_card.tolist(), starter_id,
                thrown_ids, _scores(scores, game.teams, game.target, game,
                                    pone=(dealer + 1) % game.teams),
                lead_after_go=goes == "table")
    # the engine's choice (analyzer.play.deal._play_with's), each compiled step asked in turn
    if t.odds is not None and pol == _PEG_BEST and t.peg_values is not None:
        plays = np.stack([ev_seat, ev_card], axis=1)[ev_card >= 0]  # the lays, as the engine's
        choice = best_play_at_seat(v.kept, v.laid, seat, v.thrown, starter_id, v.seq, v.nseq,
                                   v.count, v.floor, v.unseen[seat], v.sc, game.target, dealer,
                                   t.rank_table, t.odds, t.crib_values, t.hand_table, st, plays)
    elif t.odds is not None and pol == _PEG_BEST:
        choice = best_play_forms_at_seat(v.kept, v.laid, seat, v.thrown, starter_id, v.seq,
                                         v.nseq, v.count, v.floor, v.unseen[seat], v.sc,
                                         game.target, bool(game.one_count), dealer,
                                         t.rank_table, t.hand_table, t.odds, t.crib_values,
                                         t.card_values, st)
    else:
        choice = int(_choose_play(pol, v.kept[seat], game.kept, v.laid[seat], v.seq, v.nseq,
                                  v.count, v.unseen[seat], v.next_left, v.last_card, st))
    return None if choice < 0 else int(held[choice])


def _card_text(card: int) -> str:
    from ..core.cards import format_card

    return format_card(card) if card >= 0 else "go"


# --------------------------------------------------------------------------- the discard


def discard(player: str, hand, *, own_crib: bool, scores=None, variant: str = "six-card",
            rng=None, seed: int = 0, position: int | None = None) -> list[int]:
    """The cards ``player`` throws to the crib from ``hand`` (the cards dealt, text or ids, in
    the order held), as card ids in the order of the hand.

    ``own_crib``: the crib is the seat's side's (True or False). ``scores``: (the seat's
    side's, the other side's) before the deal, which ``best`` reads in six-card, five-card and
    four-player (it keeps to win when the game can end in the deal); the other players and
    three-player ignore them (three-player takes two, or all three in :func:`lay`'s order). By
    default none: far from the end (0-0; five-card's three for last aside).
    ``position``: the seat's place counted round to the left from the dealer (0 the dealer; by
    default 0 with ``own_crib``, 1 without), which ``best`` reads in four-player (who leads,
    who counts first). ``rng`` or ``seed``: as :func:`lay`.
    """
    game, game_array = _game(variant)
    pol = _policies(player)[0]
    cards = _ids(hand, game.dealt, "hand")
    try:
        own_crib = check_flag("own_crib", own_crib)
    except ValueError as exc:
        raise SeatError(str(exc)) from None
    # three-player's scores are ignored: two (the seat's, the next's) or all three, as lay's
    given = len(scores) if isinstance(scores, tuple | list | np.ndarray) else 2
    try:
        own = _scores(scores, 3 if game.teams == 3 and given == 3 else 2, game.target,
                      game, pone=1 if own_crib else 0)[:2]
    except SeatError:
        if game.teams != 3:
            raise
        raise SeatError(f"scores: in three-player 2 or 3 whole numbers 0 to {game.target - 1} "
                        f"(the seat's first; its discard does not read them), got "
                        f"{scores!r}") from None
    kept = np.zeros(game.kept, np.int64)
    thrown = np.zeros(game.thrown, np.int64)
    n = game.players
    if position is None:
        position = 0 if own_crib else 1
    if isinstance(position, bool) or not isinstance(position, int | np.integer) \
            or not 0 <= position < n or (position % game.teams == 0) != bool(own_crib):
        side = ("0, the dealer," if game.teams == n else "on the dealer's side (even)")
        raise SeatError(f"position: the seat's place from the dealer, 0 to {n - 1}, {side} "
                        f"exactly when own_crib, got {position!r}")
    t = _tables(game.name, player)
    st = _stream(rng, seed)
    if _points_choice(pol, game, t, own):
        values = np.empty(15, np.float64)
        d = _points_values(cards, bool(own_crib), t.crib_values, t.peg_values, t.hand_table,
                           values)
        return [int(cards[i]) for i in _DISCARD_TABLE[d]]
    # the seat is 0 (its scores first) and the dealer sits position places to its right
    _discard_one(st, game_array, cards, bool(own_crib), pol, own, 0,
                 np.int64((n - int(position)) % n), t.crib_values, t.card_values, t.hand_table,
                 t.rank_table, t.peg_values, t.odds, kept, thrown)
    return [int(c) for c in thrown]


_DISCARD_PEGGING, _DISCARD_BEST = DISCARD_POLICIES["pegging"], DISCARD_POLICIES["best"]


def _points_choice(pol: int, game, t: PlayerTables, scores: np.ndarray) -> bool:
    """Whether the engine's discard (:func:`analyzer.play.engine._discard_one`) is the points
    choice of :func:`analyzer.play.winkeep._best_discard` here, with no sample of the deal: the
    ``pegging`` policy, and ``best`` while neither side can reach 121 in this deal. Then
    :func:`discard` asks that small kernel alone, and a first decision does not wait for the
    deal-end samples to compile (they are needed near the end of a game: :func:`prepare`
    compiles them). It draws nothing from the stream, as the engine does not."""
    if pol < _DISCARD_PEGGING or game.players != 2 or game.dealt != 6 or t.peg_values is None:
        return False
    if pol != _DISCARD_BEST or t.odds is None:
        return True
    need = rules.GAME_POINTS - scores
    return bool(need[0] > BEST_DISCARD_REACH and need[1] > BEST_DISCARD_REACH)


def prepare(player: str = "best", variant: str = "six-card", end: bool = True) -> None:
    """Compile what :func:`discard` and :func:`lay` run for ``player`` in ``variant`` (or load
    it from numba's cache), by asking each once on a made-up position; the answers are dropped.

    A program that seats a player can call it on a background thread as it starts, so that its
    first real decision does not wait on the compiler: ``crib play`` does, while you look at
    your first hand. (Numba compiles one kernel at a time: a decision asked meanwhile waits for
    the compile to end, then runs.) It compiles in the order a game needs them: the discard
    of a game's start, the play, then ``best``'s discard near the end of a game (its samples
    of the deal, the longest compile, needed only once a side is within reach of the target;
    not with ``end=False``).

    >>> prepare("ev+greedy")
    """
    game = _game(variant)[0]
    dealt = as_cards("5H 5S 6D JC QS KH 2C 3C")
    discard(player, dealt[:game.dealt], own_crib=True, variant=variant)
    lay(player, dealt[:game.kept], (), seat=1, dealer=0, starter=dealt[7],
        thrown=dealt[game.kept:game.kept + game.thrown], variant=variant)
    if end:
        near = game.target - 1
        discard(player, dealt[:game.dealt], own_crib=True, scores=(near, near), variant=variant)


class Seat:
    """One of the analyzer's players in a seat of another program's game, with a stream of its
    own (``seed``): :meth:`discard` and :meth:`lay` are :func:`discard` and :func:`lay` on that
    stream. See the module for an example.

    Parameters
    ----------
    player
        A player spec, ``"best"`` by default.
    variant
        The form of the game.
    seed
        Seeds the seat's stream (chunk 0 of ``seed``, as the engine's first game of a run).
    """

    def __init__(self, player: str = "best", variant: str = "six-card", seed: int = 0):
        _policies(player)
        _game(variant)
        self.player, self.variant = player, variant
        self.rng = chunk_states(_seed(seed), 1)[0]

    def discard(self, hand, dealer: int, seat: int = 0, scores: Sequence[int] | None = None
                ) -> list[int]:
        """The cards to throw from ``hand`` when ``dealer`` deals and this seat is ``seat``;
        ``scores`` by side, as in :func:`lay`."""
        game = _game(self.variant)[0]
        seat = _seat_number(seat, game.players, "seat")
        dealer = _seat_number(dealer, game.players, "dealer")
        by_side = _scores(scores, game.teams, game.target)
        mine = seat % game.teams
        other = by_side[(mine + 1) % game.teams]
        return discard(self.player, hand, own_crib=mine == dealer % game.teams,
                       scores=None if scores is None else (int(by_side[mine]), int(other)),
                       variant=self.variant,
                       rng=self.rng, position=(seat - dealer) % game.players)

    def lay(self, hand, played: Iterable = (), *, dealer: int, starter, thrown, seat: int = 0,
            scores: Sequence[int] | None = None, goes: str = "engine") -> int | None:
        """The card to lay, or None for a go: :func:`lay` for this seat."""
        return lay(self.player, hand, played, seat=seat, dealer=dealer, starter=starter,
                   thrown=thrown, scores=scores, variant=self.variant, rng=self.rng, goes=goes)
