"""The web API of ``crib serve`` in-process (FastAPI's TestClient): every answer against the
library computed independently, the trainer's stream, and bad input as a 4xx with one line."""

from __future__ import annotations

import builtins
import io
import json
import pathlib
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx2", reason="FastAPI's TestClient needs httpx2 (the test extra)")

from fastapi.testclient import TestClient  # noqa: E402

from analyzer import count_hand, keep, keep_to_win  # noqa: E402
from analyzer.core.cards import format_card  # noqa: E402
from analyzer.web import trainer  # noqa: E402
from analyzer.web.app import PAGES, create_app  # noqa: E402

HAND = "5H 5S 6D JC QS KH"
NUMBERS = ("hand_mean", "hand_min", "hand_max", "hand_std", "crib_mean", "peg_mean", "net")


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def get(client, path, **params):
    return client.get(path, params=params)


def refused(response, field=None, words=None, status=422):
    assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    assert set(body) <= {"error", "field"} and body["error"] and "\n" not in body["error"]
    if field is not None:
        assert body.get("field") == field, body
    if words is not None:
        assert words in body["error"], body
    return body


# --------------------------------------------------------------------------- count


def test_count_the_29_hand(client):
    r = get(client, "/api/count", hand="5H 5C 5S JD", starter="5D")
    assert r.status_code == 200
    d = r.json()
    assert d["total"] == 29 and d["said"].endswith("one for his nob makes 29")
    kinds = [i["kind"] for i in d["items"]]
    # 4 fives make four pairs of 15 with the jack (4) and four triples of fives (4): 8 fifteens;
    # the four fives pair 6 ways; the jack of the starter's suit is nobs
    assert kinds == ["fifteen"] * 8 + ["pair"] * 6 + ["nobs"]
    assert {"kind": "nobs", "cards": ["JD"], "points": 1} in d["items"]
    assert d["hand"] == ["5H", "5C", "5S", "JD"] and d["starter"] == "5D" and d["crib"] is False
    expected = count_hand("5H 5C 5S JD", "5D")
    assert [(i["kind"], i["cards"], i["points"]) for i in d["items"]] == [
        (e.kind, [format_card(c) for c in e.cards], e.points) for e in expected]


def test_count_a_crib_needs_five_for_a_flush(client):
    hand = get(client, "/api/count", hand="AH,3H,7H,9H", starter="KS").json()
    crib = get(client, "/api/count", hand="AH,3H,7H,9H", starter="KS", crib="true").json()
    assert hand["total"] == crib["total"] + 4  # the four-card flush counts in a hand only
    assert {"kind": "flush", "cards": ["AH", "3H", "7H", "9H"], "points": 4} in hand["items"]
    assert crib["crib"] is True and not any(i["kind"] == "flush" for i in crib["items"])


def test_count_five_card_hands_are_three(client):
    d = get(client, "/api/count", hand="4H 5H 6H", starter="5S", variant="five-card").json()
    assert d["total"] == 15 and d["said"].endswith("a flush of three makes 15")


# --------------------------------------------------------------------------- keep


@pytest.mark.parametrize(("role", "crib", "pegging"), [
    ("pone", None, True), ("dealer", None, True), ("dealer", "uniform", True),
    ("pone", "weighted", False)])
def test_keep_is_keep(client, role, crib, pegging):
    params = {"hand": HAND, "role": role, "pegging": str(pegging).lower()}
    if crib:
        params["crib"] = crib
    d = client.get("/api/keep", params=params).json()
    df = keep(HAND, dealer=role == "dealer", crib=crib, pegging=pegging)
    assert d["role"] == role and d["crib_mode"] == df.attrs["crib_mode"]
    assert d["pegging"] is pegging and d["hand"] == HAND.split()
    assert len(d["rows"]) == 15
    for row, (_, want) in zip(d["rows"], df.iterrows(), strict=True):
        assert " ".join(row["keep"]) == want["keep"] and " ".join(row["discard"]) == want["discard"]
        for column in NUMBERS:
            assert row[column] == pytest.approx(float(want[column]), abs=1e-12), column


