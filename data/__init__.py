"""The tables shipped with analyzer (CSV, each with a JSON provenance file).

This folder is installed as the package ``analyzer.data`` (see ``pyproject.toml``); the code reads
it with ``importlib.resources.files("analyzer.data")``, never by a path, and never writes to it.
"""
