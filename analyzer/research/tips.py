"""The seeds' tips put to the test: each tip a rule on one decision, valued by the advice.

Players repeat a handful of tips ("don't lead a 5", "the pone should not throw 5s", ...). Here
each is a measurable rule on one decision of the play or the discard. The decisions come from
recorded games (:func:`analyzer.sim.records.decisions`); each is valued, every legal choice of
it, by the public advice: :func:`analyzer.play.search.advise_play` for a card (the points of the
play from here, ``total``, and with the score its ``p_win``) and
:func:`analyzer.play.winkeep.keep_to_win` for a discard (the ``net`` points of the keep and its
``p_win``). Nothing here plays or scores cards itself: the rules are the engine's.

- :func:`positions` lists a record's decisions as the advice's positions, :func:`relevant`
  the cards laid that some tip speaks of;
- :func:`value_choices` values every legal choice of every position (one row a choice);
- :func:`tip_rows` applies each tip to each position where it can be both followed and broken;
- :func:`summarise` gives, a tip a row, how often ``best`` followed it and what breaking it
  costs (points and P(win), 95% intervals); :func:`breaks` the positions where it broke it.

>>> [tip.name for tip in TIPS][:3]
['no 5 lead', 'lead a 4', 'lead low']
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

__all__ = ["TIPS", "Tip", "breaks", "positions", "relevant", "summarise", "tip_rows",
           "value_choices", "wilson"]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Tip:
    """A tip as a rule on one decision.

    ``kind`` is ``"lead"`` (the first card of the play, by the pone), ``"lay"`` (any card laid)
    or ``"discard"``; ``role`` limits it to ``"pone"`` or ``"dealer"`` (None: both);
    ``follows(choice)`` says whether a choice (a row of :func:`value_choices`) obeys it, and
    ``group`` the tip of the seeds' list it comes from.
    """

    name: str
    group: str
    rule: str
    kind: str
    follows: Callable[[dict], bool]
    role: str | None = None


def _rank(card: int) -> int:
    from ..core.cards import card_rank

    return int(card_rank(int(card)))


def _feeds(c: dict) -> bool:
    """The throw's crib expectation on the side of its owner: at least the hand's median for
    the dealer (feed), at most for the pone (starve)."""
    if c["role"] == "dealer":
        return c["crib_mean"] >= c["crib_median"]
    return c["crib_mean"] <= c["crib_median"]


TIPS: tuple[Tip, ...] = (
    Tip("no 5 lead", "don't lead a 5", "the pone's lead is not a 5", "lead",
        lambda c: _rank(c["card"]) != 4),
    Tip("lead a 4", "a 4 is the safest lead", "the pone holding a 4 leads a 4", "lead",
        lambda c: _rank(c["card"]) == 3),
    Tip("lead low", "lead low", "the pone's lead is below 5 (A, 2, 3 or 4)", "lead",
        lambda c: _rank(c["card"]) < 4),
    Tip("not 5 or 21", "avoid leaving the count at 5 or 21",
        "a card laid does not make the count 5 or 21", "lay",
        lambda c: c["count_after"] not in (5, 21)),
    Tip("pone: no 5", "the pone should not throw 5s, pairs or cards close together",
        "the pone throws no 5", "discard", lambda c: 4 not in c["thrown_ranks"], "pone"),
    Tip("pone: no pair", "the pone should not throw 5s, pairs or cards close together",
        "the pone does not throw a pair", "discard",
        lambda c: c["thrown_ranks"][0] != c["thrown_ranks"][1], "pone"),
    Tip("pone: apart", "the pone should not throw 5s, pairs or cards close together",
        "the pone's two thrown ranks are 3 or more apart", "discard",
        lambda c: abs(c["thrown_ranks"][0] - c["thrown_ranks"][1]) >= 3, "pone"),
    Tip("pone: K or A", "Kings and Aces are the safer crib throws",
        "the pone throws a King or an Ace", "discard",
        lambda c: bool({0, 12} & set(c["thrown_ranks"])), "pone"),
    Tip("keep 5s", "keep 5s and cards that make 15", "every 5 dealt is kept", "discard",
        lambda c: 4 not in c["thrown_ranks"]),
    Tip("keep a 15", "keep 5s and cards that make 15", "the four kept make a fifteen",
        "discard", lambda c: c["kept_fifteen"]),
    Tip("feed/starve", "feed your own crib and starve the other",
        "the throw's crib value is at least the hand's median throw's as dealer, at most as "
        "pone", "discard", _feeds),
)


def positions(records: Iterable[dict]) -> tuple[list[dict], list[dict]]:
    """The play and discard decisions of two-player six-card records, as the advice's positions.

    Returns ``(plays, discards)``. A play position (a card was laid; goes decide nothing) has
    ``hand`` (the four kept), ``played`` (every card laid before, in order), ``dealer`` (bool),
    ``starter``, ``thrown``, ``score`` (the seat's and the other's, as the game stands before
    the card: the deal's start plus what the play pegged so far, from the record) and
    ``answer`` (the card laid). A discard position has ``hand`` (the six), ``dealer``,
    ``score`` and ``answer`` (the two thrown). Both carry ``game``, ``deal``, ``seat``.

    >>> from analyzer import simulate
    >>> record = simulate(1, seed=3, players=("ev+lookahead", "ev+greedy"),
    ...                   record_games=1).records[0]
    >>> plays, discards = positions([record])
    >>> len(discards) == 2 * len(record["deals"]), plays[0]["played"], plays[0]["score"]
    (True, [], (0, 0))
    """
    from ..sim.records import decisions

    plays: list[dict] = []
    discards: list[dict] = []
    for record in records:
        for d in decisions(record):
            view, seat = d["view"], d["seat"]
            if view["variant"] != "six-card":
                raise ValueError(f"positions: six-card records only, got {view['variant']}")
            where = {"game": record["game"], "deal": d["deal"], "seat": seat}
            if d["kind"] == "discard":
                discards.append({**where, "hand": list(view["hand"]),
                                 "dealer": bool(view["own_crib"]),
                                 "score": tuple(view["scores"]), "answer": list(d["answer"])})
                continue
            if d["answer"] is None:
                continue
            laid = [card for _, card in view["played"] if card is not None]
            now = list(view["scores"])
            for who, _, points in record["deals"][d["deal"]]["plays"][:len(laid)]:
                now[who] += points
            plays.append({**where, "hand": list(view["hand"]), "played": laid,
                          "dealer": view["dealer"] == seat, "starter": int(view["starter"]),
                          "thrown": list(view["thrown"]), "score": (now[seat], now[1 - seat]),
                          "answer": int(d["answer"])})
    return plays, discards


def _advise(p: dict, samples: int, seed: int):
    """advise_play at a play position: ``(advice, its cards as ids, marked)``. A count ended by
    goes is marked "go" (``marked``) when the card laid is not legal on the old count (then
    nothing of the player's fitted it)."""
    from ..play.search import advise_play

    for played in (p["played"], [*p["played"], "go"]):
        if played is not p["played"] and not p["played"]:
            break
        try:
            advice = advise_play(p["hand"], played, dealer=p["dealer"], starter=p["starter"],
                                 thrown=p["thrown"], score=p["score"], samples=samples,
                                 seed=seed)
        except ValueError:
            continue
        from ..core.cards import parse_card

        cards = [parse_card(c) for c in advice["card"]]
        if p["answer"] in cards:
            return advice, cards, played is not p["played"]
    raise ValueError(f"game {p['game']} deal {p['deal']}: the card laid is not legal in the "
                     "advice's position")


def _fifteen(kept: list[int], unseen: int) -> bool:
    from ..core.counting import count_hand

    return any(item.kind == "fifteen" and unseen not in item.cards
               for item in count_hand(kept, unseen))


def _count_splits(p: dict) -> bool:
    """Whether some legal card makes the count 5 or 21 and another does not (a cheap look:
    one sample, no score)."""
    from ..core.cards import card_value

    advice, cards, _ = _advise({**p, "score": None}, 1, 0)
    count = int(advice.attrs["count"])
    makes = [count + int(card_value(c)) in (5, 21) for c in cards]
    return any(makes) and not all(makes)


def _value_plays(plays: list[dict], first: int, samples: int, seed: int) -> list[dict]:
    from ..core.cards import card_value, format_card, format_cards

    rows: list[dict] = []
    for k, p in enumerate(plays, start=first):
        advice, cards, _ = _advise(p, samples, seed + k)
        count = int(advice.attrs["count"])
        kind = "lead" if not p["played"] else "lay"
        for card, (_, r) in zip(cards, advice.iterrows(), strict=True):
            after = count + int(card_value(card))
            rows.append({"pos": k, "kind": kind, "role": "dealer" if p["dealer"] else "pone",
                         "game": p["game"], "deal": p["deal"], "seat": p["seat"],
                         "me": p["score"][0], "opp": p["score"][1],
                         "chosen": card == p["answer"], "points": float(r["total"]),
                         "p_win": float(r["p_win"]), "label": format_card(card),
                         "hand": format_cards(sorted(p["hand"])), "card": card, "count": count,
                         "count_after": 0 if after == 31 else after,
                         "rest_against": float(r["rest_against"])})
    return rows


def _value_discards(discards: list[dict], first: int, samples: int, seed: int) -> list[dict]:
    from ..core.cards import format_cards, parse_cards
    from ..play.winkeep import keep_to_win

    rows: list[dict] = []
    for k, p in enumerate(discards, start=first):
        frame = keep_to_win(p["hand"], p["dealer"], p["score"], samples=samples, seed=seed + k)
        unseen = next(c for c in range(52) if c not in p["hand"])
        median = float(frame["crib_mean"].median())
        answer = set(p["answer"])
        for _, r in frame.iterrows():
            thrown = [int(c) for c in parse_cards(r["discard"])]
            kept = [c for c in p["hand"] if c not in thrown]
            rows.append({"pos": k, "kind": "discard",
                         "role": "dealer" if p["dealer"] else "pone", "game": p["game"],
                         "deal": p["deal"], "seat": p["seat"], "me": p["score"][0],
                         "opp": p["score"][1], "chosen": set(thrown) == answer,
                         "points": float(r["net"]), "p_win": float(r["p_win"]),
                         "label": r["discard"], "hand": format_cards(sorted(p["hand"])),
                         "thrown_ranks": tuple(sorted(_rank(c) for c in thrown)),
                         "kept_fifteen": _fifteen(kept, unseen),
                         "crib_mean": float(r["crib_mean"]), "crib_median": median})
    return rows


def _value_part(plays, discards, first_play, first_discard, play_samples, keep_samples, seed):
    return (_value_plays(plays, first_play, play_samples, seed)
            + _value_discards(discards, first_discard, keep_samples, seed))


def relevant(plays: list[dict]) -> list[dict]:
    """The play positions some tip speaks of: every lead, and the cards laid where one legal
    card makes the count 5 or 21 and another does not."""
    return [p for p in plays if not p["played"] or _count_splits(p)]


def value_choices(plays: list[dict], discards: list[dict], *, play_samples: int = 2000,
                  keep_samples: int = 512, seed: int = 0, workers: int = 1,
                  progress: bool = False):
    """Every legal choice of every position, valued by the advice: a DataFrame, a row a choice.

    Columns: ``pos`` (the position's number: plays ``0..len(plays)-1``, then the discards),
    ``kind`` (``"lead"``, ``"lay"``, ``"discard"``), ``role``, ``game``, ``deal``, ``seat``,
    ``me``, ``opp`` (the score), ``chosen`` (what the recorded player did), ``points`` (a play:
    the advice's ``total``, points pegged now and for minus against in the rest of the play; a
    discard: the keep's ``net``), ``p_win``, ``label`` (the card, or the cards thrown),
    ``hand``; plays: ``card``, ``count`` (before the card), ``count_after``, ``rest_against``;
    discards: ``thrown_ranks``, ``kept_fifteen``, ``crib_mean``, ``crib_median`` (the median
    of the hand's 15 throws). Position ``k`` (plays and discards numbered apart) is valued with
    the advice's seed ``seed + k``, so the frame is the same whatever ``workers`` (processes).
    ``progress``: a bar of the positions valued on stderr (tqdm's; a widget in a notebook), the
    work then cut in parts of a few dozen positions, which change nothing in the frame.
    """
    import pandas as pd

    total = len(plays) + len(discards)
    n_parts = max(workers, 1) if not progress else max(workers, min(total // 24, 200), 1)
    cut_p = np.linspace(0, len(plays), n_parts + 1).astype(int)
    cut_d = np.linspace(0, len(discards), n_parts + 1).astype(int)
    parts = [(plays[cut_p[i]:cut_p[i + 1]], discards[cut_d[i]:cut_d[i + 1]], int(cut_p[i]),
              int(cut_d[i]), play_samples, keep_samples, seed) for i in range(n_parts)]
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=total, unit="position", file=sys.stderr, smoothing=0.1)
    done: list[list[dict]] = [[] for _ in parts]
    try:
        if workers <= 1:
            for i, part in enumerate(parts):
                done[i] = _value_part(*part)
                if bar is not None:
                    bar.update(len(part[0]) + len(part[1]))
        else:
            from concurrent.futures import ProcessPoolExecutor, as_completed
            from multiprocessing import get_context

            with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
                futures = {pool.submit(_value_part, *part): i for i, part in enumerate(parts)}
                try:
                    for future in as_completed(futures):
                        i = futures[future]
                        done[i] = future.result()
                        if bar is not None:
                            bar.update(len(parts[i][0]) + len(parts[i][1]))
                except BaseException:  # an error or Ctrl-C: the parts not started are dropped
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise
    finally:
        if bar is not None:
            bar.close()
    # the plays' rows first, whatever the parts: the frame's columns in one order
    rows = [row for part in done for row in part if row["kind"] != "discard"]
    rows += [row for part in done for row in part if row["kind"] == "discard"]
    frame = pd.DataFrame(rows)
    if len(frame):
        frame.loc[frame["kind"] == "discard", "pos"] += len(plays)
        frame = frame.sort_values(["pos"], kind="stable").reset_index(drop=True)
    return frame


def tip_rows(choices, tips: Iterable[Tip] = TIPS):
    """Each tip at each position where it applies and can be both followed and broken.

    A DataFrame, a row a (tip, position): ``tip``, ``pos``, ``role``, ``me``, ``opp``,
    ``hand``, ``chosen`` (the recorded choice's label), ``followed`` (it obeys the tip),
    ``points_follow`` / ``points_break`` (the best choice, by points, that obeys / breaks it),
    ``win_follow`` / ``win_break`` (the same by P(win)), ``best_follows`` (the choice worth most
    points obeys it) and ``best_break`` (the label of the best choice that breaks it).
    """
    import pandas as pd

    out: list[dict] = []
    records = choices.to_dict("records")
    by_pos: dict[int, list[dict]] = {}
    for c in records:
        by_pos.setdefault(c["pos"], []).append(c)
    for tip in tips:
        kinds = ("lead", "lay") if tip.kind == "lay" else (tip.kind,)
        for pos, cs in by_pos.items():
            first = cs[0]
            if first["kind"] not in kinds or (tip.role and first["role"] != tip.role):
                continue
            ok = [tip.follows(c) for c in cs]
            if all(ok) or not any(ok):
                continue
            yes = [c for c, o in zip(cs, ok, strict=True) if o]
            no = [c for c, o in zip(cs, ok, strict=True) if not o]
            chosen = [c for c in cs if c["chosen"]]
            if not chosen:
                continue
            top = max(cs, key=lambda c: c["points"])
            worst_no = max(no, key=lambda c: c["points"])
            out.append({"tip": tip.name, "pos": pos, "role": first["role"],
                        "me": first["me"], "opp": first["opp"], "hand": first["hand"],
                        "chosen": chosen[0]["label"], "followed": bool(tip.follows(chosen[0])),
                        "points_follow": max(c["points"] for c in yes),
                        "points_break": worst_no["points"],
                        "win_follow": max(c["p_win"] for c in yes),
                        "win_break": max(c["p_win"] for c in no),
                        "best_follows": bool(tip.follows(top)), "best_break": worst_no["label"],
                        "count": first.get("count")})
    return pd.DataFrame(out)


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's 95% interval for a proportion ``k / n`` (``(nan, nan)`` when ``n`` is 0).

    >>> [round(x, 4) for x in wilson(45, 50)]
    [0.7864, 0.9565]
    """
    if n == 0:
        return float("nan"), float("nan")
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # exactly 0 or 1 at the ends (rounding would put them a hair inside)
    return (0.0 if k == 0 else float(centre - half)), (1.0 if k == n else float(centre + half))


def _mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    n = len(x)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(np.mean(x))
    half = Z95 * float(np.std(x, ddof=1)) / np.sqrt(n) if n > 1 else float("nan")
    return mean, mean - half, mean + half


def summarise(rows, tips: Iterable[Tip] = TIPS):
    """A tip a row: how often the recorded choice followed it, what breaking it costs.

    Columns: ``tip``, ``rule``, ``n`` (positions where it applies and can be both followed and
    broken), ``follows`` with ``follows_low`` / ``follows_high`` (Wilson 95%), ``cost`` (the
    mean of the best obeying choice's points less the best breaking one's: what breaking it
    costs a decision) with ``cost_low`` / ``cost_high`` (95%, normal), ``cost_win`` with its
    interval (the same in P(win)), ``wrong`` (the share of positions where the choice worth
    most points breaks it) and ``blind`` with its interval (the mean points lost by always
    following it: the best breaking choice less the best obeying one where that is positive).

    The whole way, on the first positions of one recorded game (few samples):

    >>> from analyzer import simulate
    >>> record = simulate(1, seed=3, players=("ev+lookahead", "ev+greedy"),
    ...                   record_games=1).records[0]
    >>> plays, discards = positions([record])
    >>> choices = value_choices(relevant(plays)[:3], discards[:2], play_samples=200,
    ...                         keep_samples=64, seed=1)
    >>> choices.loc[0, "kind"], choices.loc[0, "label"], bool(choices.loc[0, "chosen"])
    ('lead', '2H', True)
    >>> summary = summarise(tip_rows(choices))
    >>> summary.set_index("tip").loc[["lead low", "lead a 4"], ["n", "follows"]].values.tolist()
    [[2.0, 1.0], [1.0, 0.0]]
    """
    import pandas as pd

    out = []
    for tip in tips:
        r = rows[rows["tip"] == tip.name] if len(rows) else rows
        n = len(r)
        k = int(r["followed"].sum()) if n else 0
        low, high = wilson(k, n)
        cost = _mean_ci((r["points_follow"] - r["points_break"]).to_numpy()) if n else \
            _mean_ci(np.empty(0))
        win = _mean_ci((r["win_follow"] - r["win_break"]).to_numpy()) if n else \
            _mean_ci(np.empty(0))
        blind = _mean_ci((r["points_break"] - r["points_follow"]).clip(lower=0).to_numpy()) \
            if n else _mean_ci(np.empty(0))
        out.append({"tip": tip.name, "rule": tip.rule, "n": n,
                    "follows": k / n if n else float("nan"), "follows_low": low,
                    "follows_high": high, "cost": cost[0], "cost_low": cost[1],
                    "cost_high": cost[2], "cost_win": win[0], "cost_win_low": win[1],
                    "cost_win_high": win[2],
                    "wrong": float((~r["best_follows"]).mean()) if n else float("nan"),
                    "blind": blind[0], "blind_low": blind[1], "blind_high": blind[2]})
    return pd.DataFrame(out)


def breaks(rows, tip: str, top: int = 8):
    """The positions where the recorded choice broke ``tip``, grouped by what was chosen.

    A DataFrame: ``chosen`` (for a play, the rank laid and the count before it; for a discard,
    the role and the ranks thrown), ``n``, ``share`` (of the breaks) and ``gain`` (the mean
    points of the best breaking choice less the best obeying one there), most frequent first.
    """
    import pandas as pd

    from ..core.cards import RANKS

    r = rows[(rows["tip"] == tip) & ~rows["followed"]]
    if not len(r):
        return pd.DataFrame(columns=["chosen", "n", "share", "gain"])

    def label(row) -> str:
        ranks = "".join(RANKS[_rank(c)] for c in _ids(row["chosen"]))
        if row["count"] is not None and not np.isnan(row["count"]):
            return f"{ranks} on {int(row['count'])}"
        return f"{row['role']} throws {ranks}"

    keys = r.apply(label, axis=1)
    gain = r["points_break"] - r["points_follow"]
    g = pd.DataFrame({"chosen": keys, "gain": gain}).groupby("chosen")["gain"]
    table = pd.DataFrame({"n": g.size(), "gain": g.mean()}).reset_index()
    table["share"] = table["n"] / len(r)
    return table.sort_values("n", ascending=False).head(top)[["chosen", "n", "share", "gain"]] \
        .reset_index(drop=True)


def _ids(text: str) -> list[int]:
    from ..core.cards import parse_cards

    return sorted(int(c) for c in parse_cards(text))
