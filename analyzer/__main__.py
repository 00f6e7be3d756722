"""``python -m analyzer`` is the ``crib`` command."""

from .cli import main

raise SystemExit(main())
