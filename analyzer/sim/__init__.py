"""The sim wing: many games at once.

Run plans, chunks, checkpoints and the Dask backend (:mod:`.runs`), ``simulate`` and its
results (:mod:`.harness`), duels in match points (:mod:`.duel`), and game records with their
replay (:mod:`.records`). Imports the wings below it: core, keeping, play.
"""