def test_keeps_that_tie_share_a_rank(client):
    # 5H 5S 6D JC QS KH as dealer: the two best keeps tie (rank 1, 1, then 3); in the trainer the
    # table's ranks are the verdict's (a throw ranked 4 was numbered 5 in the table)
    rows = get(client, "/api/keep", hand=HAND, role="dealer").json()["rows"]
    net = [r["net"] for r in rows]
    assert [r["rank"] for r in rows] == [1 + sum(y > x + 1e-9 for y in net) for x in net]
    assert [r["rank"] for r in rows][:3] == [1, 1, 3]
    six, dealer = trainer.deal(7, 1)
    fifth = keep(six, dealer=dealer)["discard"].iloc[4]
    d = get(client, "/api/trainer/answer", seed=7, k=1, throw=fifth).json()
    mine = next(r for r in d["rows"] if " ".join(r["discard"]) == fifth)
    assert d["rank"] == mine["rank"] == 4


def test_keep_as_pone_is_the_readme_example(client):
    best = get(client, "/api/keep", hand="5h 5s 6d jc qs kh", role="pone").json()["rows"][0]
    assert best["keep"] == ["5H", "5S", "JC", "QS"] and best["discard"] == ["6D", "KH"]
    assert round(best["net"], 3) == 6.858 and round(best["hand_mean"], 3) == 12.543


def test_keep_in_another_form(client):
    d = get(client, "/api/keep", hand="5H 5S 6D JC KH", role="dealer", variant="five-card").json()
    df = keep("5H 5S 6D JC KH", dealer=True, variant="five-card")
    assert [" ".join(r["keep"]) for r in d["rows"]] == df["keep"].tolist()
    assert d["pegging"] is False and len(d["rows"]) == 10


def test_keep_to_win_is_keep_to_win(client):
    d = get(client, "/api/keep/win", hand=HAND, role="dealer", me=110, opp=115,
            samples=256, seed=3).json()
    df = keep_to_win(HAND, True, (110, 115), samples=256, seed=3)
    assert [" ".join(r["keep"]) for r in d["rows"]] == df["keep"].tolist()
    assert [r["p_win"] for r in d["rows"]] == df["p_win"].tolist()
    assert " ".join(d["win_keep"]) == df.attrs["win_keep"]
    assert " ".join(d["points_keep"]) == df.attrs["points_keep"]
    assert d["score"] == [110, 115] and d["samples"] == df.attrs["samples"]


def _crib_keep_json(capsys, hand, role, me, opp, argv):
    """What ``crib keep HAND --ROLE --score ME OPP ARGV --json`` prints, read back."""
    from analyzer.cli import main

    assert main(["keep", *hand.split(), f"--{role}", "--score", str(me), str(opp), *argv,
                 "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("hand", "role", "me", "opp", "params"), [
    (HAND, "dealer", 110, 115, {"samples": 128, "seed": 3}),
    ("9H 9S KD 2C AS", "pone", 59, 41, {"variant": "five-card", "samples": 256}),
    ("5H 5S 6D JC KH", "dealer", 50, 48, {"variant": "five-card", "crib": "uniform"}),
    ("5H 5S 6D JC KH", "dealer", 100, 95, {"variant": "four-player", "position": "second",
                                            "samples": 128, "seed": 7}),
    ("KH 5H 6D JC 5S", "pone", 104, 110, {"variant": "four-player", "samples": 192}),
    ("5H 5S 6D JC KH", "pone", 95, 112, {"variant": "four-player", "position": "third",
                                          "samples": 64}),
])
def test_keep_to_win_is_crib_keep_score_json(client, capsys, hand, role, me, opp, params):
    # the same arguments to the command line (each option as the API's parameter) and to the API
    argv = [a for k, v in params.items() for a in (f"--{k}", str(v))]
    want = _crib_keep_json(capsys, hand, role, me, opp, argv)
    r = get(client, "/api/keep/win", hand=hand, role=role, me=me, opp=opp, **params)
    assert r.status_code == 200, r.text
    d = r.json()
    cards = ("hand", "points_keep", "win_keep", "rival_keep")
    for key, value in want.items():
        if key == "rows":
            continue
        assert (" ".join(d[key]) if key in cards else d[key]) == value, key
    assert len(d["rows"]) == len(want["rows"]) == {"six-card": 15, "five-card": 10,
                                                    "four-player": 5}[want["variant"]]
    for row, printed in zip(d["rows"], want["rows"], strict=True):
        for key, value in printed.items():  # the API adds hand_min, hand_max, hand_std, rank
            shown = " ".join(row[key]) if key in ("keep", "discard") else row[key]
            assert shown == value, key
    assert ("position" in d) == (want["variant"] == "four-player")


