"""Constants of the game, in one place (see docs/rules.md).

How many players, cards dealt and kept, and the target of each form are in
:mod:`analyzer.core.game`.

Kernels receive these as literals at compile time; they never change at run time.
"""

GAME_POINTS = 121        #: the first player to reach this wins at once
MAX_COUNT = 31           #: the running count in the play may never pass this
FIFTEEN = 15

SKUNK_LINE = 91          #: loser under this: skunked (the win counts as two games)
DOUBLE_SKUNK_LINE = 61   #: loser under this: double skunked
TRIPLE_SKUNK_LINE = 31   #: loser under this: triple skunked

# Points
FIFTEEN_POINTS = 2
PAIR_POINTS = 2          #: per pair; three of a kind is 3 pairs (6), four is 6 pairs (12)
THIRTY_ONE_POINTS = 2
GO_POINTS = 1
LAST_CARD_POINTS = 1
HEELS_POINTS = 2         #: a Jack turned as the starter, to the dealer
NOBS_POINTS = 1          #: the Jack of the starter's suit in hand or crib
HAND_FLUSH_POINTS = 4    #: four hand cards of one suit (5 with the starter)
CRIB_FLUSH_POINTS = 5    #: the crib counts a flush only with all five cards
THREE_CARD_FLUSH_POINTS = 3          #: five-card cribbage: three hand cards of one suit
THREE_CARD_STARTER_FLUSH_POINTS = 4  #: ... and the starter of that suit too
PEG_SAME_RANK_POINTS = (0, 0, 2, 6, 12)  #: by the number of same-rank cards laid in a row

JACK = 10                #: rank index of the Jack
MAX_SHOW_SCORE = 29
MAX_THREE_CARD_SCORE = 20   #: three fives and a five cut (five-card cribbage)
