"""The package's wings hold: each imports only the wings below it, and no modules import each
other in a circle.

The imports are read from the sources (``ast``), every one of them: at the top of a module and
inside functions alike (a lazy import is still a dependency). The order of the wings, lowest
first, is :data:`WINGS`; the root ``analyzer/__init__.py`` (the public face) and
``__main__.py`` stand above them all, and no wing imports the root.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "analyzer"

#: The wings, lowest first: a module may import its own wing and the wings before it.
WINGS = ("core", "keeping", "play", "sim", "research", "table", "web", "cli")
TOP = len(WINGS)  # the root package and __main__


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (``analyzer.play.engine``)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The package's modules that ``name`` imports: each module named, and the packages that
    hold it (which Python imports first), but not the packages that hold ``name`` itself."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import | ast.ImportFrom):
            found |= _resolve(name, path, node)
    found.discard(name)
    return found


def _resolve(name: str, path: Path, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The modules of the package one import statement of module ``name`` imports: each module
    it names, and the packages that hold them (Python imports those first), but not the
    packages that hold ``name`` itself."""
    if isinstance(node, ast.Import):
        bases = [(a.name, []) for a in node.names]
    else:
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        base = node.module or ""
        if node.level:
            base = ".".join(here[: len(here) - (node.level - 1)] + ([base] if base else []))
        bases = [(base, [a.name for a in node.names])]
    found = set()
    for base, names in bases:
        if base != "analyzer" and not base.startswith("analyzer."):
            continue
        subs = {f"{base}.{n}" for n in names if f"{base}.{n}" in MODULES}
        found |= subs
        if base in MODULES and (not names or len(subs) < len(names)):
            found.add(base)  # the module itself, or a name defined in it
        parts = base.split(".")
        for i in range(1, len(parts)):
            parent = ".".join(parts[:i])
            if parent in MODULES and not name.startswith(parent + "."):
                found.add(parent)
    found.discard(name)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _level(name: str) -> int:
    """The wing's place in :data:`WINGS`; the root package and ``__main__`` stand on top."""
    parts = name.split(".")
    if len(parts) == 1 or parts[1] == "__main__" or parts[1] == "data":
        return TOP if parts[-1] != "data" else -1
    if parts[1] not in WINGS:
        raise AssertionError(f"{name} is in no wing: put it in one of {', '.join(WINGS)}")
    return WINGS.index(parts[1])


def upward_imports() -> list[str]:
    """Every import from a lower wing to a higher one, as ``a -> b`` lines."""
    found = []
    for name, deps in sorted(GRAPH.items()):
        for dep in sorted(deps):
            if _level(dep) > _level(name) or (dep == "analyzer" and name != "analyzer.__main__"):
                found.append(f"{name} -> {dep}")
    return found


def import_circles() -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index, low, on_stack, stack, groups = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return groups


def test_every_module_is_in_a_wing():
    loose = [n for n in MODULES if n.count(".") == 1 and n.split(".")[1] not in
             (*WINGS, "__main__", "data")]
    assert loose == [], "modules outside the wings"


def test_no_wing_imports_a_higher_one():
    assert upward_imports() == []


def test_no_import_circles():
    assert import_circles() == []


def _top_level(path: Path) -> list[ast.stmt]:
    """The statements a module runs when imported (not those inside functions)."""
    found, todo = [], list(ast.parse(path.read_text(), str(path)).body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If | ast.Try | ast.With):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            todo.extend(ast.iter_child_nodes(node))
    return found


def _imports_numba(path: Path) -> bool:
    return any((isinstance(n, ast.Import) and any(a.name.split(".")[0] == "numba"
                                                  for a in n.names))
               or (isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "numba")
               for n in _top_level(path))


def test_the_table_readers_load_no_compiled_code():
    """keeping/'s readers of the shipped tables (and the numpy path of keep) import nothing,
    at import time, that imports numba: crib keep and the players' tables load without it."""
    readers = ("analyzer.keeping.crib", "analyzer.keeping.pegtable", "analyzer.keeping.winodds",
               "analyzer.keeping.tablekeep")
    for reader in readers:
        seen, todo = {reader}, [reader]
        while todo:
            m = todo.pop()
            for node in _top_level(MODULES[m]):
                for d in _resolve(m, MODULES[m], node) - seen:
                    seen.add(d)
                    todo.append(d)
        loading = sorted(m for m in seen if _imports_numba(MODULES[m]))
        assert loading == [], f"{reader} loads numba through {loading}"


