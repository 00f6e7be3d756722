"""Card ids, parsing and formatting: the one conversion point between text and ids.

Everything below this module works on small integers::

    card = rank * 4 + suit
    rank 0..12 = A 2 3 4 5 6 7 8 9 T J Q K
    suit 0..3  = C D H S   (clubs, diamonds, hearts, spades)

    id:   0 AC   1 AD   2 AH   3 AS   4 2C  ...  36 TC  37 TD  ...  40 JC  ...  51 KS

The counting value (for 15s and 31) is ``min(rank + 1, 10)``.

People write cards as ``5H``, ``5h``, ``5♥``, ``10H`` or ``TH``, ``AS``, separated by spaces or
commas. :func:`parse_cards` accepts all of these; :func:`format_cards` writes ``TD``-style text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from .errors import CardError

__all__ = [
    "CARD_TEXTS",
    "RANKS",
    "RANK_LABELS",
    "SUITS",
    "CardError",
    "card_rank",
    "check_apart",
    "card_suit",
    "card_value",
    "format_card",
    "format_cards",
    "format_card_rows",
    "parse_card",
    "parse_cards",
    "as_cards",
    "rank_label_index",
    "rank_value",
    "throw_key",
]

RANKS = "A23456789TJQK"
SUITS = "CDHS"
#: The text of each card id, ``CARD_TEXTS[37] == "TD"`` (as :func:`format_card` writes it).
CARD_TEXTS = tuple(r + s for r in RANKS for s in SUITS)
#: Rank labels as published tables write them (Schell's, and the project's rank-only tables).
RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUIT_SYMBOLS = {"♣": 0, "♧": 0, "♦": 1, "♢": 1, "♥": 2, "♡": 2, "♠": 3, "♤": 3}
_SPLIT = re.compile(r"[\s,]+")


# The definitions below are plain Python written so that numba compiles them as they are: kernels
# use the compiled twins in :mod:`analyzer.core.scoring` (``_rank``, ``_suit``, ``_value``,
# ``_throw_key``), so each rule of the card ids is written once, here.


def card_rank(card):
    """Rank 0..12 (A..K) of a card id.

    >>> card_rank(40)  # JC
    10
    """
    return card >> 2


def card_suit(card):
    """Suit 0..3 (C, D, H, S) of a card id."""
    return card & 3


def card_value(card):
    """Counting value of a card id (for 15s and the count): A=1, 2..10, J/Q/K=10.

    >>> card_value(0), card_value(19), card_value(51)
    (1, 5, 10)
    """
    return min((card >> 2) + 1, 10)


def rank_value(rank):
    """Counting value of a rank 0..12: ``card_value`` of any card of that rank.

    >>> rank_value(0), rank_value(9), rank_value(12)
    (1, 10, 10)
    """
    return min(rank + 1, 10)


def throw_key(a, b):
    """The crib tables' key of two cards thrown together: ``(low rank, high rank, suited)``.

    >>> throw_key(51, 18)  # KS and 5H
    (4, 12, 0)
    """
    ra, rb = a >> 2, b >> 2
    return min(ra, rb), max(ra, rb), 1 if (a & 3) == (b & 3) else 0


def rank_label_index(label) -> int:
    """Rank 0..12 of a table's rank label: ``A``, ``2``..``10`` (or ``T``), ``J``, ``Q``, ``K``.

    >>> rank_label_index("10"), rank_label_index("t"), rank_label_index(" Q")
    (9, 9, 11)
    """
    text = str(label).strip().upper()
    if text in RANK_LABELS:
        return RANK_LABELS.index(text)
    if len(text) == 1 and text in RANKS:
        return RANKS.index(text)
    raise CardError(f"unknown rank {label!r}: ranks are A 2-10 (or T) J Q K")


def parse_card(token: str) -> int:
    """Parse one card such as ``5H``, ``th``, ``10♥`` or ``AS`` into its id.

    Examples
    --------
    >>> parse_card("10H"), parse_card("TH"), parse_card("a♠"), parse_card("K\u2665\ufe0f")
    (38, 38, 3, 50)
    >>> parse_card("AS;2S")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    analyzer.core.errors.CardError: cannot read card 'AS;2S': one rank and one suit, e.g. 5H ...
    """
    # an emoji keyboard's suit (♥ followed by the variation selector U+FE0F) is the suit
    text = token.strip().replace("\ufe0f", "").replace("\ufe0e", "")
    if len(text) < 2 or text == "10":  # "10" is a rank alone, not a 1 of suit 0
        raise CardError(f"cannot read card {token!r}: expected a rank and a suit, e.g. 5H")
    rank_text, suit_text = text[:-1].upper(), text[-1]
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS:
        if any(c.upper() in SUITS or c in _SUIT_SYMBOLS for c in text[:-1]):  # 5HH, AS;2S
            raise CardError(f"cannot read card {token!r}: one rank and one suit, e.g. 5H "
                            "(cards are separated by spaces or commas)")
        raise CardError(f"unknown rank in {token!r}: ranks are A 2-10 (or T) J Q K")
    if suit_text in _SUIT_SYMBOLS:
        suit = _SUIT_SYMBOLS[suit_text]
    elif suit_text.upper() in SUITS:
        suit = SUITS.index(suit_text.upper())
    else:
        raise CardError(f"unknown suit in {token!r}: suits are C D H S (or ♣ ♦ ♥ ♠)")
    return RANKS.index(rank_text) * 4 + suit


# Every spelling parse_card accepts, looked up rather than parsed on the common path.
_TOKEN_IDS = {
    rank + suit: parse_card(rank + suit)
    for rank in (*RANKS, *RANKS.lower(), "10")
    for suit in (*SUITS, *SUITS.lower(), *_SUIT_SYMBOLS)
}


def parse_cards(cards: str | Iterable[int] | Iterable[str], n: int | None = None) -> np.ndarray:
    """Parse cards given as text or ids into a ``uint8`` array of distinct card ids.

    Parameters
    ----------
    cards
        Text such as ``"5H 5S 6D JC"`` or ``"5h,5♠,10D"``, a sequence of card strings, or a
        sequence of integer ids (0..51).
    n
        If given, exactly this many cards are required.

    Raises
    ------
    CardError
        Naming the bad token: unknown rank or suit, an id out of range, a duplicated card, or the
        wrong number of cards.

    Examples
    --------
    >>> parse_cards("5H 5S 6D JC").tolist()
    [18, 19, 21, 40]
    """
    if isinstance(cards, str):
        tokens = [t for t in _SPLIT.split(cards.strip()) if t]
        ids = [_TOKEN_IDS[t] if t in _TOKEN_IDS else parse_card(t) for t in tokens]
        names = tokens
    else:
        ids = []
        if not isinstance(cards, np.ndarray | list | tuple) and (
                cards is None or isinstance(cards, bytes | int | float | np.generic)):
            raise CardError(f"cannot read cards {cards!r}: give text such as \"5H 6D\" or a "
                            "sequence of cards (text or ids 0..51)")
        items = cards.ravel().tolist() if isinstance(cards, np.ndarray) else list(cards)
        for item in items:
            if type(item) is int and 0 <= item < 52:  # an id, the common case
                ids.append(item)
            elif isinstance(item, str):
                ids.append(parse_card(item))
            elif isinstance(item, int | np.integer) and not isinstance(item, bool):
                if not 0 <= int(item) < 52:
                    raise CardError(f"card id {item} out of range 0..51")
                ids.append(int(item))
            else:
                raise CardError(f"cannot read card {item!r}")
        names = None  # the items as text, made only for a message below
    repeated = len(set(ids)) != len(ids)
    if names is None and (repeated or (n is not None and len(ids) != n)):
        names = [item if isinstance(item, str) else format_card(card)
                 for item, card in zip(items, ids, strict=True)]
    if repeated:
        seen: dict[int, str] = {}
        for card, name in zip(ids, names, strict=True):
            if card in seen:
                written = "" if seen[card] == name else f" ({seen[card]!r} and {name!r})"
                raise CardError(f"duplicate card {format_card(card)}{written}")
            seen[card] = name
    if n is not None and len(ids) != n:
        given = " ".join(names) if names else "nothing"
        raise CardError(f"expected {n} card{'s' * (n != 1)}, got {len(ids)}: {given}")
    return np.asarray(ids, dtype=np.uint8)


def check_apart(**groups) -> None:
    """Raise :class:`CardError` if a card is in two of the named ``groups`` of ids, or twice in
    one, naming them: ``check_apart(hand=[...], starter=[...])``.

    >>> check_apart(hand=[18, 19], starter=[7], thrown=[7, 11])
    Traceback (most recent call last):
    ...
    analyzer.core.errors.CardError: 2S is both the starter and in thrown
    """
    where: dict[int, str] = {}
    for name, cards in groups.items():
        for card in cards:
            card = int(card)
            if card in where:
                first = where[card]
                said = (f"twice in {name}" if first == name else
                        f"both {_group(first)} and {_group(name)}")
                raise CardError(f"{format_card(card)} is {said}")
            where[card] = name


def _group(name: str) -> str:
    return "the starter" if name == "starter" else f"in {name}"


def as_cards(cards, n: int | None = None) -> np.ndarray:
    """Like :func:`parse_cards`, but a single int id or one card string is accepted as one card."""
    if isinstance(cards, int | np.integer) and not isinstance(cards, bool):
        cards = [int(cards)]
    return parse_cards(cards, n=n)


def format_card(card: int) -> str:
    """Text of one card, an id or text written again the one way: ``format_card(37) == "TD"``,
    ``format_card("10d") == "TD"``."""
    if isinstance(card, str):
        card = parse_card(card)
    elif isinstance(card, bool) or not isinstance(card, int | np.integer):
        raise CardError(f"cannot read card {card!r}: an id 0..51 or text such as 5H")
    card = int(card)
    if not 0 <= card < 52:
        raise CardError(f"card id {card} out of range 0..51")
    return CARD_TEXTS[card]


def format_cards(cards: Iterable[int]) -> str:
    """Text of cards, ids or text, space separated: ``format_cards([18, 19, 21, 40]) == "5H 5S 6D
    JC"``, ``format_cards("5h,5♠") == "5H 5S"``."""
    if isinstance(cards, str):
        cards = [t for t in _SPLIT.split(cards.strip()) if t]
    elif isinstance(cards, np.ndarray):
        cards = cards.ravel().tolist()
    else:  # a sequence, nested or not (each item as it is: 1.7 is refused, not truncated)
        try:
            cards = np.asarray(list(cards), dtype=object).ravel().tolist()
        except TypeError:
            raise CardError(f"cards: text, card ids or a list of them, got {cards!r}"[:200]) \
                from None
    return " ".join(format_card(c) for c in cards)


_NAMES = np.array([RANKS[c // 4] + SUITS[c % 4] for c in range(52)])


def format_card_rows(cards: np.ndarray) -> np.ndarray:
    """Card text of each row of an (n, k) id array, vectorized: (n,) strings like ``"5H 5S"``.

    Examples
    --------
    >>> format_card_rows(np.array([[18, 19], [37, 40]])).tolist()
    ['5H 5S', 'TD JC']
    """
    cards = np.asarray(cards)
    if cards.ndim != 2 or cards.shape[1] == 0:
        raise ValueError(f"expected an (n, k) array of card ids, got shape {cards.shape}")
    if cards.size and (cards.min() < 0 or cards.max() > 51):
        raise CardError("card ids must be 0..51")
    text = _NAMES[cards[:, 0]]
    for j in range(1, cards.shape[1]):
        text = np.char.add(np.char.add(text, " "), _NAMES[cards[:, j]])
    return text
