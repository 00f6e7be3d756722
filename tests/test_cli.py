"""The installed ``crib`` command as a user runs it: output, JSON, every kind of bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CRIB = Path(sys.executable).parent / "crib"


def run(*args: str, command=None) -> subprocess.CompletedProcess:
    argv = [str(CRIB)] if command is None else command
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    # the timeout guards against a hang only: a cold numba cache on a loaded machine took
    # over 5 minutes to compile the engine in one subprocess
    return subprocess.run([*argv, *args], capture_output=True, text=True, env=env, timeout=1800)


def test_the_command_is_installed():
    assert CRIB.exists(), "pip install -e . should install the crib console script"


def test_help_lists_subcommands():
    result = run("--help")
    assert result.returncode == 0
    for sub in ("count", "keep", "bench"):
        assert sub in result.stdout


@pytest.mark.parametrize("argv", [["--help"], ["keep", "--help"], ["--version"],
                                  ["keep", "5H", "--dealr"], ["count", "5H", "--starter"],
                                  ["play", "--help"], ["stats", "--help"],
                                  ["play", "--level", "nope"]])
def test_help_and_usage_errors_import_no_numpy(argv):
    # What only parses the command line loads nothing heavy: crib --help starts at once.
    code = ("import sys\nfrom analyzer.cli import main\ntry:\n    status = main(sys.argv[1:])\n"
            "except SystemExit as exc:\n    status = exc.code\n"
            "sys.exit('numpy loaded' if 'numpy' in sys.modules else status)")
    result = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True)
    assert result.returncode in (0, 2), result.stderr
    assert "numpy loaded" not in result.stderr
    assert result.stdout.strip() or result.stderr.startswith("crib")


def test_play_help_lists_the_levels_in_plain_words():
    from analyzer.table.levels import LEVELS

    result = run("play", "--help")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    start = lines.index("levels, weakest first (--level NAME; Expert unless --level or "
                        "--opponent):")
    assert [line.split(None, 2) for line in lines[start + 1:start + 5]] == \
        [[level.name, level.player, level.about] for level in LEVELS]


def test_python_dash_m_is_the_same_command():
    result = run("count", "5H", "5C", "5S", "JD", "--starter", "5D",
                 command=[sys.executable, "-m", "analyzer"])
    assert result.returncode == 0 and "makes 29" in result.stdout


def test_count_says_the_hand():
    result = run("count", "5H", "5C", "5S", "JD", "--starter", "5D")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("fifteen two, fifteen four,")
    assert lines[-1].endswith("and one for his nob makes 29")
    assert sum(line.strip().startswith("fifteen ") for line in lines[:-1]) == 8
    assert sum(line.strip().startswith("pair ") for line in lines) == 6


def test_count_json_and_crib_flush():
    # A four-card flush counts in a hand (4) but not in a crib (needs all five).
    hand = json.loads(run("count", "AH,3H,7H,9H", "--starter", "KS", "--json").stdout)
    crib = json.loads(run("count", "AH,3H,7H,9H", "--starter", "KS", "--crib", "--json").stdout)
    assert hand["total"] == crib["total"] + 4
    assert {"kind": "flush", "cards": "AH 3H 7H 9H", "points": 4} in hand["items"]
    assert hand["hand"] == "AH 3H 7H 9H" and hand["starter"] == "KS" and crib["crib"] is True


def test_keep_table_marks_the_best_row():
    result = run("keep", "5H", "5S", "6D", "JC", "QS", "KH", "--pone", "--top", "3")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("hand 5H 5S 6D JC QS KH as pone")
    rows = lines[2:-1]
    assert len(rows) == 3 and sum(row.startswith("  * ") for row in rows) == 1
    assert rows[0].startswith("  * 5H 5S JC QS  6D KH")
    assert "best: keep 5H 5S JC QS, throw 6D KH" in result.stdout


def test_keep_json_has_every_row_best_first():
    result = run("keep", "5H", "5S", "6D", "JC", "QS", "KH", "--dealer", "--json")
    out = json.loads(result.stdout)
    assert out["hand"] == "5H 5S 6D JC QS KH" and out["role"] == "dealer"
    assert out["crib_mode"] == "table" and len(out["rows"]) == 15
    assert list(out["rows"][0]) == ["keep", "discard", "hand_mean", "hand_min", "hand_max",
                                    "hand_std", "crib_mean", "peg_mean", "net"]
    assert out["pegging"] is True
    nets = [row["net"] for row in out["rows"]]
    assert nets == sorted(nets, reverse=True)
    from analyzer import keep

    df = keep("5H 5S 6D JC QS KH", dealer=True)
    assert out["rows"][0]["net"] == pytest.approx(df["net"].iloc[0])
    weighted = json.loads(run("keep", "5H", "5S", "6D", "JC", "QS", "KH", "--dealer", "--json",
                              "--crib", "weighted").stdout)
    assert weighted["crib_mode"] == "weighted"
    assert weighted["rows"][0]["crib_mean"] != out["rows"][0]["crib_mean"]


@pytest.mark.slow
def test_keep_in_every_form_dealing_five():
    hand = ["5H", "5S", "6D", "JC", "KH"]
    for variant, ways, best in (("three-player", 5, "keep 5H 5S JC KH, throw 6D"),
                                ("four-player", 5, "keep 5H 5S JC KH, throw 6D"),
                                ("five-card", 10, "keep 5H 5S JC, throw 6D KH")):
        result = run("keep", *hand, "--pone", "--variant", variant, "--crib", "uniform")
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert lines[0].startswith(f"hand 5H 5S 6D JC KH as pone, {variant} (crib: uniform,")
        assert len(lines) == ways + 3 and lines[-1].startswith(f"best: {best}")
        out = json.loads(run("keep", *hand, "--dealer", "--variant", variant, "--json").stdout)
        assert (out["variant"], out["crib_mode"], len(out["rows"])) == (variant, "table", ways)
        table = run("keep", *hand, "--pone", "--variant", variant).stdout.splitlines()[0]
        assert f"{variant} (crib: table, the form's self-play crib-value table" in table


def test_count_a_five_card_hand():
    # 4H 5H 6H, 5S cut: 15s 4-5-6 twice (4), pair of 5s (2), double run (6), flush of three (3)
    out = json.loads(run("count", "4H", "5H", "6H", "--starter", "5S", "--variant", "five-card",
                         "--json").stdout)
    assert out["total"] == 15 and out["variant"] == "five-card"
    assert {"kind": "flush", "cards": "4H 5H 6H", "points": 3} in out["items"]
    assert out["said"].endswith("a flush of three makes 15")


BAD = [
    (["keep", "5H", "5S", "6D", "JC", "QS", "ZH", "--dealer"], "ZH"),
    (["keep", "5H", "5S", "6D", "JC", "QS", "KX", "--dealer"], "KX"),
    (["keep", "5H", "5S", "6D", "JC", "QS", "5h", "--dealer"], "duplicate"),
    (["keep", "5H", "5S", "6D", "JC", "QS", "--dealer"], "expected 6 cards"),
    (["keep", "5H", "5S", "6D", "JC", "QS", "KH"], "--dealer --pone is required"),
    (["keep", "5H", "5S", "6D", "JC", "QS", "KH", "--dealer", "--pone"], "not allowed"),
    (["keep", "5H", "5S", "6D", "JC", "QS", "KH", "--dealer", "--top", "0"], "--top"),
    (["keep", "5H", "5S", "6D", "JC", "QS", "KH", "--dealer", "--top", "x"], "--top"),
    (["keep", "5H", "5S", "6D", "JC", "QS", "KH", "--dealer", "--crib", "guess"], "--crib"),
    (["count", "5H", "5C", "5S", "JD", "--starter", "5H"], "also in the hand"),
    (["count", "5H", "5C", "5S", "--starter", "5D"], "expected 4 cards"),
    (["count", "5H", "5C", "5S", "JD"], "--starter"),
    (["count", "5H", "5C", "5S", "JD", "--starter", "5D", "6D"], "6D"),
    (["count", "5H", "5C", "5S", "JD", "--starter", "11D"], "11D"),
    # the option named (an audit's): "expected 1 card, got 2" said no more
    (["count", "5H", "5C", "5S", "JD", "--starter", "5D 6D"],
     "crib count: --starter 5D 6D: expected 1 card, got 2"),
    (["plot", "keep", "--hand", "5H", "5S", "6D", "JC", "QS", "--pone", "--out", "k.png"],
     "crib plot keep: --hand: expected 6 cards, got 5"),
    (["frobnicate"], "invalid choice"),
    # an option the command does not take: named with the command, whose help lists them
    (["count", "5H", "5C", "5S", "JD", "--starter", "5D", "--top", "3"],
     "crib count: unrecognized arguments: --top 3 (see crib count --help)"),
    (["keep", "5H", "5S", "6D", "JC", "QS", "5H", "--dealer"], "crib keep: duplicate card 5H"),
    # bytes that are not UTF-8 (Python's lone surrogates), shown as bytes, not as '\udcff'
    (["count", "\udcffH", "5C", "5S", "JD", "--starter", "5D"],
     "crib count: unknown rank in '\\xffH'"),
    (["count", "5H", "5C", "5S", "JD", "--starter", "5D", "--x\udcfe"],
     "crib count: unrecognized arguments: --x\\xfe (see"),
    (["bench", "--rounds", "3"], "crib bench: --rounds goes with --against"),
    # five-card's pone pegs 3 before the first deal: no deal starts with both sides under 3
    (["odds", "0", "2", "--pone", "--variant", "five-card"],
     "crib odds: score 0, 2: in five-card the pone pegs 3 before the first deal"),
    (["peg", "--variant", "five-card", "--hand", "8H", "2C", "KD", "--starter", "4S", "--seat",
      "0", "--dealer-seat", "0", "--score", "0", "0"],
     "crib peg --variant five-card: score 0, 0: in five-card the pone pegs 3"),
    (["keep", "AD", "7C", "9C", "TS", "JD", "--dealer", "--position", "third", "--score", "1",
      "2", "--variant", "four-player"],
     "crib keep: --score: position third: the other side deals, but the role given is the "
     "dealer's"),
    (["keep", "AD", "7C", "9C", "TS", "JD", "--pone", "--position", "dealer", "--score", "1",
      "2", "3", "--variant", "three-player"],
     "crib keep: --score: position dealer: you deal, but the role given is the pone's"),
    (["plot", "odds", "--variant", "five-card", "--out", "o.png"],
     "crib plot odds: --variant is for crib plot census, keep and games, not odds"),
    # the other forms: their card counts, and no self-play crib table for them yet
    (["keep", "5H", "5S", "6D", "JC", "QS", "KH", "--dealer", "--variant", "five-card"],
     "a five-card hand is dealt 5"),
    (["keep", "5H", "5S", "6D", "JC", "--pone", "--variant", "three-player"],
     "expected 5 cards"),
    (["keep", "5H", "5S", "6D", "JC", "KH", "--pone", "--variant", "four-player", "--crib",
      "weighted"], "not available for four-player"),
    (["keep", "5H", "5S", "6D", "JC", "KH", "--pone", "--variant", "five-card", "--crib",
      "weighted"], "not available for five-card"),
    (["keep", "5H", "5S", "6D", "JC", "KH", "--pone", "--variant", "seven-card"], "--variant"),
    (["count", "5H", "5C", "5S", "JD", "--starter", "5D", "--variant", "five-card"],
     "a five-card hand holds 3"),
    (["count", "5H", "5C", "5S", "--starter", "5D", "--variant", "five-card", "--crib"],
     "a five-card crib holds 4"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_bad_input_is_one_line_and_status_2(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0]
    assert result.stdout == ""


def test_simulate_json_out_record_and_replay(tmp_path):
    out, record = tmp_path / "run", tmp_path / "games.jsonl"
    result = run("simulate", "--games", "300", "--seed", "4", "--players", "ev+greedy",
                 "random+lookahead", "--workers", "2", "--out", str(out), "--record",
                 str(record), "--record-games", "7", "--json", "--quiet")
    assert result.returncode == 0, result.stderr
    d = json.loads(result.stdout)
    for key in ("games", "seed", "first_dealer_win_rate", "first_dealer_win_ci", "skunk_rate",
                "double_skunk_rate", "triple_skunk_rate", "mean_deals", "points_per_deal",
                "elapsed_seconds", "games_per_second"):
        assert key in d
    assert d["games"] == 300 and d["seed"] == 4
    assert set(d["points_per_deal"]["dealer"]) == {"pegging", "hand", "crib", "heels"}
    assert set(d["points_per_deal"]["pone"]) == {"pegging", "hand"}
    low, high = d["first_dealer_win_ci"]
    assert low <= d["first_dealer_win_rate"] <= high
    assert sorted(p.name for p in out.iterdir()) == [
        "chunks", "crib_outcomes.csv", "margins.csv", "provenance.json", "run.json",
        "summary.csv"]
    provenance = json.loads((out / "provenance.json").read_text())
    assert provenance["seed"] == 4 and provenance["games"] == 300
    assert provenance["players"] == ["ev+greedy", "random+lookahead"]
    assert "crib simulate --games 300" in provenance["command"]
    # the commit of the checkout the command ran from (the package's own folder)
    head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                          cwd=Path(__file__).parent, check=False).stdout.strip()
    assert provenance["git_commit"] == (head or None)
    lines = record.read_text().splitlines()
    assert len(lines) == 7 and json.loads(lines[6])["game"] == 6
    # the same seed through the API gives the same games
    from analyzer import simulate

    again = simulate(300, seed=4, players=("ev+greedy", "random+lookahead"), record_games=7)
    assert [json.loads(line) for line in lines] == again.records
    assert again.first_dealer_win_rate == d["first_dealer_win_rate"]
    shown = run("replay", str(record), "--game", "6")
    assert shown.returncode == 0, shown.stderr
    game = json.loads(lines[6])
    assert shown.stdout.startswith(f"game 6: player {game['first_dealer']} deals first")
    assert shown.stdout.count("\ndeal ") == len(game["deals"])


def test_simulate_readable_summary():
    result = run("simulate", "--games", "200", "--seed", "1", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "first dealer wins" in result.stdout and "points per deal" in result.stdout
    assert result.stderr == ""


SIMULATE_BAD = [
    (["simulate", "--games", "0"], "--games"),
    (["simulate", "--games", "-5"], "--games"),
    (["simulate", "--games", "ten"], "--games"),
    (["simulate", "--games", "10", "--workers", "0"], "--workers"),
    (["simulate", "--games", "10", "--players", "ev+greedy", "psychic+greedy"], "psychic"),
    (["simulate", "--games", "10", "--players", "ev+greedy", "ev+telepathy"], "telepathy"),
    (["simulate", "--games", "10", "--players", "ev", "ev+greedy"], "DISCARD+PEGGING"),
    (["simulate", "--games", "10", "--out", "/proc/no/such/dir"], "--out"),
    (["simulate", "--games", "10", "--record-games", "3"], "--record"),
    (["replay", "/no/such/file.jsonl"], "cannot read"),
]


@pytest.mark.parametrize(("args", "message"), SIMULATE_BAD)
def test_simulate_and_replay_bad_input(args, message):
    test_bad_input_is_one_line_and_status_2(args, message)


def test_unwritable_out_leaves_nothing(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run("simulate", "--games", "10", "--out", str(blocker / "sub"), "--quiet")
    assert result.returncode == 2 and "--out" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_replay_unknown_game_and_bad_file(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    result = run("replay", str(bad))
    assert result.returncode == 2 and "not JSON" in result.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = run("replay", str(empty), "--game", "3")
    assert result.returncode == 2 and "no game 3" in result.stderr
