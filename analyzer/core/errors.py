"""The errors of input: :class:`CardError` (cards), apart from :mod:`analyzer.core.cards`, and
:class:`ArgumentError` (a value an argument cannot take).

They live in a module of their own, with no imports, so that the command line can catch them
(one line, exit status 2) without importing numpy, and ``crib --help`` starts in a few
hundredths of a second. :mod:`analyzer.core.cards` raises the first and re-exports it.
"""

__all__ = ["ArgumentError", "CardError"]


class CardError(ValueError):
    """A card, or a set of cards, that cannot be understood.

    The message names the offending token, e.g. ``unknown suit in '5X'``.
    """


class ArgumentError(ValueError):
    """A value an argument cannot take, or one at odds with another: ``argument`` names it,
    the message says why in one line.

    The score-aware keep (:func:`analyzer.play.winkeep.check_win_keep`) names ``"variant"``,
    ``"position"``, ``"me"`` and ``"opp"`` (the two scores; in three-player ``"third"`` too) or
    ``"score"`` (the scores together), so that a face can show the message beside the input it
    is about.

    Examples
    --------
    >>> err = ArgumentError("me", "your score must be at most 60, got 70")
    >>> err.argument, str(err), isinstance(err, ValueError)
    ('me', 'your score must be at most 60, got 70', True)
    """

    def __init__(self, argument: str, message: str):
        super().__init__(message)
        self.argument = argument
