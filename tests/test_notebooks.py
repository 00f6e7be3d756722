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
