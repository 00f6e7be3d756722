"""The error of input that names no card: :class:`CardError`, apart from :mod:`analyzer.core.cards`.

It lives in a module of its own, with no imports, so that the command line can catch it (one
line, exit status 2) without importing numpy, and ``crib --help`` starts in a few hundredths of
a second. :mod:`analyzer.core.cards` raises it and re-exports it.
"""

__all__ = ["CardError"]


class CardError(ValueError):
    """A card, or a set of cards, that cannot be understood.

    The message names the offending token, e.g. ``unknown suit in '5X'``.
    """
