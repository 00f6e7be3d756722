"""The research wing: tables built by self-play, and figures.

The crib-value and discard tables (:mod:`.tables`), the pegging table (:mod:`.pegging`), the
win-odds table (:mod:`.odds`; its reader is :mod:`analyzer.keeping.winodds`), the figures
(:mod:`.plots`), and the seeds' tips put to the test (:mod:`.tips`, notebook 08). Imports the
wings below it: core, keeping, play, sim.
"""