@pytest.mark.parametrize("source, expected", [
    ("from ..play.engine import x", ["analyzer.keeping.low -> analyzer.play",
                                     "analyzer.keeping.low -> analyzer.play.engine"]),
    ("from ..core import rules", []),
    ("import analyzer", ["analyzer.keeping.low -> analyzer"]),
])
def test_the_checker_sees_an_upward_import(source, expected, monkeypatch, tmp_path):
    """The checker itself: a made-up module in keeping/ that imports upward is caught."""
    path = tmp_path / "low.py"
    path.write_text(source + "\n")
    monkeypatch.setitem(MODULES, "analyzer.keeping.low", path)
    monkeypatch.setitem(GRAPH, "analyzer.keeping.low", _imports("analyzer.keeping.low", path))
    assert [line for line in upward_imports() if line.startswith("analyzer.keeping.low")] \
        == expected


def test_the_checker_sees_a_circle(monkeypatch):
    monkeypatch.setitem(GRAPH, "analyzer.core.cards",
                        GRAPH["analyzer.core.cards"] | {"analyzer.core.scoring"})
    assert ["analyzer.core.cards", "analyzer.core.scoring"] in import_circles() or any(
        {"analyzer.core.cards", "analyzer.core.scoring"} <= set(g) for g in import_circles())


def test_the_public_names_are_what_they_name_after_every_module_is_imported():
    """``from analyzer import keep, duel, ...`` gives the function even once every module is
    imported: no submodule of the root shares a public name (importing ``analyzer.x`` binds
    ``x`` on the package, over the lazy name)."""
    code = (
        "import importlib, types, sys\n"
        f"for name in {sorted(MODULES)!r}:\n"
        "    if name.endswith('__main__'):\n"
        "        continue\n"
        "    importlib.import_module(name)\n"
        "import analyzer\n"
        "bad = [n for n in analyzer._LAZY if isinstance(getattr(analyzer, n), types.ModuleType)]\n"
        "bad += [n for n in analyzer._MODULES if not isinstance(getattr(analyzer, n),\n"
        "                                                        types.ModuleType)]\n"
        "sys.exit(', '.join(bad) or 0)\n")
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=1800)
    assert result.returncode == 0, result.stderr


#: The faces: what people use (the terminal, the page, the table's games). They reach the
#: wings below through public calls only.
FACES = ("table", "web", "cli")


def private_names_in_faces() -> list[str]:
    """Every private name (``_x``) a face imports from a module of another wing, as
    ``module: from x import _y`` lines (a face's own helpers, in its own wing, are its
    business)."""
    found = []
    for name, path in sorted(MODULES.items()):
        parts = name.split(".")
        if len(parts) < 3 or parts[1] not in FACES:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ImportFrom):
                continue
            private = [a.name for a in node.names if a.name.startswith("_")]
            targets = {m for m in _resolve(name, path, node) if m.count(".") >= 2}
            if private and any(m.split(".")[1] != parts[1] for m in targets):
                found.append(f"{name}: from {'.' * node.level}{node.module or ''} import "
                             f"{', '.join(private)}")
    return found


def test_the_faces_use_public_calls_only():
    """cli, web and table import no private name (a kernel, a helper) of a lower wing: each
    has a documented public call (``crib bench`` times them through
    :func:`analyzer.keeping.discard.crib_means` and :func:`analyzer.core.scoring.show_census`;
    the table deals and lays through :func:`analyzer.play.engine.deal_cards` and
    :func:`analyzer.play.playstep.lay_card`)."""
    assert private_names_in_faces() == []


def test_the_checker_sees_a_private_import(monkeypatch, tmp_path):
    """The checker itself: a made-up module in web/ that takes a kernel's private name."""
    path = tmp_path / "face.py"
    path.write_text("from ..play.engine import _deal, PLAY\nfrom .answers import _helper\n")
    monkeypatch.setitem(MODULES, "analyzer.web.face", path)
    assert [line for line in private_names_in_faces() if line.startswith("analyzer.web.face")] \
        == ["analyzer.web.face: from ..play.engine import _deal"]
