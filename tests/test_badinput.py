"""Bad input, in-process: every numeric option, every file reader and every output path.

Each bad input is refused with exactly one line on stderr and exit status 2 (never a traceback,
nothing left on disk), or accepted with the meaning the README documents.
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import SCHELL

from analyzer.cli.main import build_parser, main
from analyzer.keeping.crib import RANK_FILE, shipped_file

SHIPPED_RANKS = Path(shipped_file(RANK_FILE))
def fuzz(examples: int):
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def files(folder) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def refused(argv, capsys, folder=None, message: str | None = None) -> str:
    """Run ``crib argv`` in-process; assert one line on stderr, status 2, nothing written."""
    capsys.readouterr()
    before = files(folder) if folder is not None else None
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert status == 2, (argv, status, out, err)
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, (argv, err)
    assert out == "", (argv, out)
    if folder is not None:
        assert files(folder) == before, argv
    if message is not None:
        assert message in lines[0], (argv, lines[0])
    return lines[0]


def answered(argv, capsys) -> str:
    capsys.readouterr()
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert status == 0, (argv, err)
    return out


# --------------------------------------------------------------------------- numeric options

HAND = ["5H", "5S", "6D", "JC", "QS", "KH"]
# (argv before the option, the option, low, high (None: no upper limit), whole number?, low open?)
NUMERIC = [
    (["simulate"], "--games", 1, 10**12, True, False),
    (["simulate", "--games", "5"], "--seed", 0, 2**63 - 1, True, False),
    (["simulate", "--games", "5"], "--workers", 1, 512, True, False),
    (["simulate", "--games", "5", "--record", "r.jsonl"], "--record-games", 1, 100_000, True,
     False),
    (["simulate", "--games", "5"], "--time-limit", 0, None, False, True),
    (["duel", "baseline", "ev+greedy"], "--games", 2, 10**12, True, False),
    (["duel", "baseline", "ev+greedy", "--games", "4"], "--seed", 0, 2**63 - 1, True, False),
    (["duel", "baseline", "ev+greedy", "--games", "4"], "--workers", 1, 512, True, False),
    (["keep", *HAND, "--dealer"], "--top", 1, None, True, False),
    (["play"], "--seed", 0, 2**63 - 1, True, False),
    (["replay", "r.jsonl"], "--game", 0, 2**63 - 1, True, False),
    (["review", "r.jsonl"], "--game", 0, 2**63 - 1, True, False),
    (["review", "r.jsonl"], "--seat", 0, 3, True, False),
    (["review", "r.jsonl"], "--samples", 1, 1_000_000, True, False),
    (["review", "r.jsonl"], "--seed", 0, 2**63 - 1, True, False),
    (["plot", "census", "--out", "c.png"], "--dpi", 10, 1000, True, False),
    (["plot", "games", "--out", "g.png"], "--games", 1, 10**12, True, False),
    (["plot", "games", "--out", "g.png"], "--seed", 0, 2**63 - 1, True, False),
    (["tables", "crib", "--out", "t"], "--deals", 1, 10**9, True, False),
    (["tables", "crib", "--out", "t"], "--seed", 0, 2**63 - 1, True, False),
    (["tables", "crib", "--out", "t"], "--tol", 0, None, False, True),
    (["tables", "crib", "--out", "t"], "--max-iterations", 1, 10_000, True, False),
    (["tables", "crib", "--out", "t"], "--workers", 1, 512, True, False),
    (["tables", "keep", "--out", "k.parquet"], "--workers", 1, 512, True, False),
    (["tables", "pegging", "--out", "p.csv"], "--deals", 1, 10**9, True, False),
    (["tables", "pegging", "--out", "p.csv"], "--seed", 0, 2**63 - 1, True, False),
    (["tables", "pegging", "--out", "p.csv"], "--workers", 1, 512, True, False),
    (["tables", "compare", "--reference", "r.csv"], "--top", 1, None, True, False),
    (["tables", "odds", "--out", "o.csv"], "--deals", 1024, 10**9, True, False),
    (["tables", "odds", "--out", "o.csv"], "--seed", 0, 2**63 - 1, True, False),
    (["tables", "odds", "--out", "o.csv"], "--workers", 1, 512, True, False),
    (["serve"], "--port", 0, 65535, True, False),
]


def bad_values(low, high, integer: bool, low_open: bool):
    below = st.integers(max_value=low - 1 if integer or not low_open else low).map(str)
    if not integer:
        below = st.one_of(below, st.floats(max_value=low, allow_nan=False).map(repr))
    options = [below, st.sampled_from(["nan", "NaN", "inf", "-inf", "1e400", "-1e400", "", "x",
                                       "0x10", "1,5", "--", " "])]
    if high is not None:
        options.append(st.integers(min_value=high + 1).map(str))
    if integer:
        options.append(st.sampled_from(["2.5", "1e3", "1.0", "10**3"]))
    return st.one_of(*options)


@pytest.mark.parametrize(("before", "option", "low", "high", "integer", "low_open"), NUMERIC,
                         ids=[f"{b[0]}-{o}" for b, o, *_ in NUMERIC])
@fuzz(25)
@given(data=st.data())
def test_numeric_options_refuse_out_of_range(before, option, low, high, integer, low_open, data,
                                             tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    value = data.draw(bad_values(low, high, integer, low_open))
    refused([*before, f"{option}={value}"], capsys, tmp_path, option)


@pytest.mark.parametrize(("before", "option", "low", "high", "integer", "low_open"), NUMERIC,
                         ids=[f"{b[0]}-{o}" for b, o, *_ in NUMERIC])
def test_numeric_options_accept_their_range(before, option, low, high, integer, low_open):
    parser = build_parser()
    edges = [low * 1.0 + 1e-9] if low_open else [low]
    if high is not None:
        edges.append(high)
    for value in edges:
        args = parser.parse_args([*before, option, str(value)])
        got = getattr(args, option.lstrip("-").replace("-", "_"))
        assert got == value and math.isfinite(got)


def test_api_numbers_are_checked_before_any_work():
    from analyzer import build_crib_table, simulate

    for kwargs in ({"tol": -1}, {"tol": math.nan}, {"tol": math.inf}, {"tol": 0},
                   {"deals": 0}, {"deals": 10**10}, {"seed": -1}, {"max_iterations": 0},
                   {"deals": 2.5}, {"seed": True}):
        with pytest.raises(ValueError):
            build_crib_table(**kwargs)
    from analyzer import build_pegging_table

    for kwargs in ({"deals": 0}, {"deals": 10**10}, {"seed": -1}, {"deals": 2.5},
                   {"seed": True}, {"chunk_size": 0}):
        with pytest.raises(ValueError):
            build_pegging_table(**kwargs)
    for limit in (math.nan, math.inf, 0, -1):
        with pytest.raises(ValueError, match="time_limit"):
            simulate(10, seed=1, time_limit=limit)


def test_tol_is_what_the_table_converges_to(tmp_path, capsys):
    out = answered(["tables", "crib", "--deals", "2000", "--tol", "1e9", "--quiet",
                    "--out", tmp_path / "t"], capsys)
    assert out.startswith("converged after 1 iterations")


# --------------------------------------------------------------------------- records

PAIRINGS = [("ev+lookahead", "ev+lookahead"), ("random+random", "ev+greedy"),
            ("hand+ordered", "random+lookahead")]


@pytest.fixture(scope="module")
def games():
    from analyzer import simulate

    return simulate(40, seed=3, record_games=40, players=("ev+greedy", "random+lookahead")).records


@pytest.mark.slow
@pytest.mark.parametrize("players", PAIRINGS, ids="-vs-".join)
def test_every_record_the_engine_writes_passes_validation(players):
    from analyzer import simulate
    from analyzer.sim.records import validate_record

    crib = "uniform" if players[0] == "random+random" else "table"
    for record in simulate(2000, seed=1, record_games=2000, players=players, crib=crib).records:
        validate_record(record)


def write_lines(path, records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def first_play(record):
    """(deal index, play index) of a card that pegged points with no go, and its entry."""
    for i, deal in enumerate(record["deals"]):
        for j, (_, _, points) in enumerate(deal["plays"]):
            if points == 2:
                return i, j
    raise AssertionError("no play pegged 2")


def breakers(record):
    """Ways to make a record contradict its cards, with a word the refusal must contain."""
    dealt = record["deals"][0]
    other = next(c for c in dealt["hands"][1] if c not in dealt["discards"][1])
    i, j = first_play(record)

    def set_play_points(r, value):
        r["deals"][i]["plays"][j][2] = value

    return {
        "format 2": (lambda r: r.update(format=2), "format 2"),
        "no format": (lambda r: r.pop("format"), "missing keys format"),
        "extra key": (lambda r: r.update(colour="red"), "unknown keys colour"),
        "pegs 99": (lambda r: set_play_points(r, 99), "points"),
        "pegs 5": (lambda r: set_play_points(r, 5), "pegs 5, expected 2"),
        "pegs 3": (lambda r: set_play_points(r, 3), "pegs 3, expected 2"),
        "show + 1": (lambda r: r["deals"][0]["show"].__setitem__(0, r["deals"][0]["show"][0] + 1),
                     "counts"),
        "deal scores": (lambda r: r["deals"][0]["scores"].__setitem__(0, 999), "running totals"),
        "game scores": (lambda r: r["scores"].__setitem__(0, r["scores"][0] + 1), "final scores"),
        "winner": (lambda r: r.update(winner=1 - r["winner"]), "winner"),
        "skunk": (lambda r: r.update(skunk=(r["skunk"] + 1) % 4), "skunk"),
        "card twice": (lambda r: r["deals"][0]["hands"][0].__setitem__(0, other), "twice"),
        "bad card": (lambda r: r["deals"][0]["hands"][0].__setitem__(0, "1Z"), "not a card"),
        "discard": (lambda r: r["deals"][0]["discards"][0].__setitem__(
            0, r["deals"][0]["hands"][1][0]), "discards"),
        "five cards": (lambda r: r["deals"][0]["hands"][0].pop(), "list of 6 cards"),
        "dealer": (lambda r: r["deals"][0].update(dealer=1 - r["deals"][0]["dealer"]),
                   "alternates"),
        "heels": (lambda r: r["deals"][0].update(heels=2 - r["deals"][0]["heels"]), "heels"),
        "no deals": (lambda r: r.update(deals=[]), "deals"),
        "last deal gone": (lambda r: r["deals"].pop(), "nobody reaches 121"),
        "not a card laid": (lambda r: r["deals"][i]["plays"][j].__setitem__(1, "XX"), "card"),
        "game is text": (lambda r: r.update(game="0"), "game"),
    }


def test_records_that_contradict_their_cards_are_refused(games, tmp_path, capsys):
    import copy

    from analyzer.sim.records import RecordError, validate_record

    record = games[0]
    for name, (breaks, word) in breakers(record).items():
        bad = copy.deepcopy(record)
        breaks(bad)
        with pytest.raises(RecordError) as err:
            validate_record(bad)
        assert word in str(err.value), (name, str(err.value))
        path = tmp_path / "bad.jsonl"
        write_lines(path, [games[1], bad])
        line = refused(["replay", path, "--game", "1"], capsys, tmp_path)
        assert line.startswith(f"crib replay: {path}:2: "), line


def test_go_and_last_card_points_are_checked(games):
    import copy

    from analyzer.sim.records import RecordError, validate_record

    for record in games:
        for deal_index, deal in enumerate(record["deals"]):
            plays = deal["plays"]
            if deal["show"] and plays and plays[-1][2] >= 1:
                bad = copy.deepcopy(record)
                bad["deals"][deal_index]["plays"][-1][2] -= 1  # the last card's point dropped
                with pytest.raises(RecordError, match="expected"):
                    validate_record(bad)
                return
    raise AssertionError("no complete deal found")


def test_replay_refuses_bytes_that_are_not_utf8_text(games, tmp_path, capsys):
    plain = tmp_path / "games.jsonl"
    write_lines(plain, games)
    packed = tmp_path / "games.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert "gzip" in refused(["replay", packed], capsys, tmp_path)
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b'{"game": "\xe9"}\n')
    assert "not UTF-8" in refused(["replay", latin], capsys, tmp_path)
    twice = tmp_path / "twice.jsonl"
    write_lines(twice, [games[0], games[0]])
    assert "recorded twice" in refused(["replay", twice], capsys, tmp_path)
    assert answered(["replay", plain, "--game", "39"], capsys).startswith("game 39:")


def test_replay_reads_a_byte_order_mark_and_names_what_else_it_cannot(games, tmp_path, capsys):
    # Found in an audit: a BOM (some Windows editors write one) was "not JSON"; a number past
    # Python's 4,300 digits was a traceback; a JSON file over several lines was "not JSON".
    plain = tmp_path / "games.jsonl"
    write_lines(plain, games)
    marked = tmp_path / "marked.jsonl"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    assert answered(["replay", marked, "--game", "39"], capsys) \
        == answered(["replay", plain, "--game", "39"], capsys)
    huge = tmp_path / "huge.jsonl"
    huge.write_text('{"game": ' + "7" * 5000 + ', "deals": []}\n')
    assert refused(["replay", huge], capsys, tmp_path) \
        == f"crib replay: {huge}:1: not a game record (a number of more than 4,300 digits)"
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(games[0], indent=2))
    assert "JSON, but not JSON Lines of game records" in refused(["replay", pretty], capsys,
                                                                 tmp_path)


@fuzz(60)
@given(data=st.binary(max_size=300))
def test_replay_fuzzed_bytes(data, tmp_path, capsys):
    path = tmp_path / "fuzz.jsonl"
    path.write_bytes(data)
    refused(["replay", path], capsys, tmp_path)  # no game 0 in any of these


json_value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 200), st.floats(),
              st.sampled_from(["5H", "TD", "JS", "10H", "", "x"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(["game", "deals", "format"]), inner,
                                            max_size=3)),
    max_leaves=8)


@fuzz(80)
@given(path_choice=st.lists(st.integers(0, 10), min_size=1, max_size=5), value=json_value)
def test_replay_fuzzed_records(games, path_choice, value, tmp_path, capsys):
    """A valid record with one value replaced anywhere: shown (if the same) or refused."""
    import copy

    record = copy.deepcopy(games[5])
    node, key = record, None
    for choice in path_choice:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:  # an empty list: nothing in it to replace
            key = None
            break
        key = keys[choice % len(keys)]
        if not isinstance(node[key], dict | list) or choice == path_choice[-1]:
            break
        node = node[key]
    if key is None:
        return
    unchanged = node[key] == value and type(node[key]) is type(value)
    node[key] = value
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(record, allow_nan=True) + "\n")
    capsys.readouterr()
    status = main(["replay", str(path), "--game", str(games[5]["game"])])
    _, err = capsys.readouterr()
    assert "Traceback" not in err
    if unchanged:
        assert status == 0, err
    else:
        assert status == 2 and len(err.strip().splitlines()) == 1, (record, err)


# --------------------------------------------------------------------------- rank tables

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
PAIRS = [(a, b) for i, a in enumerate(RANKS) for b in RANKS[i:]]


def csv_text(rows, header="card1,card2,dealer,pone") -> str:
    return header + "\n" + "".join(",".join(map(str, r)) + "\n" for r in rows)


def full_rows():
    return [(a, b, 4.0 + k / 100, 5.0 - k / 100) for k, (a, b) in enumerate(PAIRS)]


BAD_TABLES = {
    "nan": (csv_text([*full_rows()[:-1], ("K", "K", "nan", 1)]), "finite"),
    "inf": (csv_text([*full_rows()[:-1], ("K", "K", 1, "inf")]), "finite"),
    "negative": (csv_text([*full_rows()[:-1], ("K", "K", -0.5, 1)]), "not a crib's points"),
    "over 29": (csv_text([*full_rows()[:-1], ("K", "K", 1, 30)]), "(0 to 29)"),
    "text": (csv_text([*full_rows()[:-1], ("K", "K", "five", 1)]), "not a number"),
    "empty value": (csv_text([*full_rows()[:-1], ("K", "K", "", 1)]), "not a number"),
    "A-5 and 5-A": (csv_text([*full_rows(), ("5", "A", 1, 1)]), "given twice"),
    "unknown rank": (csv_text([*full_rows()[:-1], ("K", "Z", 1, 1)]), "unknown rank"),
    "missing column": (csv_text([r[:3] for r in full_rows()], "card1,card2,dealer"), "pone"),
    "duplicated column": (csv_text([(*r, 1) for r in full_rows()],
                                   "card1,card2,dealer,pone,dealer"), "given twice"),
    "short row": (csv_text([*full_rows()[:-1], ("K", "K", 1)]), "fields"),
    "empty": ("", "empty"),
    "header only": (csv_text([]), "no rows"),
    "90 pairs": (csv_text(full_rows()[:-1]), "91"),
}


@pytest.mark.parametrize("name", list(BAD_TABLES))
def test_rank_tables_are_checked_as_read(name, tmp_path, capsys):
    text, word = BAD_TABLES[name]
    path = tmp_path / "table.csv"
    path.write_text(text)
    assert word in refused(["tables", "compare", "--table", path, "--reference", SCHELL],
                           capsys, tmp_path)
    assert word in refused(["plot", "crib", "--table", path, "--out", tmp_path / "c.png"],
                           capsys, tmp_path)
    if name != "90 pairs":  # a reference may hold fewer pairs
        line = refused(["tables", "compare", "--reference", path], capsys, tmp_path)
        assert line.startswith(f"crib tables compare: --reference {path}"), line
        assert word in line


def test_compare_is_over_the_references_pairs(tmp_path, capsys):
    from analyzer.research.tables import compare_crib_tables, load_rank_table

    part = tmp_path / "part.csv"
    part.write_text(csv_text([("A", "5", 4.0, 5.0), ("K", "Q", 3.0, 4.0)]))
    out = answered(["tables", "compare", "--reference", part], capsys)
    assert "compared on the reference's 2 rank pairs" in out
    result = json.loads(answered(["tables", "compare", "--reference", part, "--json"], capsys))
    assert result["pairs"] == 2 and len(result["biggest"]) == 2
    assert "mean |difference| inf" not in answered(["tables", "compare", "--reference", SCHELL],
                                                   capsys)
    with pytest.raises(ValueError, match="lacks 89 of the reference's 91"):
        compare_crib_tables(load_rank_table(part), load_rank_table(SCHELL))
    # T is read as 10, a byte-order mark and extra columns are fine
    t_file = tmp_path / "t.csv"
    t_file.write_text("\ufeff" + csv_text([(a.replace("10", "T"), b, 1, 2, "note")
                                           for a, b, *_ in full_rows()],
                                          "card1,card2,dealer,pone,comment"))
    assert len(load_rank_table(t_file, complete=True)) == 91


@fuzz(60)
@given(data=st.one_of(
    st.binary(max_size=200),
    st.lists(st.lists(st.one_of(st.sampled_from([*RANKS, "T", "Z", "card1", "card2", "dealer",
                                                 "pone", "nan", "inf", "-inf", "", "1e999"]),
                                st.floats().map(repr)), min_size=1, max_size=6),
             max_size=8).map(lambda rows: "\n".join(",".join(r) for r in rows).encode())))
def test_rank_table_readers_fuzzed(data, tmp_path, capsys):
    path = tmp_path / "fuzz.csv"
    path.write_bytes(data)
    for argv in (["tables", "compare", "--reference", path],
                 ["plot", "crib", "--table", SHIPPED_RANKS, "--reference", path,
                  "--out", tmp_path / "f.png"]):
        capsys.readouterr()
        before = files(tmp_path)
        status = main([str(a) for a in argv])
        _, err = capsys.readouterr()
        assert "Traceback" not in err and "inf" not in err.split(":")[0]
        if status == 2:
            assert len(err.strip().splitlines()) == 1, err
            assert files(tmp_path) == before
        else:
            assert status == 0, err
            (tmp_path / "f.png").unlink(missing_ok=True)


# --------------------------------------------------------------------------- outputs


OUTPUTS = [
    ["plot", "census", "--out", "{missing}/c.png"],
    ["tables", "compare", "--reference", SCHELL, "--plot", "{missing}/c.png"],
    ["simulate", "--games", "5", "--record", "{missing}/r.jsonl"],
    ["simulate", "--games", "5", "--out", "{missing}/run"],
    ["tables", "crib", "--deals", "300", "--out", "{missing}/tables"],
    ["tables", "keep", "--out", "{missing}/k.parquet"],
    ["tables", "keep", "--out", "k.parquet", "--ranks", "{missing}/r.csv"],
    ["play", "--save", "{missing}/game.jsonl"],
]


@pytest.mark.parametrize("argv", OUTPUTS, ids=lambda a: " ".join(map(str, a[:2])))
def test_a_missing_folder_is_refused_and_named(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = [str(a).replace("{missing}", "a/b") for a in argv]
    line = refused(argv, capsys, tmp_path)
    assert line.endswith(": no folder a/b"), line
    assert line.startswith("crib " + " ".join(argv[:2] if argv[0] == "tables" else argv[:1]))


def test_a_run_folder_is_made_in_a_folder_that_exists(tmp_path, capsys):
    answered(["simulate", "--games", "20", "--seed", "1", "--quiet", "--out", tmp_path / "run",
              "--record", tmp_path / "run" / "games.jsonl"], capsys)
    assert (tmp_path / "run" / "summary.csv").exists()
    assert (tmp_path / "run" / "games.jsonl").exists()
    assert (tmp_path / "run" / "games.json").exists()  # the records' provenance
    answered(["tables", "crib", "--deals", "300", "--max-iterations", "1", "--quiet",
              "--out", tmp_path / "tables"], capsys)
    assert (tmp_path / "tables" / "crib_values_rank.csv").exists()


@pytest.mark.parametrize("name", ["c", "c.gif", "c.PNG.txt", "c.raw", "c."])
def test_figure_extensions_we_do_not_write_are_refused(name, tmp_path, capsys):
    line = refused(["plot", "census", "--out", tmp_path / name], capsys, tmp_path)
    assert "extension" in line
    line = refused(["tables", "compare", "--reference", SCHELL, "--plot", tmp_path / name],
                   capsys, tmp_path)
    assert "--plot" in line


@pytest.mark.parametrize(("name", "magic"), [("c.png", b"\x89PNG"), ("c.pdf", b"%PDF"),
                                             ("c.svg", b"<?xml"), ("c.jpg", b"\xff\xd8\xff"),
                                             ("c.JPEG", b"\xff\xd8\xff")])
def test_the_extension_says_the_format(name, magic, tmp_path, capsys):
    answered(["plot", "census", "--dpi", "20", "--out", tmp_path / name], capsys)
    assert (tmp_path / name).read_bytes().startswith(magic)
    assert files(tmp_path) == {name, name.rsplit(".", 1)[0] + ".json"}  # and its provenance


# --------------------------------------------------------------------------- options per kind

MISPLACED = [
    ("census", ["--hand", *HAND], "--hand"),
    ("census", ["--dealer"], "--dealer"),
    ("census", ["--games", "10"], "--games"),
    ("keep", ["--hand", *HAND, "--dealer", "--games", "10"], "--games"),
    ("keep", ["--hand", *HAND, "--pone", "--log"], "--log"),
    ("keep", ["--hand", *HAND, "--pone", "--table", "x.csv"], "--table"),
    ("games", ["--table", "x.csv"], "--table"),
    ("games", ["--reference", "x.csv"], "--reference"),
    ("games", ["--pone"], "--pone"),
    ("crib", ["--table", "x.csv", "--seed", "3"], "--seed"),
    ("crib", ["--table", "x.csv", "--players", "ev+greedy", "ev+greedy"], "--players"),
    ("crib", ["--table", "x.csv", "--quiet"], "--quiet"),
    ("odds", ["--hand", *HAND], "--hand"),
    ("odds", ["--table", "x.csv"], "--table"),
    ("odds", ["--games", "10"], "--games"),
]


@pytest.mark.parametrize(("kind", "options", "option"), MISPLACED)
def test_an_option_another_plot_kind_reads_is_refused(kind, options, option, tmp_path, capsys):
    line = refused(["plot", kind, *options, "--out", tmp_path / "f.png"], capsys, tmp_path)
    assert f"{option} is for crib plot" in line and f"not {kind}" in line


def test_the_command_line_imports_no_numba():
    import subprocess
    import sys

    code = "import sys, analyzer.cli; sys.exit('numba' in sys.modules or 'pandas' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
