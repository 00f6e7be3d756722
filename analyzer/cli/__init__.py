"""The cli wing: the ``crib`` command (:mod:`.main`, ``crib tables`` in :mod:`.tables`, what both
share in :mod:`.common`), the game in the terminal (:mod:`.terminal`) and ``crib bench``
(:mod:`.bench`, :mod:`.benchcompare`). The top of the house: it may import every wing.
"""

from .main import main

__all__ = ["main"]