@pytest.mark.parametrize(("params", "argv", "field"), [
    ({"variant": "three-player"}, ["--variant", "three-player"], "third"),
    ({"variant": "five-card", "me": 61}, ["--variant", "five-card", "--score", "61", "0"], "me"),
    ({"variant": "five-card", "opp": 75}, ["--variant", "five-card", "--score", "40", "75"],
     "opp"),
    ({"variant": "five-card", "me": 1, "opp": 2},
     ["--variant", "five-card", "--score", "1", "2"], "score"),
    ({"variant": "four-player", "position": "first"},
     ["--variant", "four-player", "--position", "first"], "position"),
    ({"variant": "four-player", "role": "pone", "position": "second"},
     ["--variant", "four-player", "--position", "second", "--pone"], "position"),
])
def test_a_score_the_command_line_refuses_is_refused_in_its_words(client, capsys, params, argv,
                                                                   field):
    # the command line's one line on stderr, its prefix taken off, is the API's error
    from analyzer.cli import main

    hand = "5H 5S 6D JC KH"
    role = params.get("role", "dealer")
    args = ["keep", *hand.split(), *(["--dealer"] if role == "dealer" else []),
            *(["--score", "40", "50"] if "--score" not in argv else []), *argv]
    assert main(args) == 2
    err = capsys.readouterr().err
    prefix = "crib keep: --score: "
    assert err.startswith(prefix) and err.count("\n") == 1
    query = {"hand": hand, "role": role, "me": 40, "opp": 50, **params}
    body = refused(client.get("/api/keep/win", params=query), field)
    assert body["error"] == err[len(prefix):].rstrip("\n")


def test_position_is_refused_in_the_two_player_forms_as_the_command_line_refuses_it(client,
                                                                                    capsys):
    from analyzer.cli import main

    for variant, hand in (("five-card", "5H 5S 6D JC KH"), ("six-card", HAND)):
        assert main(["keep", *hand.split(), "--dealer", "--score", "40", "50", "--variant",
                     variant, "--position", "dealer"]) == 2
        err = capsys.readouterr().err.strip()
        assert err == f"crib keep: --position is for three-player and four-player, not {variant}"
        body = refused(get(client, "/api/keep/win", hand=hand, role="dealer", me=40, opp=50,
                           variant=variant, position="dealer"), "position")
        assert body["error"] == err.removeprefix("crib keep: --")
        # and so does the Python API (five-card took a position that agreed with dealer=)
        from analyzer import keep_to_win

        with pytest.raises(ValueError, match=f"^position: for three-player and four-player; "
                                             f"in {variant} say dealer=True or False"):
            keep_to_win(hand, True, (40, 50), samples=8, variant=variant, position="dealer")


def test_the_chart_is_crib_plot_keep_as_svg(client):
    r = get(client, "/api/keep/chart.svg", hand=HAND, role="pone")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(r.content)
    assert root.tag.endswith("svg")
    # matplotlib draws text as paths and writes each text beside them in a comment
    text = r.text
    assert "Which four to keep: 5H 5S 6D JC QS KH as pone" in text
    assert text.count("keep 5H 5S JC QS, throw 6D KH") == 1


