"""Card text <-> ids: every accepted spelling, the id layout, formatting and CardError messages."""

from __future__ import annotations

import re

import numpy as np
import pytest

from analyzer import CardError, format_cards, parse_cards, score_hand

RANKS = "A23456789TJQK"
SUITS = "CDHS"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5H", 18),  # rank 4 * 4 + hearts 2
        ("5h", 18),
        ("5♥", 18),
        ("5♣", 16),
        ("5♦", 17),
        ("5♠", 19),
        ("10H", 38),  # rank 9 * 4 + 2, written 10 or T
        ("10h", 38),
        ("TH", 38),
        ("th", 38),
        ("AS", 3),
        ("as", 3),
        ("AC", 0),
        ("KS", 51),
        ("TD", 37),  # 4 * 9 + 1
        ("jc", 40),
        ("qd", 45),
        ("kh", 50),
        ("K\u2665\ufe0f", 50),  # an emoji keyboard's heart: the suit, then U+FE0F
    ],
)
def test_parse_one_card(text, expected):
    got = parse_cards(text)
    assert isinstance(got, np.ndarray)
    assert got.dtype == np.uint8
    assert got.tolist() == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "5H 5S 6D JC QS KH",
        "5h 5s 6d jc qs kh",
        "5H,5S,6D,JC,QS,KH",
        "5h, 5S ,6d,  JC QS,KH",
        "5♥ 5♠ 6♦ J♣ Q♠ K♥",
    ],
)
def test_parse_many_cards(text):
    # spaces, commas or both; case and suit symbols do not matter
    assert parse_cards(text).tolist() == [18, 19, 21, 40, 47, 50]


def test_ten_spellings_mix():
    assert parse_cards("10S TD 10c th").tolist() == [39, 37, 36, 38]


@pytest.mark.parametrize("rank", range(13))
@pytest.mark.parametrize("suit", range(4))
def test_ids_are_rank_times_4_plus_suit(rank, suit):
    assert parse_cards(RANKS[rank] + SUITS[suit]).tolist() == [rank * 4 + suit]


@pytest.mark.parametrize("cid", range(52))
def test_format_round_trips(cid):
    text = format_cards(np.array([cid], dtype=np.uint8))
    assert text == RANKS[cid // 4] + SUITS[cid % 4]
    assert parse_cards(text).tolist() == [cid]


def test_format_writes_t_for_ten():
    assert format_cards(parse_cards("10D")) == "TD"
    assert format_cards(parse_cards("5H 5S 6D JC")) == "5H 5S 6D JC"


def test_format_whole_deck_round_trips():
    deck = np.arange(52, dtype=np.uint8)
    assert parse_cards(format_cards(deck)).tolist() == deck.tolist()


def test_card_error_is_value_error():
    assert issubclass(CardError, ValueError)


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("1H", "1H"),  # unknown rank
        ("ZH", "ZH"),  # unknown rank
        ("5H 1H", "1H"),  # the bad one among good cards
        ("5X", "5X"),  # unknown suit
        ("5H 6D 5X", "5X"),
    ],
)
def test_bad_token_is_named(text, token):
    with pytest.raises(CardError, match=re.escape(token)):
        parse_cards(text)


def test_a_ten_without_its_suit_is_said_so():
    # the page's starter box took "10" as a rank 1 of suit 0: "unknown rank in '10'"
    with pytest.raises(CardError, match="cannot read card '10': expected a rank and a suit"):
        parse_cards("10")


def test_duplicate_is_named():
    # 5H and 5h are the same card
    with pytest.raises(CardError, match="5[Hh]"):
        parse_cards("5H 5h")
    with pytest.raises(CardError, match="5[Hh]"):
        parse_cards("AS 5♥ 5H")


@pytest.mark.parametrize(("text", "got"), [("AH 6D 7C", "3"), ("AH 6D 7C 8S 9H", "5")])
def test_wrong_number_of_cards(text, got):
    # n=4 asks for exactly four cards; the message gives the count wanted and the count found
    with pytest.raises(CardError) as excinfo:
        parse_cards(text, n=4)
    message = str(excinfo.value)
    assert "4" in message
    assert got in message


def test_right_number_of_cards():
    assert parse_cards("AH 6D 7C 8S", n=4).tolist() == [2, 21, 24, 31]


def test_starter_in_hand_is_rejected():
    # DESIGN.md: a starter that is also in the hand is a CardError naming it
    with pytest.raises(CardError, match="5[Hh]"):
        score_hand("5H 5C 5S JD", "5H")
