"""Property-based fuzzing: bad input is a CardError or one line and exit status 2, never a
traceback and never a half-written file."""

from __future__ import annotations

import contextlib
import io
import string

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import SCHELL

from analyzer import CardError, format_cards, parse_cards
from analyzer.cli import main

# --------------------------------------------------------------------------- parse_cards

card_like = st.builds(lambda r, s: r + s, st.sampled_from(list("A23456789TJQKX1") + ["10", ""]),
                      st.sampled_from(list("CDHSchdsX♣♦♥♠") + [""]))
card_text = st.one_of(
    st.text(max_size=40),
    st.lists(card_like, max_size=8).map(" ".join),
    st.lists(card_like, max_size=8).map(",".join),
)


@given(card_text, st.one_of(st.none(), st.integers(0, 7)))
def test_parse_cards_text_is_cards_or_a_card_error(text, n):
    try:
        ids = parse_cards(text, n=n)
    except CardError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert ids.dtype == np.uint8 and len(set(ids.tolist())) == len(ids)
    assert n is None or len(ids) == n
    assert parse_cards(format_cards(ids)).tolist() == ids.tolist()  # round trip


@given(st.lists(st.one_of(st.integers(-5, 60), card_like, st.booleans(), st.floats()),
                max_size=8))
def test_parse_cards_sequences_are_cards_or_a_card_error(items):
    try:
        ids = parse_cards(items)
    except CardError:
        return
    assert all(0 <= c < 52 for c in ids.tolist())


# --------------------------------------------------------------------------- the CLI

SAFE = string.ascii_letters + string.digits + "-_+,:♥♠"  # no '/' or '.': files stay in the cwd
OPTIONS = ["--crib", "--dealer", "--deals", "--dpi", "--game", "--games", "--hand", "--json",
           "--log", "--max-iterations", "--out", "--players", "--plot", "--pone", "--quiet",
           "--ranks", "--record", "--record-games", "--reference", "--resume", "--seed",
           "--starter", "--table", "--time-limit", "--tol", "--top", "--workers"]
token = st.one_of(
    st.sampled_from(OPTIONS),
    st.integers(-3, 40).map(str),
    card_like,
    st.sampled_from(["table", "uniform", "weighted", "ev+greedy", "random+random", "census",
                     "keep", "crib", "games", "nan", "inf", "-0", "1e3"]),
    st.text(alphabet=SAFE, min_size=1, max_size=12),
    st.builds("{}={}".format, st.sampled_from(OPTIONS),
              st.sampled_from(["--", "", "-1", "0", "nan", "inf", "1e999", "7", "x"])),
)
tokens = st.lists(token, max_size=8)

# Every subcommand, with what keeps a valid run small and inside the test's folder.
COMMANDS = {
    "count": ([], []),
    "keep": ([], []),
    "simulate": ([], ["--quiet"]),
    "replay": ([], []),
    "plot": ([], ["--games", "30"]),
    "tables crib": ([], ["--deals", "300", "--max-iterations", "2", "--out", "fuzz-tables"]),
    "tables pegging": ([], ["--deals", "300", "--out", "fuzz-pegging.csv"]),
    "tables compare": ([], []),
    "tables keep": ([], ["--crib", "weighted"]),  # always refused here: a valid run takes 15 s
    "bench": ([], ["--no-such-option"]),  # always refused here: a valid run takes minutes
    "": ([], []),
}


def run_main(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:  # --help and --version exit through argparse
            status = exc.code if isinstance(exc.code, int) else 2
    return status, err.getvalue()


@pytest.mark.parametrize("command", list(COMMANDS), ids=lambda c: c or "top")
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(args=tokens)
def test_cli_fuzz_is_an_answer_or_one_line_and_status_2(command, args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before, after = COMMANDS[command]
    argv = [*command.split(), *before, *args, *after]
    status, err = run_main(argv)
    assert status in (0, 2), (argv, status, err)
    assert "Traceback" not in err
    if status == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1, (argv, err)
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")], argv


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.text(alphabet=SAFE + " \t", max_size=30), max_size=6))
def test_tables_compare_fuzzed_files(lines, tmp_path):
    bad = tmp_path / "table.csv"
    bad.write_text("card1,card2,dealer,pone\n" + "\n".join(lines) + "\n")
    status, err = run_main(["tables", "compare", "--table", str(bad), "--reference", str(SCHELL)])
    assert status in (0, 2) and "Traceback" not in err
    if status == 2:
        assert len(err.strip().splitlines()) == 1