# --------------------------------------------------------------------------- trainer


def test_a_deal_is_its_seed_and_number():
    first = [trainer.deal(11, k) for k in range(50)]
    assert first == [trainer.deal(11, k) for k in range(50)]
    assert len({tuple(six) for six, _ in first}) == 50
    for six, _ in first:
        assert len(set(six)) == 6 and all(0 <= c < 52 for c in six) and six == sorted(six)
    roles = [dealer for _, dealer in first]
    assert 10 < sum(roles) < 40  # both roles come up
    assert trainer.deal(12, 0) != trainer.deal(11, 0)


def test_deals_are_uniform_enough():
    # 2,000 deals: each card dealt about 6/52 of the time (230.8 times; 4 sigma is about 58)
    counts = [0] * 52
    for k in range(2000):
        for c in trainer.deal(5, k)[0]:
            counts[c] += 1
    assert min(counts) > 170 and max(counts) < 290


def test_the_filters_skip_only_deals_that_fail_them(client):
    for role, close in (("pone", False), ("dealer", True), ("any", True)):
        k = 0
        for _ in range(3):
            d = get(client, "/api/trainer/deal", seed=9, k=k, role=role, close=str(close)).json()
            for i in range(k, d["k"] + 1):
                six, dealer = trainer.deal(9, i)
                net = keep(six, dealer=dealer)["net"].to_numpy()
                gap = net[0] - net[net < net[0] - 1e-9][0]  # to the next different net
                passes = (role == "any" or dealer == (role == "dealer")) and (
                    not close or gap < trainer.CLOSE_GAP)
                assert passes == (i == d["k"]), (role, close, i)
            assert d["hand"] == [format_card(c) for c in trainer.deal(9, d["k"])[0]]
            k = d["k"] + 1


def test_a_throw_is_graded_against_keep(client):
    for k in range(4):
        six, dealer = trainer.deal(21, k)
        df = keep(six, dealer=dealer)
        nets = dict(zip(df["discard"], df["net"], strict=True))
        for discard in df["discard"].iloc[[0, 1, 7, 14]]:
            d = get(client, "/api/trainer/answer", seed=21, k=k, throw=discard).json()
            mine = nets[discard]
            assert d["rank"] == 1 + sum(1 for v in nets.values() if v > mine + 1e-9)
            assert d["lost"] == pytest.approx(df["net"].iloc[0] - mine, abs=1e-12)
            assert d["best"]["discard"] == df["discard"].iloc[0].split()
            assert d["role"] == ("dealer" if dealer else "pone")
            assert [" ".join(r["keep"]) for r in d["rows"]] == df["keep"].tolist()


