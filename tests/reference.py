"""The published truth the tests compare against, kept in the repository in ``tests/data``.

``show_census.csv`` is the exact census of show scores; ``schell_crib_values.csv`` is Schell's
published crib-value table (for comparison only). ``tests/data/README.md`` says where each came
from. A test that needs one and does not find it fails, naming the path: a check against missing
truth is not a pass.
"""

from pathlib import Path

REFERENCE_DIR = Path(__file__).resolve().parent / "data"
SHOW_CENSUS = REFERENCE_DIR / "show_census.csv"
SCHELL = REFERENCE_DIR / "schell_crib_values.csv"
