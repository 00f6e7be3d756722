"""What the web API answers, computed without a web framework: the count, the keeps, the chart.

Each function takes the text a page or a script sends (cards as ``"5H 5S 6D"``, a role as
``"dealer"`` or ``"pone"``) and returns a plain dict ready for JSON, or raises
:class:`InputError` naming the field that is wrong and why, in one line. The numbers are those
of the library (:func:`analyzer.count_hand` and :func:`analyzer.say_count`,
:func:`analyzer.keeping.discard.evaluate_discards`, which is :func:`analyzer.keep` without pandas
(with the table crib its numpy twin :func:`analyzer.keeping.tablekeep.table_discards`),
:func:`analyzer.keep_to_win`, :func:`analyzer.research.plots.discard_chart`); nothing is computed
here that they do not compute.
"""

from __future__ import annotations

import io

from ..core.cards import CardError, as_cards, format_card
from ..core.choices import DEFAULT_SAMPLES, DEFAULT_VARIANT, VARIANT_NAMES, check_number

__all__ = ["MAX_WEB_SAMPLES", "ROLES", "TIE", "InputError", "chart_svg", "count_answer",
           "discards", "keep_answer", "ranks", "win_answer"]

#: The roles a keep is asked for: the crib is the player's (``dealer``) or the opponent's.
ROLES = ("dealer", "pone")
#: The most samples the score-aware view draws for one request (the command line allows more).
MAX_WEB_SAMPLES = 20_000
#: Nets closer than this are equal (the same hand scored in another order): such keeps tie.
TIE = 1e-9


