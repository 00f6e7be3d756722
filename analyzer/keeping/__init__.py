"""The keeping wing: which four cards to keep, and the readers of the shipped tables.

:mod:`.discard` ranks the discards (``keep``, ``keep_many``, ``crib_distribution``);
:mod:`.cribcount` counts each discard's exact crib by rank class, :mod:`.cribenum` enumerates
the uniform crib tables; :mod:`.tablekeep` is the numpy-only path of ``crib keep`` with the table
crib. The shipped tables are read by :mod:`.crib` (crib values), :mod:`.pegtable` (pegging
values) and :mod:`.winodds` (win odds): readers that load no compiled game code. Imports
:mod:`analyzer.core` only.
"""