def test_the_throw_is_read_in_any_order_and_spelling(client):
    six, _ = trainer.deal(4, 2)
    a, b = format_card(six[3]), format_card(six[0])
    one = get(client, "/api/trainer/answer", seed=4, k=2, throw=f"{a} {b}").json()
    two = get(client, "/api/trainer/answer", seed=4, k=2, throw=f"{b.lower()},{a}").json()
    assert one == two and one["throw"] == [b, a]


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("path", "params", "field", "words"), [
    ("/api/count", {"hand": "5H 5C 5S JX", "starter": "5D"}, "hand", "unknown suit in 'JX'"),
    ("/api/count", {"hand": "5H 5C 5S 5H", "starter": "5D"}, "hand", "duplicate card 5H"),
    ("/api/count", {"hand": "5H 5C 5S", "starter": "5D"}, "hand", "expected 4 cards, got 3"),
    ("/api/count", {"hand": "5H 5C 5S JD", "starter": "5H"}, "starter", "also in the hand"),
    ("/api/count", {"hand": "5H 5C 5S JD", "starter": ""}, "starter", "no starter"),
    ("/api/count", {"hand": "5H 5C 5S JD", "starter": "5D 6D"}, "starter", "expected 1"),
    ("/api/count", {"hand": "5H 5C 5S JD"}, "starter", "no starter"),
    ("/api/count", {"hand": "5H 5C 5S"}, "hand", "expected 4 cards, got 3"),  # the hand first
    ("/api/count", {"hand": "5H 5C 5S JD", "starter": "5D", "crib": "maybe"}, "crib", None),
    ("/api/count", {"hand": "5H 5C 5S JD", "starter": "5D", "variant": "six"}, "variant",
     "unknown variant"),
    ("/api/keep", {"hand": "5H 5S 6D JC QS", "role": "pone"}, "hand", "expected 6 cards"),
    ("/api/keep", {"hand": "5H 5S 6D JC QS QS", "role": "pone"}, "hand", "duplicate"),
    ("/api/keep", {"hand": "5H 5S 6D JC QS 1S", "role": "pone"}, "hand", "unknown rank"),
    ("/api/keep", {"hand": HAND, "role": "both"}, "role", "unknown role"),
    ("/api/keep", {"hand": HAND}, "role", "missing"),
    ("/api/keep", {"hand": HAND, "role": "pone", "crib": "exact"}, "crib", None),
    ("/api/keep", {"hand": "5H 5S 6D JC KH", "role": "pone", "variant": "five-card",
                   "crib": "weighted"}, "crib", None),
    ("/api/keep", {"hand": "5H " * 100, "role": "pone"}, "hand", None),
    ("/api/keep/win", {"hand": HAND, "role": "pone", "me": 121, "opp": 0}, "me",
     "me: 121 is more than 120"),
    ("/api/keep/win", {"hand": HAND, "role": "pone", "me": "x", "opp": 0}, "me",
     "me: 'x' is not a whole number"),
    ("/api/keep/win", {"hand": HAND, "role": "pone", "me": 0}, "opp", "missing"),
    ("/api/keep/win", {"hand": HAND, "role": "pone", "me": 0, "opp": 0, "samples": 10**6},
     "samples", None),
    ("/api/keep/chart.svg", {"hand": "5H 5S", "role": "pone"}, "hand", "expected 6"),
    ("/api/trainer/deal", {"seed": -1}, "seed", None),
    ("/api/trainer/deal", {"seed": "x"}, "seed", None),
    ("/api/trainer/deal", {"seed": 1, "k": 2**40}, "k", None),
    ("/api/trainer/deal", {"seed": 1, "role": "crib"}, "role", "unknown role"),
    ("/api/trainer/answer", {"seed": 1, "k": 0, "throw": "AC"}, "throw", "expected 2"),
])
def test_bad_input_is_a_422_naming_the_field(client, path, params, field, words):
    refused(client.get(path, params=params), field, words)


def test_a_throw_not_in_the_hand_is_refused(client):
    six, _ = trainer.deal(1, 0)
    other = next(format_card(c) for c in range(52) if c not in six)
    body = refused(get(client, "/api/trainer/answer", seed=1, k=0,
                       throw=f"{format_card(six[0])} {other}"), "throw")
    assert body["error"].startswith(f"{other} is not in the hand")


def test_unknown_paths_and_methods_are_json_errors(client):
    refused(client.get("/api/nothing"), status=404, words="not found: /api/nothing")
    refused(client.get("/static/%2E%2E%2Fpyproject.toml"), status=404)  # a way out, encoded
    refused(client.get("/static/secret.py"), status=404)
    refused(client.post("/api/count", json={}), status=405, words="POST is not allowed")


def test_head_is_answered_wherever_get_is(client):
    # a HEAD was a 405: the same status and headers as the GET, no body
    for path, params in (("/count", {}), ("/static/style.css", {}), ("/favicon.ico", {}),
                         ("/api/count", {"hand": "5H 5C 5S JD", "starter": "5D"}),
                         ("/api/nothing", {})):
        got, head = client.get(path, params=params), client.head(path, params=params)
        assert head.status_code == got.status_code, path
        assert head.headers["content-type"] == got.headers["content-type"], path
        assert head.headers["content-length"] == got.headers["content-length"], path
        assert head.content == b"", path
    assert client.head("/api/count", params={"hand": "5H"}).status_code == 422


