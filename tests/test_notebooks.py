"""Every research notebook runs from top to bottom, at a tiny scale, with no error.

The notebooks read ``ANALYZER_NOTEBOOK_SCALE`` for their sample sizes; here it is 0.01, so each runs
in seconds. They run in a temporary folder, so ``ANALYZER_REFERENCE_DIR`` points notebook 03 at
the repository's ``tests/data`` for Schell's table. The kernel is ``python3``, which jupyter_client
starts with this interpreter (the venv's, where ipykernel and analyzer are installed).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
TEST_DATA = Path(__file__).resolve().parent / "data"


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 4


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stored_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)
    assert "ANALYZER_NOTEBOOK_SCALE" in code[0].source


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, tmp_path, monkeypatch):
    monkeypatch.setenv("ANALYZER_NOTEBOOK_SCALE", "0.01")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    monkeypatch.setenv("ANALYZER_REFERENCE_DIR", str(TEST_DATA))
    nb = nbformat.read(path, as_version=4)
    # timeout: a hang guard only, a cell may wait on a cold compile
    client = NotebookClient(nb, kernel_name="python3", timeout=1800,
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert images, f"{path.name} drew no figure"
    text = "".join(o.get("text", "") for o in outputs)
    assert "ANALYZER_REFERENCE_DIR" not in text, f"{path.name} did not find the reference data"
    if path.name in CHECKS:
        CHECKS[path.name](tmp_path, text)


def _check_tips(folder: Path, text: str) -> None:
    """Notebook 08's verdicts against counts made here from its recorded games alone.

    How often ``best`` followed the lead and throw rules, and in how many positions each could
    be both followed and broken, is counted again from the records' hands, throws and first
    cards laid (not from the notebook's positions or values); the intervals hold the estimates.
    """
    import pandas as pd

    from analyzer import parse_cards
    from analyzer.sim.records import read_records

    records = read_records(folder / "tips_records.jsonl")
    assert f"{len(records):,} games (seed" in text
    summary = pd.read_csv(folder / "tips_summary.csv").set_index("tip")
    rows = pd.read_csv(folder / "tips_rows.csv")
    counted = {name: [0, 0] for name in ("no 5 lead", "lead a 4", "lead low", "pone: no 5",
                                          "pone: no pair", "pone: apart")}

    def tally(name: str, applies: bool, followed: bool) -> None:
        counted[name][0] += applies
        counted[name][1] += applies and followed

    for record in records:
        for deal in record["deals"]:
            pone = 1 - deal["dealer"]
            six = [int(c) // 4 for c in parse_cards(" ".join(deal["hands"][pone]))]
            thrown = sorted(int(c) // 4 for c in parse_cards(" ".join(deal["discards"][pone])))
            kept = list(six)
            for r in thrown:
                kept.remove(r)
            if deal["plays"]:
                lead = int(parse_cards(deal["plays"][0][1])[0]) // 4
                assert deal["plays"][0][0] == pone
                tally("no 5 lead", 4 in kept and set(kept) != {4}, lead != 4)
                tally("lead a 4", 3 in kept and set(kept) != {3}, lead == 3)
                tally("lead low", min(kept) < 4 <= max(kept), lead < 4)
            tally("pone: no 5", 4 in six, 4 not in thrown)
            tally("pone: no pair", len(set(six)) < 6, thrown[0] != thrown[1])
            gaps = [abs(a - b) for i, a in enumerate(six) for b in six[i + 1:]]
            tally("pone: apart", min(gaps) < 3 <= max(gaps), thrown[1] - thrown[0] >= 3)
    for name, (n, followed) in counted.items():
        row = summary.loc[name]
        assert n > 0 and row["n"] == n == (rows["tip"] == name).sum(), name
        assert row["follows"] == pytest.approx(followed / n), name
    for _, row in summary[summary["n"] > 1].iterrows():
        assert row["follows_low"] <= row["follows"] <= row["follows_high"], row.name
        for cost in ("cost", "cost_win", "blind"):
            assert row[f"{cost}_low"] <= row[cost] <= row[f"{cost}_high"], row.name


#: Checks of a notebook's output beyond "it ran", by its file name.
CHECKS = {"08_the_tips_tested.ipynb": _check_tips}
