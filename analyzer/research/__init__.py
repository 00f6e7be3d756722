"""The research wing: tables built by self-play, and figures.

The crib-value and discard tables (:mod:`.tables`), the pegging table (:mod:`.pegging`), the
win-odds table (:mod:`.odds`; its reader is :mod:`analyzer.keeping.winodds`), and the figures
(:mod:`.plots`). Imports the wings below it: core, keeping, play, sim.
"""