def test_the_icon_is_served(client):
    # a browser asks every page for /favicon.ico: it was a 404
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"] == "image/x-icon"
    assert r.content[:4] == b"\x00\x00\x01\x00"  # an icon file, one image: a PNG
    assert r.content[22:26] == b"\x89PNG"


# --------------------------------------------------------------------------- pages


def test_every_page_and_its_files_are_served(client):
    for path in ("/count", "/keep", "/trainer", "/play"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        for ref in ("/static/style.css", 'href="/count"', 'href="/keep"', 'href="/trainer"',
                    'href="/play"'):
            assert ref in r.text, (path, ref)
    for name, kind in (("style.css", "text/css"), ("common.js", "text/javascript"),
                       ("count.js", "text/javascript"), ("keep.js", "text/javascript"),
                       ("trainer.js", "text/javascript")):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and r.headers["content-type"].startswith(kind), name
    r = client.get("/", follow_redirects=False)
    assert r.status_code in (302, 307) and r.headers["location"] == "/count"
    assert 'src="/static/play.js"' in client.get("/play").text  # page 4, the game
    assert client.get("/static/play.js").headers["content-type"].startswith("text/javascript")


def test_pages_and_api_read_no_file(monkeypatch):
    # Once the application is made and warm (the package's six-card tables loaded, as crib serve
    # makes it), no page, static file or answer opens a file.
    client = TestClient(create_app(warm=True))
    client.app.state.warming.result()  # P(win)'s kernels, loaded in a thread at start-up

    def no(*args, **kwargs):
        raise AssertionError(f"a file was opened: {args[:1]}")

    monkeypatch.setattr(builtins, "open", no)
    monkeypatch.setattr(io, "open", no)
    monkeypatch.setattr(pathlib.Path, "open", no)
    for path in [*PAGES, "/static/style.css", "/static/common.js"]:
        assert client.get(path).status_code == 200, path
    assert get(client, "/api/count", hand="5H 5C 5S JD", starter="5D").status_code == 200
    assert get(client, "/api/keep", hand=HAND, role="pone").status_code == 200
    assert get(client, "/api/trainer/deal", seed=3).status_code == 200
    assert get(client, "/api/trainer/answer", seed=3, k=0,
               throw=" ".join(format_card(c) for c in trainer.deal(3, 0)[0][:2])).status_code == 200


def test_the_address_crib_serve_prints_for_the_api_lists_its_endpoints(client):
    # an audit's: crib serve says "the API http://127.0.0.1:PORT/api/", which was a 404
    answer = client.get("/api/")
    assert answer.status_code == 200
    index = answer.json()
    spec = client.get(index["described"]).json()
    assert {(e["method"], e["path"]) for e in index["endpoints"]} == {
        (method.upper(), path) for path, ways in spec["paths"].items() for method in ways}
    count = next(e for e in index["endpoints"] if e["path"] == "/api/count")
    assert count == {"method": "GET", "path": "/api/count",
                     "summary": "Count a hand or crib, every combination and the words"}


def test_the_api_is_described():
    spec = TestClient(create_app()).get("/api/openapi.json").json()
    assert {"/api/count", "/api/keep", "/api/keep/win", "/api/keep/chart.svg",
            "/api/trainer/deal", "/api/trainer/answer", "/api/game",
            "/api/game/record", "/api/game/why", "/api/game/review", "/api/history",
            "/api/history/game", "/api/history/review", "/api/trainer/record",
            "/api/trainer/sitting"} == \
        set(spec["paths"])
    assert set(spec["paths"]["/api/history/game"]) == {"post"}  # it writes: never a GET

