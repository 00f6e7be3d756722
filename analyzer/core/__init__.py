"""The core wing: what everything else stands on.

Cards and their text (:mod:`.cards`), the rules' constants (:mod:`.rules`), the game's forms
(:mod:`.game`), what a user chooses checked once (players, crib modes, workers:
:mod:`.choices`), the show and pegging kernels (:mod:`.scoring`) and the hand counted out as
said at the table (:mod:`.counting`), random streams (:mod:`.rng`), borrowed arrays for the hot
loops (:mod:`.borrow`), big kernels compiled apart from their callers (:mod:`.apart`), cached
kernels loaded without numba preparing to compile (:mod:`.cacheload`), numba's inlining
without its repeated work (:mod:`.inlining`), the package's ``njit`` (:mod:`.jit`), atomic
file writes (:mod:`.files`), the package version (:mod:`.version`) and the one exception the
command line catches without numpy (:mod:`.errors`). It imports no other wing. Importing it
points numba's cache at a user folder when the package's folders cannot be written
(:mod:`.numbacache`): every module with a kernel imports from here first.
"""

from .numbacache import use_user_cache_if_needed as _use_user_cache_if_needed

_use_user_cache_if_needed()
