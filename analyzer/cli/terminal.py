"""``crib play``: a game against the AI in the terminal, its face and its input.

The game itself is :class:`analyzer.table.tabletop.Table`; this module shows it (with ``rich``) and
asks the person (:class:`TerminalPlayer`). Everything it prints is plain lines of at most 80
columns: in a terminal with colour, and with no escape codes at all when the output is not a
terminal (``rich`` leaves them out), so a game can be piped, scripted or logged.

The person sits in seat 0, the AI in the others: in the two-player forms seat 1; in three-player
West (seat 1, on the person's left) and East (seat 2); in four-player West, the person's partner
(seat 2, opposite) and East, the partners scoring together (:mod:`analyzer.cli.seating` names
them). Each deal says who deals and the order of the play; the board and the scores are by side.
Input, at each prompt:

* the discard: the cards (``5H JC``, ``10h,jc``) or their positions in the hand shown (``1 4``);
* a card to lay: the card or its position among the cards still held, or its rank alone when
  one card of the hand has it (``Q`` lays the queen). When no card fits, the go is said for the
  person: he is never asked to type it (a ``go`` typed while a card fits is refused);
* with ``--muggins``, the points of your hand and of your crib: a number;
* ``?`` shows the analyzer's advice (the top keeps with their values; in the play the value of
  each card that fits, in every form), under the objective of the position (points, or P(win)
  near the end of the two-player six-card game; always points in the other forms, a card that
  reaches the target first, with each card's P(win) beside where the form has a win-odds
  table: :mod:`analyzer.table.objective`, as the review values it); ``--hints`` shows it at
  every decision;
* ``why`` shows the AI's choices in the last deal shown (its discard and the cards it laid
  with a choice; in three- and four-player each AI's), each with its top alternatives and their
  values, as ``crib review --explain`` does;
* ``undo`` takes back the last decision (a discard, a card laid, a muggins count), unless the
  AI's answer or the deal has shown cards since (:meth:`analyzer.table.tabletop.Table.undo_refused`
  says why, in one line);
* ``help`` lists these;
* ``quit`` (or ``exit``) asks first, then stops the game, saves it unfinished and exits with
  status 0; the end of input stops it at once, and Ctrl-C does the same with status 130. A
  letter alone is never a command (``q`` is a queen).

Wrong input is explained in one line and asked again. The game is saved when it ends or stops,
to ``--save FILE`` or to ``crib-game-DATE-TIME.jsonl`` in the current folder, as a record
``crib replay`` prints, and added to the history of games (:mod:`analyzer.table.history`;
``crib stats``); a game stopped keeps its deal in progress, and ``crib play --resume FILE`` goes
on with it where it stopped (:class:`analyzer.table.session.Session`). After a finished game
:func:`end_of_game_review` prints the review of the person's decisions (``crib review``; the
discards and the cards laid in every form), and its totals join the game's row in the
history. A history that cannot be written (a damaged
file, one locked by another program) is one line on stderr; the game is saved all the same.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import sys
import textwrap
import threading
from datetime import datetime
from pathlib import Path

from ..core.cards import CardError, format_card, format_cards, parse_card
from ..core.choices import ADVISE_SAMPLES, PEGGING_POLICIES, parse_player, variant_game
from ..core.counting import say_count, say_peg
from ..core.signals import handled
from ..table.objective import fixed
from ..table.tabletop import QuitGame, Table, Undo, keep_advice, play_advice
from .lineinput import read_line
from .seating import Seating

__all__ = ["TerminalPlayer", "board_line", "end_of_game_review", "peg_board", "play_in_terminal"]

#: The widest line printed (a plain terminal's width).
WIDTH = 80
#: The names of the two seats as printed: the person, then the AI (the forms of three and
#: four players: :mod:`analyzer.cli.seating`).
NAMES = ("you", "AI")
#: The samples of the advice shown at the table: the review's (seed 0 both), so a hint and
#: the review rank a decision's alternatives alike.
ADVICE_SAMPLES = ADVISE_SAMPLES
_QUIT_WORDS = {"quit", "exit"}
#: What ``help`` prints at any prompt.
HELP = """Commands, at any prompt:
  cards        5H JC or 10h,jc; or their positions in the hand shown: 1 4
  a rank       A, T or 10, J, Q or K alone names the one card of that rank you
               hold
  go           when no card fits (said for you, unless crib play --no-auto-go)
  ?            the analyzer's advice for this decision
  why          the AI's choices in the last deal shown, with their alternatives
  undo         take back your last decision, unless the AI or the deal has shown
               cards since
  help         this list
  quit         stop here (asks first); the game is saved unfinished, and
               crib play --resume FILE goes on with it"""
_RANK_WORDS = {"A": "A", "T": "T", "10": "T", "J": "J", "Q": "Q", "K": "K"}
_EXIT_INTERRUPTED = 130


def board_line(name: str, score: int, target: int, skunk_line: int, total: bool = False,
               width: int = 3) -> str:
    """One line of the board: the score as pegs to ``target``, with the skunk line marked.

    A peg hole stands for two points in the 121-point game (one in the 61-point game); the
    ``|`` sits before the hole of the skunk line. ``width``: the name's column (at most 5: the
    line then fits 80 columns).

    Examples
    --------
    >>> board_line("you", 45, 121, 91)
    '  you  45 [#######################......................|................]'
    >>> len(board_line("AI", 121, 121, 91, total=True))
    78
    >>> len(board_line("West", 121, 121, 91, total=True, width=4))
    79
    """
    per = 2 if target > 61 else 1
    holes = -(-target // per)
    line = ["#" if score > k * per else "." for k in range(holes)]
    line.insert((skunk_line - 1) // per, "|")
    return (f"  {name:<{width}}{score:>4} [{''.join(line)}]" + (f" {target}" if total else ""))


def peg_board(name: str, front: int, back: int, target: int, skunk_line: int,
              width: int = 3) -> list[str]:
    """One track of the board in Unicode, as pegs on a real board: the holes in rows of 40 (30 in
    the 61-point game) in streets of five, the front peg ``●`` in the hole of the score, the back
    peg ``○`` in the hole of the score before the last points, ``·`` the empty holes, ``┃`` the
    skunk line (between holes ``skunk_line - 1`` and ``skunk_line``) and the game hole ``◎`` at
    the end (``●`` once reached). A peg at 0 is off the board, before the first hole. Each line
    fits 80 columns (``width``, the name's column, at most 5).

    Examples
    --------
    >>> for line in peg_board("you", 47, 41, 121, 91):
    ...     print(line)
      you  47 ····· ····· ····· ····· ····· ····· ····· ·····
              ○···· ·●··· ····· ····· ····· ····· ····· ·····
              ····· ·····┃····· ····· ····· ····· ····· ····· ◎
    >>> max(len(line) for line in peg_board("you", 121, 110, 121, 91, width=5)) <= 80
    True
    """
    per_row = 40 if target > 61 else 30
    holes = target - 1  # holes 1 .. target - 1; the game hole is the target
    lines = []
    for start in range(1, holes + 1, per_row):
        end = min(start + per_row - 1, holes)
        cells = []
        for k in range(start, end + 1):
            if k == skunk_line:
                cells.append("┃")  # in place of the street's gap
            elif (k - 1) % 5 == 0 and k != start:
                cells.append(" ")
            cells.append("●" if k == front else "○" if k == back else "·")
        head = f"  {name:<{width}}{front:>4} " if start == 1 else " " * (width + 7)
        lines.append(head + "".join(cells))
    lines[-1] += " " + ("●" if front >= target else "◎")
    return lines


#: A card as the terminal writes it (``5H``, ``TC``), not inside a word.
_CARD_TEXT = re.compile(r"(?<![\w])([A2-9TJQK])([CDHS])(?![\w])")
_SUIT_SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def _suited(text: str, style: str | None = None):
    """``text`` with each card's suit as its sign, hearts and diamonds red (a ``rich`` Text).

    >>> _suited("You keep 5H 5S and throw JD TC.").plain
    'You keep 5♥ 5♠ and throw J♦ T♣.'
    """
    from rich.text import Text

    out = Text(style=style or "")
    last = 0
    for match in _CARD_TEXT.finditer(text):
        out.append(text[last:match.start()])
        rank, suit = match.groups()
        out.append(rank + _SUIT_SIGNS[suit], style="red" if suit in "DH" else None)
        last = match.end()
    out.append(text[last:])
    return out


_SAME_RANK = {2: "a pair", 6: "a pair royal", 12: "a double pair royal"}


_NUMBERS = ("", "a", "two", "three", "four", "five", "six", "seven", "eight")
#: Each kind of combination as said of one, and of several.
_KIND_WORDS = {"fifteen": ("fifteen", "fifteens"), "pair": ("pair", "pairs"),
               "flush": ("flush", "flushes"), "nobs": ("his nob", "his nob")}


def _kind_words(item) -> tuple[str, str]:
    if item.kind == "run":
        length = _NUMBERS[len(item.cards)]
        return f"run of {length}", f"runs of {length}"
    return _KIND_WORDS[item.kind]


def _missed_words(candidates) -> str:
    """What a muggins count too low missed, in words (:func:`analyzer.table.tabletop.missed_items`
    gives the candidates): the one set of combinations that makes up the points missed, named
    with its cards; when several could, each kind of set (``a fifteen or a pair``), or, when
    more than two, the kinds they are made of (``some of the fifteens and pairs``); empty when
    no set makes them up."""
    if len(candidates) == 1:
        return ", ".join(f"{_kind_words(i)[0]} {format_cards(i.cards)} for {i.points}"
                         for i in candidates[0])
    said: list[str] = []
    for items in candidates:
        kinds: dict[tuple[str, str], int] = {}  # (one, several): how many
        for i in items:
            kinds[_kind_words(i)] = kinds.get(_kind_words(i), 0) + 1
        words = " and ".join(name[0] if name[0] == "his nob" else
                             f"{_NUMBERS[k] if k < len(_NUMBERS) else k} {name[k > 1]}"
                             for name, k in kinds.items())
        if words not in said:
            said.append(words)
    if len(said) <= 2:
        return " or ".join(said)
    order = ("fifteen", "pair", "run", "flush", "nobs")  # as counted at the table
    union = sorted({i for items in candidates for i in items}, key=lambda i: order.index(i.kind))
    kinds = list(dict.fromkeys(_kind_words(i)[1] for i in union))
    return "some of the " + (" and ".join(kinds) if len(kinds) < 3 else
                             ", ".join(kinds[:-1]) + " and " + kinds[-1])


def _reason(item) -> str:
    """What a point of the play was pegged for, in words (an item of ``count_peg``)."""
    if item.kind == "pair":
        return _SAME_RANK[item.points]
    if item.kind == "run":
        return f"a run of {_NUMBERS[len(item.cards)]}"  # "a run of three 3", not "of 3 3"
    return "last card" if item.kind == "last" else item.kind


class TerminalPlayer:
    """The person at the terminal: asks for each decision (:class:`analyzer.table.tabletop.Person`)
    and shows each event of the game (:meth:`show`).

    ``console`` is a ``rich`` console; ``read`` reads one line
    (:func:`analyzer.cli.lineinput.read_line`, ``input`` with no Ctrl-C lost); ``hints`` shows the
    advice at every decision; ``echo`` prints what was read (when input is not a terminal, so a
    transcript shows the answers).
    """

    def __init__(self, console, read=read_line, hints: bool = False, echo: bool = False):
        self.console = console
        self._read = read
        self.hints = hints
        self.echo = echo
        self.table: Table | None = None
        self._in_show = False
        self._last = None  # the seat that laid the last card (who leads a new count)
        self._laid: list[int] = []  # the cards each seat has laid in this deal's play
        self._seating: Seating | None = None
        self._pegs: list[list[int]] = []  # by side: the holes its front peg has stood in
        self.replaying = False  # events of then shown again (a resume): their scores, not now's

    @property
    def fancy(self) -> bool:
        """Suits as ♣♦♥♠ (hearts and diamonds red) and the board in Unicode: in a terminal with
        colour that takes UTF-8. Otherwise (piped, ``TERM=dumb``, ``NO_COLOR``) plain letters and
        the plain board."""
        console = self.console
        return bool(console.is_terminal and console.color_system is not None
                    and not console.no_color
                    and (console.encoding or "").lower().replace("-", "") == "utf8")

    @property
    def seating(self) -> Seating:
        """The names of the seats and sides of the table's form (the standard game's before a
        table is given)."""
        from ..core.game import STANDARD

        game = self.table.game if self.table is not None else STANDARD
        if self._seating is None or self._seating.game != game:
            self._seating = Seating(game)
        return self._seating

    # ------------------------------------------------------------------ output

    def say(self, text: str = "", style: str | None = None, wrap: bool = True) -> None:
        """Print a line; a long one is broken between words at 80 columns (or the terminal's
        width, if narrower), its continuation indented under it. ``wrap=False``: as it is."""
        if wrap and text:
            indent = " " * (len(text) - len(text.lstrip(" ")) + 4)
            text = textwrap.fill(text, width=min(WIDTH, self.console.width),
                                 subsequent_indent=indent, break_long_words=False,
                                 break_on_hyphens=False)
        if self.fancy and text:
            text = _suited(text, style)
        self.console.print(text, style=style, markup=False, highlight=False, emoji=False,
                           soft_wrap=True)

    def board(self, scores=None) -> None:
        """The board: a track a side (two; three in three-player; us and them in four), at
        ``scores`` (an event's; by default the table's now)."""
        table = self.table
        game = table.game
        labels = self.seating.board_labels
        width = max(3, *(len(label) for label in labels))
        self._move_pegs(scores)
        if scores is None:
            scores = table.scores
        for side, label in enumerate(labels):
            if self.fancy:
                held = self._pegs[side]
                back, front = (held[-2] if len(held) > 1 else 0), held[-1]
                for line in peg_board(label, front, back, game.target, game.skunk_lines[0],
                                      width=width):
                    self.say(line, style="bold", wrap=False)
            else:
                self.say(board_line(label, int(scores[side]), game.target,
                                    game.skunk_lines[0], total=side == 0, width=width),
                         style="bold")
        if self.seating.partners:
            self.say("  (us: you and your partner; them: West and East)")

    def _move_pegs(self, scores=None, before=None) -> None:
        """The back peg goes to where the front one was each time a side's score moves; an
        undo that takes points back puts both pegs back where they stood before those points
        (never the back peg ahead of the front). ``scores``: an event's, else the table's now
        (not while :attr:`replaying`). The first scores set the pegs up: the back peg at
        ``before`` (a deal's, each side's score before its last points: a resumed game's), else
        off the board."""
        if scores is None:
            if self.table is None or self.replaying:
                return
            scores = self.table.scores
        scores = [int(x) for x in scores]
        if len(self._pegs) != len(scores):
            before = [0] * len(scores) if before is None else [int(b) for b in before]
            self._pegs = [[0, b, x] if 0 < b < x else [0, x] if x else [0]
                          for b, x in zip(before, scores, strict=True)]
        for side, x in enumerate(scores):
            held = self._pegs[side]
            while len(held) > 1 and held[-1] > x:  # points taken back
                held.pop()
            if held[-1] != x:
                held.append(x)

    def _scores(self, scores) -> str:
        return self.seating.scores(scores)

    def show(self, event: dict) -> None:
        """Print one event of the game (:data:`analyzer.table.tabletop.EVENTS`)."""
        table, kind = self.table, event["kind"]
        seating = self.seating
        self._move_pegs(event.get("scores"), event.get("before"))
        group = seating.players > 2
        if kind == "cut":
            self._show_cut(event)
        elif kind == "deal":
            dealer = event["dealer"]
            self.say()
            crib = ("your crib" if dealer == 0 else "your side's crib"
                    if seating.side_of(dealer) == 0 else f"{seating.possessive(dealer)} crib")
            self.console.rule(f"Deal {event['number']}: {seating.who(dealer)} "
                              f"{seating.verb(dealer, 'deal')}, {crib}", characters="-",
                              style="cyan")
            if event["number"] == 1 and table.game.start_points:
                self._three_for_last(event)
            self.board(event.get("scores"))
            if group:
                n = table.game.players
                self.say(f"{seating.subject(dealer)} {seating.verb(dealer, 'deal')}; the play "
                         f"goes {seating.order((dealer + 1) % n)}.")
        elif kind == "discard":
            seat, crib = event["seat"], seating.possessive(table.dealer)
            if seat == 0:
                self.say(f"You keep {format_cards(event['kept'])} and throw "
                         f"{format_cards(event['thrown'])} to {crib} crib.")
            else:
                n = len(event["thrown"])
                if seat == table.dealer:  # not "The AI throws two cards to the AI's crib"
                    crib = "his own" if group else "its own"
                self.say(f"{seating.subject(seat)} throws {'two cards' if n == 2 else 'a card'}"
                         f" to {crib} crib.")
        elif kind == "starter":
            self._in_show = False
            self._follow(event)
            if table.game.crib_from_pack:
                self.say(f"{seating.subject(event['dealer'])} "
                         f"{seating.verb(event['dealer'], 'add')} the top card of the pack to "
                         "the crib.")
            heels = (f": his heels, 2 to {seating.who(event['dealer'])}" if event["heels"]
                     else "")
            self.say(f"Starter {format_card(event['card'])}{heels}", style="bold")
            if event["heels"]:
                self.say(f"    {self._scores(event['scores'])}")
            if group and not table.over:  # no play after his heels won the game
                lead = seating.who((event["dealer"] + 1) % table.game.players)
                self.say(f"The play ({lead} {'lead' if lead == 'you' else 'leads'}):")
            elif not table.over:
                self.say("The play" + (" (one count):" if table.game.one_count else ":"))
        elif kind == "lay":
            seat = event["seat"]
            self._follow(event)
            said = say_peg(event["count"], event["items"])
            self.say(f"  {seating.label(seat)} {seating.verb(seat, 'lay')} "
                     f"{format_card(event['card'])}    count {event['count']:>2}: "
                     f"{format_cards(event['cards'])}   \"{said}\"",
                     style=None if seat == 0 else "yellow")
            if event["points"]:
                why = ", ".join(f"{_reason(i)} {i.points}" for i in event["items"])
                self.say(f"    {seating.label(seat)} {seating.verb(seat, 'peg')} "
                         f"{event['points']} ({why}): {self._scores(event['scores'])}",
                         style="green")
        elif kind == "go":
            said = " (said for you: no card fits)" if event.get("auto") else ""
            self.say(f"  {seating.label(event['seat'])}: \"go\"{said}")
        elif kind == "go_point":
            seat = event["seat"]
            self.say(f"    {seating.label(seat)} {seating.verb(seat, 'peg')} 1 (go): "
                     f"{self._scores(event['scores'])}", style="green")
        elif kind == "new_count":
            lead = self._next_lead() if group else None
            self.say("  -- the count starts again at 0"
                     + (f": {lead} {'lead' if lead == 'you' else 'leads'} --" if lead else " --"))
        elif kind == "show":
            self._show_count(event)
        elif kind == "end":
            self._show_end(event)

    def _follow(self, event: dict) -> None:
        """Keep count of the play for :meth:`_next_lead`: a starter begins a deal's play, a lay
        is one more card of its seat's, the last laid. (After an undo the events of the deal are
        followed again, not shown: :class:`_Resumed`.)"""
        if event["kind"] == "starter":
            self._last = None
            self._laid = [0] * self.table.game.players
        elif event["kind"] == "lay":
            self._last = event["seat"]
            self._laid[event["seat"]] += 1

    def _next_lead(self) -> str | None:
        """Who leads the new count: the first seat after the last to lay that holds a card, by
        the cards laid so far in the events (a resumed game's events are shown again after the
        table has gone on: its hands now are not those of then)."""
        game = self.table.game
        n = game.players
        if self._last is None:
            return None
        for k in range(1, n + 1):
            seat = (self._last + k) % n
            if self._laid[seat] < game.kept:
                return self.seating.who(seat)
        return None

    def _show_cut(self, event: dict) -> None:
        seating = self.seating
        cards = [format_card(c) for c in event["cards"]]
        dealer = event["dealer"]
        if len(cards) == 2:
            self.say(f"Cut for deal: you cut {cards[0]}, the AI cuts {cards[1]}: "
                     f"{seating.who(dealer)} {seating.verb(dealer, 'deal')} first (low card).")
            return
        cuts = ", ".join(f"{seating.who(s)} {card}" for s, card in enumerate(cards))
        self.say(f"Cut for deal: {cuts}: {seating.who(dealer)} {seating.verb(dealer, 'deal')} "
                 "first (low card).")

    def _three_for_last(self, event: dict) -> None:
        """The points the form gives the pone of the first deal (five-card: three for last),
        said once the cut has decided who the pone is."""
        pone = 1 - event["dealer"]
        points = self.table.game.start_points
        self.say(f"The pone of the first deal pegs {points} (three for last): "
                 + (f"you peg {points}." if pone == 0 else f"the AI pegs {points}."))

    def _show_count(self, event: dict) -> None:
        seat = event["seat"]
        self._show_heading(event["starter"])
        what = "crib" if event["crib"] else "hand"
        claimed, points = event["claimed"], event["points"]
        self.say(f"  {self.seating.possessive(seat)} {what} {format_cards(event['cards'])}: "
                 f"{points}"
                 f"   ({self._scores(event['scores'])})", style="bold")
        self.say(f"    \"{say_count(event['items'])}\"")
        if claimed is not None and claimed < points:
            missed = _missed_words(event.get("missed") or [])
            them = self.seating.side_name(1)
            takes = "The AI takes" if them == "the AI" else f"{them} take"
            self.say(f"    you claimed {claimed} of {points}: muggins! {takes} the "
                     f"{points - claimed} you missed" + (f" ({missed})" if missed else ""),
                     style="red")
        elif claimed is not None and claimed > points:
            self.say(f"    you claimed {claimed}, but it counts {points}: you peg {points}, "
                     "not more", style="red")
        elif claimed is not None:
            self.say(f"    you claimed {claimed}: right")

    def _show_heading(self, starter: int) -> None:
        if not self._in_show:
            self._in_show = True
            self.say(f"The show (starter {format_card(starter)}):")

    def _show_end(self, event: dict) -> None:
        self.say()
        self.board()
        scores, winner, tiers = event["scores"], event["winner"], event["skunk"]
        words = ("", " (a skunk)", " (a double skunk)", " (a triple skunk)")
        seating = self.seating
        if len(scores) == 2:
            if seating.partners:
                who = ("You and your partner win" if winner == 0 else
                       f"{seating.side_name(winner)} win")
            else:
                who = "You win" if winner == 0 else "The AI wins"
            self.say(f"{who} {scores[winner]}-{scores[1 - winner]}{words[max(tiers)]}.",
                     style="bold")
            return
        who = "You win" if winner == 0 else f"{seating.subject(winner)} wins"
        losers = ", ".join(f"{seating.who(s)} {scores[s]}{words[tiers[s]]}"
                           for s in range(len(scores)) if s != winner)
        self.say(f"{who} with {scores[winner]}: {losers}.", style="bold")

    # ------------------------------------------------------------------ input

    def _line(self, prompt: str) -> str:
        """One line of input, stripped; the end of input raises QuitGame."""
        try:  # the prompt's cards as the screen writes them (5♥ in colour), without colour
            text = self._read(_suited(prompt).plain if self.fancy else prompt)
        except EOFError:
            self.say()  # the cursor is on the prompt's line
            raise QuitGame("end of input") from None
        if self.echo:
            self.say(text)
        return text.strip()

    def ask(self, prompt: str) -> str:
        """One line of input, stripped. ``help`` prints the commands and asks again; ``undo``
        raises Undo when the table allows it, else says why not and asks again; ``quit`` asks
        to confirm, then raises QuitGame (so does the end of input)."""
        while True:
            text = self._line(prompt)
            if text.lower() == "help":
                self.say(HELP, wrap=False)
                continue
            if text.lower() == "why":
                self.why()
                continue
            if text.lower() == "undo":
                why = self.table.undo_refused()
                if why is not None:
                    self.wrong(why)
                    continue
                raise Undo()
            if text.lower() in _QUIT_WORDS:
                answer = ""
                while answer not in ("y", "yes", "n", "no"):  # asked again until it is one
                    try:
                        answer = self._line("Stop the game here? It is saved unfinished "
                                            "(y/n)> ").lower()
                    except QuitGame:  # the input ends: as good as a yes
                        answer = "y"
                    if answer not in ("y", "yes", "n", "no"):
                        self.wrong("answer y (stop, the game saved) or n (go on)")
                if answer in ("y", "yes"):
                    raise QuitGame("quit")
                self.say("The game goes on.")
                continue
            return text

    def wrong(self, message: str) -> None:
        self.say(f"  {message}", style="red")

    def _held(self, cards: list[int]) -> str:
        return "  ".join(f"{k} {format_card(c)}" for k, c in enumerate(cards, start=1))

    def _pick(self, text: str, cards: list[int]) -> list[int]:
        """The cards named in ``text``, by card or by position in ``cards``; ValueError
        (a one-line message) otherwise."""
        picked = []
        for token in text.replace(",", " ").split():
            rank = _RANK_WORDS.get(token.upper())
            if rank is not None:  # a rank alone: the one card of that rank held
                same = [c for c in cards if format_card(c)[0] == rank]
                if len(same) != 1:
                    raise ValueError(f"you hold no card of rank {token.upper()}" if not same else
                                     f"you hold {format_cards(same)}: say which")
                card = same[0]
            elif token.isascii() and token.isdigit():
                k = int(token) if len(token) <= 3 else 0  # '²' is no position; nor 40 digits
                if not 1 <= k <= len(cards):
                    # the rank it may mean: a digit is a position, the cards of its rank named
                    same = [c for c in cards if format_card(c)[0] == token]
                    named = (f"; your {format_cards(same)}: type the card" if same else
                             f" (or name a card, as {format_card(cards[0])})")
                    shown = token if len(token) <= 12 else token[:12] + "..."
                    raise ValueError(f"no card at position {shown}: positions are 1 to "
                                     f"{len(cards)}{named}")
                card = cards[k - 1]
            else:
                try:
                    card = parse_card(token)
                except CardError as exc:
                    shown = token.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                    if len(shown) > 12 or shown != token:  # a card is 2 or 3 characters
                        raise ValueError(f"cannot read {shown[:12]!r}"
                                         f"{'...' * (len(shown) > 12)}: not a card (a card "
                                         "like 5H, or its position like 2)") from None
                    # the card error names the token too: say it once
                    head, _, why = str(exc).partition(": ")
                    if not head.startswith("cannot read"):  # "unknown rank in 'ZZ'"
                        why = f"{head.replace(f' in {token!r}', '')}; {why}"
                    raise ValueError(f"cannot read {token!r}: {why}") from None
                if card not in cards:
                    raise ValueError(f"{format_card(card)} is not in your hand "
                                     f"({format_cards(cards)})")
            if card in picked:
                raise ValueError(f"{format_card(card)} is named twice")
            picked.append(card)
        return picked

    def discard(self, table: Table, seat: int) -> list[int]:
        hand = table.hand(seat)
        n = table.game.thrown
        whose = self.seating.crib_of(table.dealer)
        self.say(f"Your hand: {self._held(hand)}")
        if self.hints:
            self.keep_advice(table, seat)
        while True:
            text = self.ask(f"Throw {'two cards' if n == 2 else 'a card'} to {whose} crib> ")
            if text == "?":
                self.keep_advice(table, seat)
                continue
            try:
                picked = self._pick(text, hand)
            except ValueError as exc:
                self.wrong(str(exc))
                continue
            if len(picked) != n:
                self.wrong(f"throw {n} cards (cards like 5H JC, or positions like 1 4): you "
                           f"named {len(picked)}")
                continue
            return picked

    def lay(self, table: Table, seat: int) -> int | None:
        hand, legal = table.hand(seat), table.legal(seat)
        if not legal and not table.says_go(seat):  # your go said in this count, or the go yours
            return None
        count = table.count
        laid = f" on {format_cards(table.count_cards)}" if table.count_cards else ""
        self.say(f"  Your cards: {self._held(hand)}   (count {count}{laid})")
        if self.hints:
            self.play_advice(table, seat)
        prompt = "  Lay a card> " if legal else "  No card fits: say go> "
        while True:
            text = self.ask(prompt)
            if text == "?":
                self.play_advice(table, seat)
                continue
            if text.lower() == "go":
                if legal:
                    self.wrong(f"you can lay {format_cards(legal)} on {count}: go only when no "
                               "card fits")
                    continue
                return None
            if len(text.replace(",", " ").split()) > 1:  # told so before what each names
                picked = []
            else:
                try:
                    picked = self._pick(text, hand)
                except ValueError as exc:
                    self.wrong(str(exc))
                    continue
            if len(picked) != 1:
                self.wrong("lay one card (a card like 5H, or its position like 2)" if legal
                           else f"no card fits on {count}: type go")
                continue
            card = picked[0]
            if card not in legal:
                from ..core.cards import card_value

                self.wrong(f"{format_card(card)} would make {count + card_value(card)}, past 31"
                           + (f": lay {format_cards(legal)}" if legal else ": say go"))
                continue
            return card

    def claim(self, table: Table, seat: int, cards: list[int], crib: bool) -> int:
        what = "crib" if crib else "hand"
        self._show_heading(table.starter)
        while True:
            text = self.ask(f"  Count your {what} {format_cards(cards)} with "
                            f"{format_card(table.starter)}> ")
            if text == "?":
                self.say("  Muggins: count it yourself; a count too low gives the rest to "
                         f"{self.seating.side_name(1)}.")
                continue
            if not (text.isascii() and text.isdigit()) or int(text) > 29:
                self.wrong("type the points you count: a number from 0 to 29")
                continue
            return int(text)

    # ------------------------------------------------------------------ advice

    def why(self) -> None:
        """The AI's choices in the last deal shown, each with its top alternatives
        (:func:`analyzer.table.review.explain_deal`): its cards are all seen by then. In the
        forms of three and four players, every AI seat's discard and cards laid, each named
        (West, your partner, East)."""
        from ..table.objective import format_alternatives
        from ..table.review import explain_deal

        table, seating = self.table, self.seating
        group = table.game.players > 2
        record = table.record()
        if not record["deals"]:
            whose = "the AIs'" if group else "the AI's"
            # at the first deal's show (a muggins count) its hand is seen, its crib not yet
            self.say(f"  why: {whose} choices are shown once a deal's show is over",
                     style="cyan")
            return
        number = len(record["deals"])
        whose = "the AIs'" if group else "the AI's"
        self.say(f"  Why: {whose} choices in deal {number}, each with its top 3:", style="cyan")
        for seat in (p for p, ai in enumerate(table.ai) if ai):
            who = f"{seating.subject(seat)} " if group else ""
            for row in explain_deal(record, number, seat, samples=ADVICE_SAMPLES):
                did = (f"kept {row['done']}" if row["kind"] == "discard" else
                       f"led {row['done']}" if row["position"] == "lead" else
                       f"laid {row['done']} {row['position']}")
                self.say(f"    {who}{did}, by {row['objective']}:", style="cyan")
                self.say("      " + format_alternatives(row["alternatives"], row["objective"],
                                                        row["done"], row["value_done"]),
                         style="cyan")

    def keep_advice(self, table: Table, seat: int) -> None:
        frame = keep_advice(table, seat, samples=ADVICE_SAMPLES)
        own = table.side(table.dealer) == table.side(seat)
        play = table.game.name == "six-card"
        to_win = frame.attrs["objective"] == "P(win)"
        by = ("P(win), near the end; and their points" if to_win else
              "points: hand, crib, play" if play else "points: hand and crib")
        self.say(f"  Advice (the analyzer's best keeps, by {by}):", style="cyan")
        for k, row in enumerate(frame.itertuples(index=False), start=1):
            crib = row.crib_mean if own else -row.crib_mean
            parts = f"hand {row.hand_mean:.2f}, crib {fixed(crib, sign='+')}"
            parts += f", play {fixed(row.peg_mean, sign='+')}" if play else ""
            said = (f"P(win) {row.p_win:.2%} ({fixed(row.net)} points)" if to_win else
                    f"{fixed(row.net)} ({parts})")
            self.say(f"    {k}. keep {row.keep}, throw {row.discard}: {said}", style="cyan")

    def play_advice(self, table: Table, seat: int) -> None:
        """Each card that fits valued (:func:`analyzer.table.tabletop.play_advice`), best
        first; P(win) shown where the form has it (every form: each has a win-odds table), and a
        card that reaches the target (first in the other forms) said to win the game."""
        if not table.legal(seat):
            self.say("  Advice: no card fits, say go.", style="cyan")
            return
        frame = play_advice(table, seat, samples=ADVICE_SAMPLES)
        self.say(f"  Advice by {frame.attrs['objective']} (points now, the rest of the play "
                 "for minus against):", style="cyan")
        for row in frame.itertuples(index=False):
            said = (f"    {row.card}: now {row.now}, rest {fixed(row.rest, sign='+')}, total "
                    f"{fixed(row.total, sign='+')}")
            if "p_win" in frame:
                said += f", P(win) {_percent(row.p_win)}"
            if getattr(row, "wins_now", False):
                said += ", wins the game"
            self.say(said, style="cyan")


# --------------------------------------------------------------------------- the command


def end_of_game_review(record: dict, player: TerminalPlayer):
    """Print the review of the person's decisions in the game just finished (``record``):
    :func:`analyzer.table.review.review_game` and :func:`~analyzer.table.review.format_review`, what
    ``crib review FILE`` prints of the saved game. Returns the
    :class:`~analyzer.table.review.Review` (its totals go to the history)."""
    from ..table.review import format_review, review_game

    player.say()
    player.say("Your decisions, reviewed (crib review FILE prints this again):", style="bold")
    review = review_game(record)
    for line in format_review(review).splitlines():
        player.say(line, wrap=False)
    return review


def _percent(p: float) -> str:
    """A probability in per cent, to a tenth of a point; to a hundredth within a point of 0 or
    100%, where the cards near the end of a game differ (0.27% and 0.04%, not both 0.0%).

    >>> _percent(0.5504), _percent(0.0027), _percent(0.99961)
    ('55.0%', '0.27%', '99.96%')
    """
    return f"{p:.2%}" if p < 0.01 or p > 0.99 else f"{p:.1%}"


def _not_in_history(what: str, exc: Exception) -> None:
    print(f"crib play: {what} was not added to the history: {exc}", file=sys.stderr)


def _prepare(opponent: str, variant: str, hints: bool) -> None:
    """Compile what the AI's decisions (and with ``hints``, the play's advice) run, on a
    background thread at the start of a game (:func:`analyzer.play.seat.prepare`): the first
    decisions then find them ready, or wait only for the rest of the compile. The first
    decisions' kernels first, the advice next, then a whole game of the AI against itself at a
    table, which compiles every kernel a game calls in the order a game calls them: the
    table's own steps in its first deal, ``best``'s samples of a deal's end (the longest compile,
    needed only near the end of a game) last. (Numba compiles one kernel at a time: a kernel
    the game asks for while another compiles waits for it, so the game's kernels must not wait
    behind the end's.)

    The thread blocks SIGINT from its start (:func:`_start_without_ctrl_c`), so that Ctrl-C
    always reaches the main thread's prompt: a signal taken by this thread would wake nothing,
    and the game would sit at its prompt.
    """
    from ..play.search import advise_play
    from ..play.seat import prepare

    try:
        prepare(opponent, variant, end=False)
        if hints and variant == "six-card":
            advise_play("5H 6D JC QS", dealer=False, starter="2C", samples=4)
        elif hints:
            game = variant_game(variant)
            advise_play([4 * k for k in range(game.kept)], seat=0, dealer=game.players - 1,
                        starter=51, score=[0] * game.teams, samples=4, variant=game.name)
        Table([opponent] * variant_game(variant).players, variant=variant, seed=0).play()
    except Exception:  # noqa: BLE001 - the game asks again, and says what is wrong then
        pass


def _start_without_ctrl_c(thread: threading.Thread) -> None:
    """Start ``thread`` with SIGINT blocked in it from its first instruction: a new thread
    takes the signal mask of the thread that starts it, so the mask is set here, around the
    start, and put back (a Ctrl-C meanwhile waits, then reaches this thread). Blocking it in
    the new thread itself left a moment in which the kernel could hand it a Ctrl-C."""
    if not hasattr(signal, "pthread_sigmask"):
        thread.start()
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        thread.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def default_save_path() -> Path:
    """Where a game is saved without ``--save``: ``crib-game-DATE-TIME.jsonl`` here."""
    return Path(f"crib-game-{datetime.now():%Y%m%d-%H%M%S}.jsonl")


def read_resumable(path: str) -> dict:
    """The one game record of ``path`` (saved by ``crib play``), for ``--resume``; a UsageError
    (one line) when it cannot be read, is not a record, or holds not exactly one game."""
    from ..sim.records import RecordError, read_records
    from .common import UsageError

    try:
        records = read_records(path)
    except RecordError as exc:
        raise UsageError(f"crib play: --resume: {exc}") from None
    if len(records) != 1:
        raise UsageError(f"crib play: --resume: {path} holds {len(records)} games, not the one "
                         "game crib play saves")
    record = records[0]
    seats = record.get("seats") or []
    if len(seats) < len(NAMES) or seats[0] != "you" or "you" in seats[1:]:
        who = " against ".join(seats) if seats else "no seats named"
        raise UsageError(f"crib play: --resume: {path}: not a game of crib play (you in seat 0 "
                         f"against the AI): {who}")
    return record


def _history_option(history) -> str:
    """`` --history PATH`` for a command told to use the history ``history``, when it is not
    the one it finds by itself (``$ANALYZER_HISTORY``, else the user data folder's); else
    nothing."""
    from ..table.history import default_path

    if history is None or Path(history).resolve() == default_path().resolve():
        return ""
    return f" --history {shlex.quote(str(history))}"


def play_in_terminal(variant: str = "six-card", opponent: str = "best", seed: int | None = None,
                     hints: bool = False, muggins: bool = False, first: str = "cut",
                     save: str | None = None, console=None, read=None,
                     level: str | None = None, history=None,
                     resume: dict | None = None, resume_path: str | None = None,
                     auto_go: bool = True) -> int:
    """Play one game against the AI at the terminal; return the exit status (0, or 130 after
    Ctrl-C). Arguments as ``crib play`` takes them (``first``: ``"me"``, ``"ai"`` or
    ``"cut"``); ``seed`` None draws one (printed, so the game can be played again); ``level``
    the name of the level ``opponent`` plays (None: an opponent chosen by spec); ``history``
    the history file the game is added to (:mod:`analyzer.table.history`), None for none.

    ``resume``: an unfinished record saved by ``crib play`` (:func:`read_resumable` of
    ``resume_path``), whose setup replaces the other arguments: the game goes on where it
    stopped, and is saved to ``save`` (by default back to ``resume_path``). A record that cannot
    be resumed is a UsageError, before anything is printed or written.
    """
    import numpy as np
    from rich.console import Console

    from ..sim.records import write_records
    from ..table.history import HistoryError, add_game, add_review, find_game
    from ..table.session import ResumeError, Session
    from .common import UsageError

    if console is None:  # NO_COLOR: no colour and no bold either (rich keeps the bold)
        console = Console(highlight=False,
                          color_system=None if os.environ.get("NO_COLOR") else "auto")
    echo = read is None and not sys.stdin.isatty()
    player = TerminalPlayer(console, read=read or read_line, hints=hints, echo=echo)
    on_live = _Resumed(player, resume_path)
    if resume is not None:
        try:
            session = Session.resume(resume, player, emit=player.show, on_live=on_live,
                                     names=_seat_names(resume.get("variant", "six-card")),
                                     auto_go=auto_go)
            player.table = session.table
        except ResumeError as exc:
            raise UsageError(f"crib play: --resume: {resume_path}: {exc}") from None
        save = resume_path if save is None else save
        seed = resume["table"]["seed"]
        variant = resume.get("variant", "six-card")
        opponent = next(name for name in resume["seats"] if name != "you")
    else:
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (2**63))
        seat_first = {"me": 0, "ai": 1, "cut": "cut"}[first]
        players = variant_game(variant).players
        session = Session((player, *[opponent] * (players - 1)), variant=variant, seed=seed,
                          first=seat_first, names=_seat_names(variant),
                          muggins=muggins, emit=player.show, on_live=on_live, level=level,
                          auto_go=auto_go)
        player.table = session.table
    # compile the AI's (and the advice's) kernels while you look at your first hand
    _start_without_ctrl_c(threading.Thread(target=_prepare, args=(opponent, variant, hints),
                                           daemon=True, name="crib-play-prepare"))
    if resume is None:
        _greet(player, session.table, opponent, seed, muggins)
    status = 0
    try:
        # SIGHUP and SIGTERM, which would end the process at once and lose the game, raise
        # _Ended in the game's thread instead
        with handled(("SIGHUP", "SIGTERM"), _raise_ended):
            session.play()
    except ResumeError as exc:  # the replay did not give the record back: nothing written
        raise UsageError(f"crib play: --resume: {resume_path}: {exc}") from None
    except QuitGame:
        player.say("You stop the game.")
    except _Ended as ended:  # the terminal closed, or the process told to end: saved quietly
        status = 128 + ended.signum
        if ended.signum == getattr(signal, "SIGHUP", None):  # no terminal to write to now
            nowhere = open(os.devnull, "w")  # kept open to the process's end
            player.console.file = sys.stdout = sys.stderr = nowhere
        else:
            player.say()
            player.say("Ended from outside (SIGTERM): the game stops.")
    except KeyboardInterrupt:
        player.say()
        player.say("Interrupted: you stop the game.")
        status = _EXIT_INTERRUPTED
    if session.resuming:  # stopped while a resume was replaying: the file is as it was
        return status
    record = session.record()
    path = Path(save) if save is not None else default_save_path()
    try:
        write_records(path, [record])
    except OSError as exc:
        print(f"crib play: cannot save the game to {path}: {exc.strerror or exc}",
              file=sys.stderr)
    else:
        state = "the game" if not record.get("unfinished") else "the unfinished game"
        player.say(f"Saved {state} to {path}", wrap=False)  # a path is never broken
        player.say(f"(crib replay {path} prints it)", wrap=False)
    game_id = None
    if history is not None:
        try:
            # a resumed game replaces its unfinished row, when the history has it (a game
            # played with --no-history, or with another history, has none there)
            replaced = resume is not None and find_game(resume, history) is not None
            game_id = add_game(record, history, seed=seed, resumed=resume)
        except HistoryError as exc:
            _not_in_history("the game", exc)
        else:
            done = "Updated in" if replaced else "Added to"
            player.say(f"{done} your history (crib stats sums it up).")
    if status > _EXIT_INTERRUPTED:  # ended from outside: no review to wait for
        return status
    if not record.get("unfinished"):
        try:
            review = end_of_game_review(record, player)
        except KeyboardInterrupt:
            player.say()
            player.say(f"Review stopped: crib review {path}{_history_option(history)} "
                       "reviews the game"
                       + (" and adds the review to your history." if game_id is not None
                          else "."), wrap=False)
            return _EXIT_INTERRUPTED
        if game_id is not None:
            try:
                add_review(game_id, review, history)
            except HistoryError as exc:
                _not_in_history("the review", exc)
    return status


class _Ended(Exception):
    """The game ended from outside the game: the terminal hung up (SIGHUP) or the process was
    told to end (SIGTERM). It is saved unfinished, as after Ctrl-C."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _raise_ended(signum, _frame):
    raise _Ended(signum)


def _seat_names(variant: str):
    """The seats as the reasons an undo is refused name them (``West has laid 5S``); None for a
    form this version does not know (the resume refuses it)."""
    from ..core.game import VARIANTS

    return Seating(VARIANTS[variant]).names if variant in VARIANTS else None


def _greet(player: TerminalPlayer, table: Table, opponent: str, seed: int, muggins: bool,
           resumed: str | None = None) -> None:
    """The first lines of a game: its form, the opponent (and its level) and the seed."""
    game = table.game
    against = opponent if table.level is None else f"{table.level} ({opponent})"
    you = "you"
    if game.players == 3:
        against = f"two AIs at {against}"
    elif game.players == 4:
        you, against = "you and an AI partner", f"two AIs, all at {against}"
    player.say(f"crib play: {game.name} cribbage to {game.target}, {you} against {against}, "
               f"seed {seed}{', muggins' if muggins else ''}.", style="bold")
    if resumed:
        player.say(f"Resumed from {resumed}, where the game stopped.", wrap=False)
    if game.players > 2:
        player.say(player.seating.seats_said())
        if parse_player(opponent)[1] == PEGGING_POLICIES["best"]:
            if game.players == 3:
                player.say(f"In {game.name}, best keeps as ev and searches the play to win.")
            else:
                player.say(f"In {game.name}, best keeps as ev until the game can end in the "
                           "deal, then to win, and searches the play to win.")
    player.say("Type cards (5H JC) or their positions (1 4); ? for advice; undo; help; quit.")


class _Resumed:
    """What the terminal shows when a replay puts the game back (``on_live`` of
    :class:`analyzer.table.session.Session`): after a resume, the game's first lines and the
    deal in progress as it went; after an undo, what was taken back."""

    def __init__(self, player: TerminalPlayer, path: str | None):
        self.player = player
        self.path = path

    def __call__(self, table: Table, events: list[dict], undone) -> None:
        player = self.player
        player.table = table
        if undone is not None:
            kind, _, answer = undone
            what = {"discard": lambda: f"your discard {format_cards(sorted(answer))}",
                    "lay": lambda: f"your {format_card(answer)}",
                    "claim": lambda: f"your count of {answer}"}[kind]()
            player.say(f"  Taken back: {what} ({player._scores(table.scores.tolist())}).",
                       style="cyan")
            player._follow({"kind": "starter"})  # the play as it stands now, without the
            for event in events:  # card taken back
                player._follow(event)
            if kind != "claim":  # before the show: it is headed again when it comes again
                player._in_show = False
            return
        opponent = next(s for s in table.seats if isinstance(s, str))
        setup = table.setup
        _greet(player, table, opponent, setup["seed"], setup["muggins"], resumed=self.path)
        player.replaying = True  # the deal in progress as it went, at its scores of then
        try:
            for event in events:
                player.show(event)
        finally:
            player.replaying = False
