"""The discard table's frames as they were built before they were made fast: the oracle of
``tests/test_tables.py``.

:func:`analyzer.research.tables.build_discard_table` now builds its text columns as Arrow buffers
and its rank-only summary on integer keys; this module keeps the earlier code path (numpy text,
string keys, the hands sorted by ``lexsort``) so that a test can require the same frames, and the
same Parquet and CSV bytes, from both.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.core.cards import RANK_LABELS, format_card_rows
from analyzer.keeping.discard import _DISCARD_TABLE, _KEEP_TABLE


def reference_order(cards: np.ndarray) -> np.ndarray:
    """The order the hands used to be sorted in: by card ids, first card first (lexsort)."""
    return np.lexsort(cards.T[::-1])


def _rank_text(ranks: np.ndarray) -> np.ndarray:
    labels = np.array(RANK_LABELS)
    text = labels[ranks[:, 0]]
    for j in range(1, ranks.shape[1]):
        text = np.char.add(np.char.add(text, " "), labels[ranks[:, j]])
    return text


def _rank_sort_key(text: str) -> tuple[int, ...]:
    return tuple(RANK_LABELS.index(t) for t in text.split())


def _rank_summary(rank_keys, hands):
    weight = hands["n_hands"].to_numpy()
    parts = []
    for role in ("dealer", "pone"):
        df = pd.DataFrame({
            "ranks": rank_keys["ranks"], "keep": rank_keys[f"{role}_keep"], "w": weight,
            "hand": hands[f"{role}_hand_mean"] * weight, "net": hands[f"{role}_net"] * weight,
        })
        per_keep = df.groupby(["ranks", "keep"], sort=False)["w"].sum().reset_index()
        per_keep = per_keep.sort_values(["ranks", "w", "keep"], ascending=[True, False, True])
        top = per_keep.drop_duplicates("ranks").set_index("ranks")
        sums = df.groupby("ranks")[["w", "hand", "net"]].sum()
        parts.append(pd.DataFrame({
            f"{role}_keep": top["keep"],
            f"{role}_share": top["w"] / sums["w"],
            f"{role}_hand_mean": sums["hand"] / sums["w"],
            f"{role}_net": sums["net"] / sums["w"],
        }))
        if role == "dealer":
            parts.insert(0, sums[["w"]].rename(columns={"w": "n_hands"}))
    out = pd.concat(parts, axis=1).reset_index()
    return out.sort_values("ranks", key=lambda s: s.map(_rank_sort_key), ignore_index=True)


def reference_frames(cards, mult, best_d, best_hand, best_net):
    """``(hands, ranks)`` of :func:`analyzer.research.tables.build_discard_table` from the kernel's
    results, built the old way (``cards`` uint8 (n, 6) sorted rows, in the table's order)."""
    n = len(cards)
    keeps = np.array(_KEEP_TABLE)
    discards = np.array(_DISCARD_TABLE)
    rows = np.arange(n)[:, None]
    columns = {"hand": format_card_rows(cards), "n_hands": mult.astype(np.int32)}
    rank_columns = {"ranks": _rank_text(cards // 4)}
    for role, name in enumerate(("dealer", "pone")):
        d = best_d[:, role].astype(np.int64)
        kept = cards[rows, keeps[d]]
        columns[f"{name}_keep"] = format_card_rows(kept)
        columns[f"{name}_discard"] = format_card_rows(cards[rows, discards[d]])
        columns[f"{name}_hand_mean"] = best_hand[:, role]
        columns[f"{name}_net"] = best_net[:, role]
        rank_columns[f"{name}_keep"] = _rank_text(kept // 4)
    hands = pd.DataFrame(columns)
    ranks = _rank_summary(pd.DataFrame(rank_columns), hands)
    return hands, ranks
