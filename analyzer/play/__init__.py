"""The play wing: the players and whole games.

The discard and pegging policies (:mod:`.players`), one step of the play (:mod:`.playstep`),
``best``'s determinized search (:mod:`.search`), a deal's heels, play and show (:mod:`.deal`),
the score-aware keep (:mod:`.winkeep`), the engine that plays whole games in numba
(:mod:`.engine`), and one seat's decision for programs that seat the analyzer's players
(:mod:`.seat`). Imports :mod:`analyzer.core` and :mod:`analyzer.keeping`.
"""
