"""The table wing: one game with people at it, with no terminal or web code.

:mod:`.tabletop` plays a game move by move, each seat a person or an AI; :mod:`.session` plays a
person's game on it with undo and resume (the game put back by replaying the person's
decisions); :mod:`.review` reviews a recorded game's decisions. The terminal
(:mod:`analyzer.cli.terminal`) and the web page (:mod:`analyzer.web.game`) are its faces.
"""