class InputError(ValueError):
    """A request's input that cannot be answered: ``field`` names the input, the message why."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def _cards(text, field: str, n: int | None = None) -> list[int]:
    """Card ids of ``text``, or an :class:`InputError` on ``field``."""
    try:
        return as_cards(text, n=n).tolist()
    except CardError as exc:
        raise InputError(field, str(exc)) from None


def _names(ids) -> list[str]:
    return [format_card(c) for c in ids]


def _variant(variant: str) -> str:
    if variant not in VARIANT_NAMES:
        raise InputError("variant", f"unknown variant {variant!r}: one of "
                         f"{', '.join(VARIANT_NAMES)}")
    return variant


def _dealer(role: str) -> bool:
    if role not in ROLES:
        raise InputError("role", f"unknown role {role!r}: dealer (your crib) or pone (the "
                         "opponent's)")
    return role == "dealer"


def count_answer(hand: str, starter: str, crib: bool = False,
                 variant: str = DEFAULT_VARIANT) -> dict:
    """A hand (or crib) counted out: every combination, its cards, and the count in words.

    Parameters
    ----------
    hand, starter
        The hand's cards and the starter, as text (``"5H 5C 5S JD"``, ``"5D"``).
    crib
        Count it as a crib (a flush needs all five cards).
    variant
        The form of the game (three-card hands in ``"five-card"``).

    Returns
    -------
    dict
        ``hand`` (card text, in the order given), ``starter``, ``crib``, ``variant``, ``items``
        (each ``{"kind", "cards", "points"}``, in the order the count is said), ``total`` and
        ``said`` (:func:`analyzer.say_count`).

    Examples
    --------
    >>> answer = count_answer("5H 5C 5S JD", "5D")
    >>> answer["total"], answer["said"][-8:], len(answer["items"])
    (29, 'makes 29', 15)
    """
    from ..core.counting import cards_shown, count_hand, say_count

    variant = _variant(variant)
    n, what = cards_shown(bool(crib), variant)
    ids = _cards(hand, "hand")
    if len(ids) != n:
        given = " ".join(_names(ids)) or "nothing"
        raise InputError("hand", f"expected {n} cards, got {len(ids)}: {given} ({what} holds "
                         f"{n})")
    if not starter.strip():
        raise InputError("starter", "no starter: give the card cut, e.g. 5D")
    (s,) = _cards(starter, "starter", n=1)
    if s in ids:
        raise InputError("starter", f"starter {format_card(s)} is also in the hand")
    items = count_hand(ids, s, crib=bool(crib), variant=variant)
    return {
        "hand": _names(ids),
        "starter": format_card(s),
        "crib": bool(crib),
        "variant": variant,
        "items": [{"kind": i.kind, "cards": _names(i.cards), "points": i.points} for i in items],
        "total": sum(i.points for i in items), "said": say_count(items),
    }


def ranks(nets) -> list[int]:
    """The rank of each keep by ``nets`` (best first): 1 + the number of keeps with a strictly
    better net, so keeps that tie share a rank and the next is counted past them ("1, 1, 3").

    Examples
    --------
    >>> ranks([7.5, 7.5, 6.0, 5.0, 5.0 - 1e-12, 4.0])
    [1, 1, 3, 4, 4, 6]
    """
    nets = [float(x) for x in nets]
    return [1 + sum(1 for y in nets if y > x + TIE) for x in nets]


def _keep_args(hand: str, role: str, variant: str) -> tuple[list[int], bool, str]:
    variant = _variant(variant)
    dealer = _dealer(role)
    from ..core.game import VARIANTS

    game = VARIANTS[variant]
    ids = _cards(hand, "hand")
    if len(ids) != game.dealt:
        given = " ".join(_names(ids)) or "nothing"
        raise InputError("hand", f"expected {game.dealt} cards, got {len(ids)}: {given} (a "
                         f"{game.name} hand is dealt {game.dealt})")
    return ids, dealer, variant


def _crib_mode(crib: str | None, variant: str) -> str:
    from ..core.choices import crib_mode_for

    try:
        return crib_mode_for(crib, variant)
    except ValueError as exc:
        raise InputError("crib", str(exc)) from None


def discards(ids: list[int], dealer: bool, crib: str, variant: str = DEFAULT_VARIANT,
             pegging: bool = True) -> dict:
    """The keeps of a dealt hand ranked, as :func:`analyzer.keeping.discard.evaluate_discards` gives
    them: with the table crib by :func:`analyzer.keeping.tablekeep.table_discards` (numpy alone, the
    same values to the bit, so the server starts without loading compiled code), with the exact
    cribs by the compiled kernels."""
    if crib == "table":
        from ..keeping.tablekeep import table_discards

        return table_discards(ids, dealer, variant=variant, pegging=pegging)
    from ..keeping.discard import evaluate_discards

    return evaluate_discards(ids, dealer, crib=crib, variant=variant, pegging=pegging)


def keep_answer(hand: str, role: str, crib: str | None = None, pegging: bool = True,
                variant: str = DEFAULT_VARIANT) -> dict:
    """The ways to keep cards of a dealt hand, ranked best first, as :func:`analyzer.keep` ranks
    them.

    Parameters
    ----------
    hand
        The dealt cards as text: six, or five in the other forms.
    role
        ``"dealer"`` (the crib is yours) or ``"pone"``.
    crib, pegging, variant
        As for :func:`analyzer.keep` (``pegging``: the net counts the play; six-card only).

    Returns
    -------
    dict
        ``hand``, ``role``, ``crib_mode``, ``variant``, ``pegging`` and ``rows``: one per keep,
        best first, each with its ``rank`` (:func:`ranks`: keeps that tie share one),
        ``keep`` and ``discard`` (card text lists) and the numbers of
        :func:`analyzer.keep`'s columns (``hand_mean``, ``hand_min``, ``hand_max``,
        ``hand_std``, ``crib_mean``, ``peg_mean``, ``net``).

    Examples
    --------
    >>> rows = keep_answer("5H 5S 6D JC QS KH", "pone")["rows"]
    >>> len(rows), rows[0]["keep"], round(rows[0]["net"], 3)
    (15, ['5H', '5S', 'JC', 'QS'], 6.858)
    """
    from ..keeping.tablekeep import COLUMNS

    ids, dealer, variant = _keep_args(hand, role, variant)
    mode = _crib_mode(crib, variant)
    result = discards(ids, dealer, mode, variant, bool(pegging))
    numbers = [c for c in COLUMNS if c not in ("keep", "discard")]
    columns = {c: result[c].tolist() for c in numbers}
    rank = ranks(columns["net"])
    rows = [{"rank": rank[i], "keep": result["keep"][i].split(),
             "discard": result["discard"][i].split(), **{c: columns[c][i] for c in numbers}}
            for i in range(len(result["keep"]))]
    return {"hand": result["hand"].split(), "role": result["role"],
            "crib_mode": result["crib_mode"], "variant": result["variant"],
            "pegging": result["pegging"], "rows": rows}


def win_answer(hand: str, role: str, me: int, opp: int, samples: int = DEFAULT_SAMPLES,
               seed: int = 0, crib: str | None = None, pegging: bool = True,
               variant: str = DEFAULT_VARIANT, position: str | None = None,
               third: int | None = None) -> dict:
    """The score-aware view: the keeps of a hand ranked by the probability of winning from the
    score ``me``, ``opp`` (and ``third`` in three-player) (:func:`analyzer.keep_to_win`): the
    15 of a six-card hand, the 10 of a five-card one, the 5 of a three-player or four-player
    one.

    Parameters
    ----------
    hand, role, crib, pegging
        As :func:`keep_answer` (``pegging``: six-card only, ignored in the other forms).
    me, opp
        The scores before the deal (by side in four-player: yours, the other side's), 0 to
        the form's target less one. In three-player ``opp`` is the score of the player on
        your left (who plays after you).
    third
        Three-player (needed there, refused in the others): the score of the player on your
        right. The three are ``crib keep --score ME OPP THIRD``'s.
    samples, seed
        The samples of the rest of the deal (at most :data:`MAX_WEB_SAMPLES`) and their seed.
    variant
        ``"six-card"``, ``"five-card"``, ``"three-player"`` or ``"four-player"``.
    position
        Four-player: your place from the dealer, ``"dealer"``, ``"first"``, ``"second"`` or
        ``"third"`` (by default dealer for ``role`` dealer, first for pone); three-player:
        ``"dealer"``, ``"first"`` or ``"second"``; it must agree with ``role``. Refused in the
        two-player forms, as ``crib keep --position`` is.

    Returns
    -------
    dict
        ``hand``, ``role``, ``score``, ``crib_mode``, ``samples``, ``seed``, ``points_keep``,
        ``win_keep``, ``rival_keep`` (card text lists), ``gain``, ``gain_se``, ``variant``
        (and ``position`` in three- and four-player) and ``rows`` (best ``p_win`` first: the keep's
        columns with ``p_win`` and ``p_win_se``): what ``crib keep --score --json`` prints for
        the same arguments, cards as lists and every column of the keep.

    Examples
    --------
    >>> d = win_answer("5H 5S 6D JC KH", "pone", 100, 95, samples=64, variant="four-player",
    ...                position="third")
    >>> len(d["rows"]), d["position"], d["score"]
    (5, 'third', [100, 95])
    >>> d = win_answer("5H 5S 6D JC KH", "pone", 100, 95, samples=64, variant="three-player",
    ...                position="second", third=110)
    >>> len(d["rows"]), d["position"], d["score"]
    (5, 'second', [100, 95, 110])
    """
    from ..core.errors import ArgumentError
    from ..play.winkeep import check_win_keep, keep_to_win

    variant = _variant(variant)
    dealer = _dealer(role)
    three = variant == "three-player"
    if position is not None and variant not in ("three-player", "four-player"):
        raise InputError("position", f"position is for three-player and four-player, not "
                         f"{variant}")
    score = (me, opp) if third is None else (me, opp, third)
    if three and third is None:
        raise InputError("third", "three-player takes three scores, yours, the player's on "
                         "your left and the player's on your right (got 2)")
    if not three and third is not None:
        whose = "your side's and the other side's" if variant == "four-player" else \
            "yours and the opponent's"
        raise InputError("third", f"{variant} takes two scores, {whose} (got 3)")
    try:  # the seat and the scores: as crib keep --score checks them
        check_win_keep(dealer, score, variant, position)
    except ArgumentError as exc:
        raise InputError(exc.argument, str(exc)) from None
    ids, dealer, variant = _keep_args(hand, role, variant)
    mode = _crib_mode(crib, variant)
    _checked("samples", samples, 1, MAX_WEB_SAMPLES)
    _checked("seed", seed, 0, 2**63 - 1)
    six_card = variant == DEFAULT_VARIANT
    df = keep_to_win(ids, dealer, score, samples=samples, seed=seed, crib=mode,
                     pegging=six_card and bool(pegging), variant=variant, position=position)
    a = df.attrs
    records = df.to_dict("records")
    rows = []
    for r in records:
        row = {k: (v.split() if k in ("keep", "discard") else _plain(v)) for k, v in r.items()}
        rows.append(row)
    answer = {"hand": a["hand"].split(), "role": a["role"], "score": [int(x) for x in a["score"]],
              "crib_mode": a["crib_mode"], "samples": int(a["samples"]), "seed": int(a["seed"]),
              "points_keep": a["points_keep"].split(), "win_keep": a["win_keep"].split(),
              "rival_keep": a["rival_keep"].split(), "gain": float(a["gain"]),
              "gain_se": float(a["gain_se"]), "variant": a["variant"], "rows": rows}
    if variant in ("three-player", "four-player"):
        answer["position"] = a["position"]
    return answer


def _checked(field: str, value, low: int, high: int) -> int:
    try:
        return check_number(field, value, low=low, high=high, integer=True)
    except ValueError as exc:
        raise InputError(field, str(exc)) from None


def _plain(value):
    return value.item() if hasattr(value, "item") else value


def chart_svg(hand: str, role: str, crib: str | None = None, pegging: bool = True,
              variant: str = DEFAULT_VARIANT) -> bytes:
    """The chart of ``crib plot keep`` for a hand, as SVG text (bytes), drawn in memory.

    The figure :func:`analyzer.research.plots.discard_chart` draws from :func:`analyzer.keep`'s
    frame (here built from :func:`discards`, the same columns and values); nothing is written to
    disk.
    """
    import pandas as pd

    from ..keeping.tablekeep import COLUMNS
    from ..research import plots

    ids, dealer, variant = _keep_args(hand, role, variant)
    mode = _crib_mode(crib, variant)
    result = discards(ids, dealer, mode, variant, bool(pegging))
    df = pd.DataFrame({c: result[c] for c in COLUMNS})
    df.attrs.update({k: result[k] for k in ("hand", "role", "crib_mode", "variant", "pegging")})
    fig = plots.discard_chart(df)
    out = io.BytesIO()
    fig.savefig(out, format="svg")
    return out.getvalue()
