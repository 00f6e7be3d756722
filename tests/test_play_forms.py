"""``crib play`` in the group forms, through a pseudo-terminal (pexpect): three-player (you against
West and East) and four-player (you and an AI partner, North, against West and East).

The scripted person of ``test_play`` throws the first card of each hand and lays the first card
that fits, so its game is known independently: the same decisions at a
:class:`analyzer.table.tabletop.Table` give the same record, which the saved file must equal.
What the screen says is checked against the rules (docs/rules.md): the deal passes to the left,
the player on the dealer's left leads, after a go the last to lay pegs it and the next player
leads the new count, the crib of three-player takes a card from the pack, and partners score
together.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pexpect
import pytest
from test_play import (
    ANSI,
    END,
    GO,
    LAY,
    PROMPTS,
    THROW,
    TIMEOUT,
    _env,
    assert_table_manners,
    first_fitting,
    held,
    spawn,
    terminal,
)

from analyzer.core.cards import card_value, parse_card
from analyzer.sim.records import read_records
from analyzer.table.history import read_games
from analyzer.table.review import format_review, review_game
from analyzer.table.tabletop import Table
from tests.persons import FirstCards

LEVEL, SPEC = "Beginner", "hand+random"  # the quickest level: the test is of the face
NAMES = {3: ("you", "West", "East"), 4: ("you", "West", "your partner", "East")}


def _play_whole(child, stop: int | None = None, asks: bool = False, goes: bool = False) -> str:
    """Play the scripted person's game to the end (or to prompt number ``stop``, unanswered);
    the transcript. With ``asks``, ``?`` at the first discard and the first card to lay; with
    ``goes``, a go typed where asked (``--no-auto-go``)."""
    transcript = []
    asked = 0
    advice = {THROW: not asks, LAY: not asks}
    while True:
        k = child.expect(PROMPTS)
        transcript.append(child.before + (child.after if k != END else ""))
        if k == END:
            break
        asked += 1
        if asked == stop:
            break
        if not advice.get(k, True):
            advice[k] = True
            child.sendline("?")
            continue
        if k == THROW:
            child.sendline("1")
        elif k == LAY:  # the cards held are shown once, before a ? asked
            child.sendline(first_fitting(*held("".join(transcript))))
        elif k == GO and goes:
            child.sendline("go")
        else:  # pragma: no cover - the go is said for the person; no muggins here
            raise AssertionError(child.after)
    return ANSI.sub("", "".join(transcript)).replace("\r", "")


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n")]


def _check_the_turns(text: str, record: dict, players: int) -> None:
    """Each deal's dealer, who leads the play and each new count, and who pegs each go, as the
    screen says them, against the rules and the record."""
    names = NAMES[players]
    label = {name: seat for seat, name in enumerate(names)}
    lines = _lines(text)
    headings = [line for line in lines if re.search(r"Deal \d+: ", line)]
    deals = record["deals"]
    assert len(headings) == len(deals)
    for k, deal in enumerate(deals):
        dealer = deal["dealer"]
        if k:  # the deal passes to the left
            assert dealer == (deals[k - 1]["dealer"] + 1) % players
        who = re.search(r"Deal \d+: (.*?) deals?,", headings[k]).group(1)
        assert label[who] == dealer, headings[k]
        order = ", ".join(names[(dealer + 1 + j) % players] for j in range(players))
        assert f"the play goes {order}." in text
    last = None  # the seat that laid the last card
    plays = [p for deal in deals for p in deal["plays"]]
    laid = 0
    lead = None  # who the screen said leads the next count
    for line in lines:
        match = re.match(r"(you|West|East|your partner) lays? (\S\S) +count", line)
        if match:
            seat = label[match.group(1)]
            if lead is not None:  # the new count's first card is the leader's
                assert seat == lead, line
                lead = None
            assert [seat, match.group(2)] == plays[laid][:2]  # the record's order of play
            laid += 1
            last = seat
            continue
        match = re.match(r"The play \((you|West|East|your partner) leads?\):", line)
        if match:
            lead = label[match.group(1)]
            continue
        match = re.match(r"(you|West|East|your partner) pegs? 1 \(go\)", line)
        if match:  # the go goes to the last to lay
            assert label[match.group(1)] == last, line
            continue
        match = re.match(r"-- the count starts again at 0: (you|West|East|your partner) "
                         r"leads? --", line)
        if match:  # the first seat after the last to lay that still holds a card
            lead = label[match.group(1)]
    assert laid == len(plays)


def test_a_whole_three_player_game_through_a_terminal(tmp_path):
    history = tmp_path / "h.sqlite3"
    child = spawn("--variant", "three-player", "--level", LEVEL.lower(), "--seed", "21",
                  "--save", "three.jsonl", "--history", str(history), cwd=tmp_path)
    text = _play_whole(child, asks=True)
    flat = " ".join(text.split())  # a long line is broken between words at 80 columns
    child.close()
    assert child.exitstatus == 0
    (record,) = read_records(tmp_path / "three.jsonl")
    assert record == Table((FirstCards(), SPEC, SPEC), variant="three-player", seed=21,
                           level=LEVEL).play()
    assert record["variant"] == "three-player" and len(record["scores"]) == 3
    assert f"three-player cribbage to 121, you against two AIs at {LEVEL} ({SPEC})" in flat
    assert "You sit South, West on your left and East on your right" in flat
    # the advice: the keep advice for this form, and at the first card each card that fits
    # valued in points, with its P(win) from the table of three needs beside
    assert "Advice (the analyzer's best keeps, by points: hand and crib):" in text
    assert "Advice by points (points now, the rest of the play for minus against):" in text
    cards, count = held(text[:text.index("Advice by points")])
    rows = re.findall(r"^    (\S\S): now \d+, rest [-+]\d+\.\d\d, total [-+]\d+\.\d\d, "
                      r"P\(win\) \d+\.\d\d?%$", text, re.MULTILINE)
    assert sorted(rows) == sorted(c for c in cards if count + card_value(parse_card(c)) <= 31)
    assert "Play advice is not available" not in flat
    _check_the_turns(text, record, 3)
    # the crib takes the top card of the pack: four cards, one of each player and the pack's
    assert text.count("the top card of the pack to the crib.") == len(record["deals"])
    assert all(len(deal["pack"]) == 1 for deal in record["deals"])
    # the scores by player, each time points are pegged, and three tracks on the board
    scores = re.findall(r"you (\d+),\s+West (\d+),\s+East (\d+)", text)
    assert [int(x) for x in scores[-1]] == record["scores"]
    for name in ("you", "West", "East"):
        assert re.search(rf"^  {name:<4} +\d+ \[[#.|]+\]", text, re.MULTILINE)
    winner = record["winner"]
    losers = ", ".join(f"{NAMES[3][s]} {record['scores'][s]}" for s in range(3) if s != winner)
    said = "You win" if winner == 0 else f"{NAMES[3][winner]} wins"
    assert f"{said} with {record['scores'][winner]}: {losers}" in flat
    # the review of the person's discards and cards laid
    assert "Your decisions, reviewed" in text
    said = [line.strip() for line in text.split("\n")]
    for line in format_review(review_game(record)).splitlines():
        assert line.strip() in said, line
    assert_table_manners(text)
    assert max(len(line) for line in text.split("\n") if ": compiling " not in line) <= 80
    # the history: the form kept apart, and the win rate against 1 in 3
    (row,) = read_games(history).to_dict("records")
    assert (row["variant"], row["level"], row["opponent"]) == ("three-player", LEVEL, SPEC)
    assert row["result"] == ("won" if winner == 0 else "lost")
    stats = subprocess.run([sys.executable, "-m", "analyzer", "stats", "--history",
                            str(history)], capture_output=True, text=True, check=True)
    assert "three-player (three sides: an even game wins 1 in 3):" in stats.stdout
    assert "points per deal, three-player" in stats.stdout
    review = review_game(record)
    assert row["review_discard_lost"] == pytest.approx(review.discard_lost, abs=1e-9)
    assert row["review_play_lost"] == pytest.approx(review.play_lost, abs=1e-9)
    # crib review prints the same review of the saved game
    review = subprocess.run([sys.executable, "-m", "analyzer", "review", "three.jsonl"],
                            capture_output=True, text=True, cwd=tmp_path)
    assert review.returncode == 0, review.stderr
    assert review.stdout.strip() == format_review(review_game(record)).strip()


def test_a_whole_four_player_game_with_a_partner_through_a_terminal(tmp_path):
    history = tmp_path / "h.sqlite3"
    child = spawn("--variant", "four-player", "--level", LEVEL, "--seed", "22", "--first", "ai",
                  "--save", "four.jsonl", "--history", str(history), cwd=tmp_path)
    text = _play_whole(child)
    flat = " ".join(text.split())
    child.close()
    assert child.exitstatus == 0
    (record,) = read_records(tmp_path / "four.jsonl")
    assert record == Table((FirstCards(), SPEC, SPEC, SPEC), variant="four-player", seed=22,
                           first=1, level=LEVEL).play()
    assert record["first_dealer"] == 1 and len(record["scores"]) == 2
    assert "you and an AI partner against two AIs" in flat
    assert "Your partner sits opposite you" in flat
    _check_the_turns(text, record, 4)
    # partners score together: each point pegged by a seat goes to its side
    said = r"you\s+&\s+your\s+partner\s+(\d+),\s+West\s+&\s+East\s+(\d+)"
    pegged = list(re.finditer(r"^ +(you|West|East|your partner) pegs? (\d+) \([^)]*\):\s+"
                              + said, text, re.MULTILINE))
    assert pegged
    for match in pegged:  # the scores said last before, and the seat's side's points added
        shown = re.findall(said, text[:match.start()])
        before = [int(x) for x in shown[-1]] if shown else [0, 0]
        before[NAMES[4].index(match.group(1)) % 2] += int(match.group(2))
        assert [int(match.group(3)), int(match.group(4))] == before, match.group(0)
    scores = re.findall(said, text)
    assert [int(x) for x in scores[-1]] == record["scores"]
    assert re.search(r"^  us +\d+ \[", text, re.MULTILINE)
    assert re.search(r"^  them +\d+ \[", text, re.MULTILINE)
    winner = record["winner"]
    said = "You and your partner win" if winner == 0 else "West and East win"
    assert f"{said} {record['scores'][winner]}-{record['scores'][1 - winner]}" in flat
    assert_table_manners(text)
    assert max(len(line) for line in text.split("\n") if ": compiling " not in line) <= 80
    (row,) = read_games(history).to_dict("records")
    assert row["variant"] == "four-player"
    assert (row["your_score"], row["computer_score"]) == tuple(record["scores"])


@pytest.mark.parametrize(("variant", "seed"), [
    pytest.param("three-player", 1006, marks=pytest.mark.slow), ("four-player", 1008)])
def test_with_no_auto_go_you_say_go_once_a_count_and_not_after_the_last_card(tmp_path,
                                                                               variant, seed):
    """With ``--no-auto-go`` you are asked to say go when no card fits, once a count: having
    said it you are out of that count, and the last to lay says none (he pegs the go). Each go
    asked is a go said, and the game is the one played with the go said for you. (It asked
    again when the play came round to you: 5 of 27 go prompts in a three-player game.)"""
    players = 3 if variant == "three-player" else 4
    child = spawn("--variant", variant, "--level", LEVEL, "--seed", str(seed), "--no-auto-go",
                  "--save", "g.jsonl", "--no-history", cwd=tmp_path)
    text = _play_whole(child, goes=True)
    child.close()
    assert child.exitstatus == 0
    asked = text.count("No card fits: say go>")
    assert asked >= 5 and text.count('you: "go"\n') == asked
    (record,) = read_records(tmp_path / "g.jsonl")
    assert record == Table((FirstCards(), *[SPEC] * (players - 1)), variant=variant,
                           seed=seed, level=LEVEL).play()
    _check_the_turns(text, record, players)


@pytest.mark.slow
def test_a_three_player_game_stopped_mid_deal_and_resumed_is_the_game_played_straight(
        tmp_path):
    child = spawn("--variant", "three-player", "--level", LEVEL, "--seed", "23", "--save",
                  "r.jsonl", cwd=tmp_path)
    _play_whole(child, stop=8)
    assert "Lay a card> " in child.after
    cards, count = held(child.before)
    child.sendline("quit")
    child.expect(r"\(y/n\)> ")
    child.sendline("y")
    child.expect("Saved the unfinished game to r.jsonl")
    child.expect(pexpect.EOF)
    child.close()
    (stopped,) = read_records(tmp_path / "r.jsonl")
    assert stopped["unfinished"] is True and stopped["partial_deal"]["plays"]
    child = spawn("--resume", "r.jsonl", cwd=tmp_path)
    child.expect(r"Resumed from r\.jsonl, where the game stopped\.")
    assert child.expect(PROMPTS) == LAY
    assert held(child.before) == (cards, count)  # the same question, asked again
    assert f"Starter {stopped['partial_deal']['starter']}" in child.before
    child.sendline(first_fitting(cards, count))
    text = _play_whole(child)
    child.close()
    assert child.exitstatus == 0
    assert "Saved the game to r.jsonl" in text
    (record,) = read_records(tmp_path / "r.jsonl")
    assert record == Table((FirstCards(), SPEC, SPEC), variant="three-player", seed=23,
                           level=LEVEL).play()


def test_a_resumed_deal_shown_again_names_the_leaders_of_then(tmp_path):
    """The deal in progress is shown again on resume as it was played: its heading's board at
    the scores of its start, and each new count's leader the one of then (not worked out from
    the table at the resume)."""
    def play(*args: str, answers: str) -> str:
        run = subprocess.run([sys.executable, "-m", "analyzer", "play", *args, "--no-history"],
                             input=answers, capture_output=True, text=True, cwd=tmp_path,
                             env=_env(), timeout=TIMEOUT)
        assert run.returncode == 0, run.stderr
        return run.stdout

    def leads(text: str) -> list[str]:
        return re.findall(r"-- the count starts again at 0[^\n]*", text)

    def heading(text: str) -> str:  # the last deal's rule and its board
        return re.findall(r"-+ Deal \d+:[^\n]*\n(?:  \S+ +\d+ \[[^\n]*\n)+", text)[-1]

    live = play("--variant", "three-player", "--level", LEVEL, "--seed", "707", "--save",
                "g.jsonl", answers="9S\n5C\n8D\n6S\nAD\n9S\n4D\n5C\n8D\nquit\ny\n")
    again = play("--resume", "g.jsonl", answers="quit\ny\n")
    assert leads(again) and leads(again) == leads(live)[-len(leads(again)):]
    assert all(line.endswith("leads --") for line in leads(again))
    assert heading(again) == heading(live) and "Deal 2:" in heading(again)


@pytest.mark.parametrize(("variant", "seed", "before", "again"), [
    # three-player: your JD taken back and laid again; West's go point, then you lead
    ("three-player", 2498, "7S AH JD undo", "JD 8D"),
    # four-player: your AD taken back and laid again, your 31; East's go point, then you lead
    ("four-player", 5869, "AS AD 3C 5H 9S 6C 9D AD undo", "AD 3D"),
])
def test_after_an_undo_each_new_count_names_its_leader_as_the_game_played_straight_does(
        tmp_path, variant, seed, before, again):
    """An audit's undo: the card taken back was still counted as laid, so a later new count
    named the seat after yours (or no one) where you held a card and led."""
    def leads(answers: str) -> list[str]:
        run = subprocess.run([sys.executable, "-m", "analyzer", "play", "--variant", variant,
                              "--level", LEVEL, "--seed", str(seed), "--save", "u.jsonl",
                              "--no-history"],
                             input="\n".join(answers.split()) + "\nquit\ny\n",
                             capture_output=True, text=True, cwd=tmp_path, env=_env(),
                             timeout=TIMEOUT)
        assert run.returncode == 0, run.stderr
        return re.findall(r"-- the count starts again at 0[^\n]*", run.stdout)

    undone = leads(f"{before} {again}")
    straight = leads(f"{before.removesuffix(' undo').rsplit(' ', 1)[0]} {again}")
    assert undone == straight and undone[-1].endswith(": you lead --")


def test_the_replay_of_a_stopped_four_player_game_says_each_ai_throws_a_card(tmp_path):
    # an audit read "throws 1 cards" in the replay crib play names when it saves
    from analyzer.sim.records import format_game

    run = subprocess.run([sys.executable, "-m", "analyzer", "play", "--variant", "four-player",
                          "--level", LEVEL, "--seed", "5", "--save", "s.jsonl", "--no-history"],
                         input="1\nquit\ny\n", capture_output=True, text=True, cwd=tmp_path,
                         env=_env(), timeout=TIMEOUT)
    assert run.returncode == 0, run.stderr
    (record,) = read_records(tmp_path / "s.jsonl")
    stopped = format_game(record).split("the game stopped in this deal")[1]
    assert stopped.count("holds 5 cards, unseen, throws a card") == 3, stopped
    assert "1 cards" not in stopped


def test_a_resumed_games_board_has_its_back_pegs_where_they_stood(tmp_path):
    """An audit's resume drew the deal in progress's board with no back peg (each side seen to
    reach its score in one go): the table's deal says where each stood before its last points
    (``before``), and the resumed board is the board of the game played straight."""
    env = {**_env(), "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)

    def board_of_deal_2(args: list[str], answers: list[str]) -> str:
        child = terminal(["play", *args, "--no-history"], tmp_path, env)
        seen = []
        for answer in [*answers, "quit", "y"]:
            child.expect(r"> ")
            seen.append(child.before)
            child.sendline(answer)
        child.expect(pexpect.EOF)
        text = ANSI.sub("", "".join(seen)).replace("\r", "")
        board = text[text.index("Deal 2:"):].split("\n")
        return "\n".join(line for line in board[1:10] if "·" in line)

    live = board_of_deal_2(["--variant", "three-player", "--level", LEVEL, "--seed", "5",
                            "--save", "b.jsonl"], ["1"] * 5)
    again = board_of_deal_2(["--resume", "b.jsonl"], [])
    assert again == live and live.count("○") == 3  # each side's back peg, on the board


def test_expert_in_a_group_form_says_how_it_plays(tmp_path):
    run = subprocess.run([sys.executable, "-m", "analyzer", "play", "--variant", "three-player",
                          "--seed", "3", "--save", "x.jsonl", "--no-history"],
                         input="quit\ny\n", capture_output=True, text=True, cwd=tmp_path,
                         env=_env(), timeout=TIMEOUT)
    assert run.returncode == 0, run.stderr
    assert "you against two AIs at Expert (best)" in run.stdout
    assert "In three-player, best keeps as ev and searches the play to win." in run.stdout
    assert "\x1b" not in run.stdout
    assert max(len(line) for line in run.stdout.splitlines()) <= 80


def test_an_undo_refused_in_a_group_form_names_the_seat(tmp_path):
    """The reason an undo is refused names the seat that showed a card since (West, East), not
    "the AI" of the two-player game; the discard stands once the starter is cut."""
    run = subprocess.run([sys.executable, "-m", "analyzer", "play", "--variant", "three-player",
                          "--level", LEVEL, "--seed", "5", "--save", "u.jsonl", "--no-history"],
                         input="1\nundo\n1\nundo\n1\nquit\ny\n", capture_output=True, text=True,
                         cwd=tmp_path, env=_env(), timeout=TIMEOUT)
    assert run.returncode == 0, run.stderr
    refused = re.findall(r"  cannot undo (your [^\n]*) since", run.stdout)
    assert refused[0].startswith("your discard ") and "the starter" in refused[0]
    assert re.fullmatch(r"your \S\S: (West|East) has (laid \S\S|said go)", refused[1])
    assert "the AI" not in run.stdout


def test_why_in_a_group_form_shows_each_ais_discard(tmp_path):
    """``why``: nothing before a deal's show (the AIs' cards are hidden); after it, each AI's
    discard in the last deal with its top 3, valued as the review values it (the play is not
    valued in the group forms), named as the table names the seats."""
    from analyzer.table.objective import format_alternatives
    from analyzer.table.review import explain_deal

    child = spawn("--variant", "three-player", "--level", LEVEL, "--seed", "5", "--save",
                  "w.jsonl", "--no-history", cwd=tmp_path)
    assert child.expect(PROMPTS) == THROW
    child.sendline("why")
    child.expect(r"why: the AIs' choices are shown once a deal's show is over\r?\n")
    assert child.expect(PROMPTS) == THROW
    child.sendline("1")
    while True:
        k = child.expect(PROMPTS)
        assert k != END, child.before
        if k == THROW:
            break
        child.sendline(first_fitting(*held(child.before)))
    child.sendline("why")
    assert child.expect(PROMPTS) == THROW
    text = ANSI.sub("", child.before.replace("\r", ""))
    child.sendline("quit")
    child.expect(r"\(y/n\)> ")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    (record,) = read_records(tmp_path / "w.jsonl")
    flat = " ".join(text.split())
    assert "Why: the AIs' choices in deal 1, each with its top 3:" in flat
    lines = [" ".join(line.split()) for line in text.split("\n")]
    for seat, name in ((1, "West"), (2, "East")):
        rows = explain_deal(record, 1, seat)
        assert rows[0]["kind"] == "discard" and {r["kind"] for r in rows[1:]} <= {"play"}
        assert len(rows) > 1  # a card laid with a choice, valued as the review values it
        for row in rows:
            did = (f"kept {row['done']}" if row["kind"] == "discard" else
                   f"led {row['done']}" if row["position"] == "lead" else
                   f"laid {row['done']} {row['position']}")
            assert row["objective"] == "points" and f"{name} {did}, by points:" in lines
            assert " ".join(format_alternatives(row["alternatives"], "points").split()) in lines
    assert max(len(line) for line in text.split("\n")) <= 80


def test_the_play_advice_in_four_player_through_a_terminal(tmp_path):
    """``?`` at the first card to lay: each card that fits, by points with its P(win), the
    numbers of :func:`analyzer.advise_play` asked directly with the position rebuilt by hand
    from the saved game (the cards laid before, the goes by the rules)."""
    from test_play_advice_forms import history_by_hand, next_turn_passes

    from analyzer import advise_play
    from analyzer.core.choices import ADVISE_SAMPLES

    child = spawn("--variant", "four-player", "--level", LEVEL, "--seed", "23", "--save",
                  "four.jsonl", "--no-history", cwd=tmp_path)
    while (k := child.expect(PROMPTS)) == THROW:
        child.sendline("1")
    assert k == LAY, child.before
    cards, count = held(ANSI.sub("", child.before))
    child.sendline("?")
    child.expect(r"Advice by points \(points now, the rest of the play for minus against\):")
    assert child.expect(PROMPTS) == LAY  # the advice lines, then the prompt again
    shown = ANSI.sub("", child.before).replace("\r", "")
    child.sendline("quit")
    child.expect(r"\(y/n\)> ")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    (record,) = read_records(tmp_path / "four.jsonl")
    deal = record["partial_deal"]
    lays = [(seat, parse_card(card)) for seat, card, _ in deal["plays"]]
    laid = sum(card_value(c) for _, c in lays)
    reset_now = bool(lays) and count == 0 and laid != 31
    history = history_by_hand(lays, deal["dealer"], 4, 4, reset_now)
    if not reset_now:
        next_turn_passes(history, lays, 0, deal["dealer"], 4, 4)
    before = list(record["deals"][-1]["scores"] if record["deals"] else record["start"])
    before[deal["dealer"] % 2] += deal["heels"]
    kept = [c for c in deal["hands"][0] if c not in deal["discards"][0]]
    direct = advise_play(kept, history, dealer=deal["dealer"], seat=0, starter=deal["starter"],
                         thrown=deal["discards"][0], score=before, samples=ADVISE_SAMPLES,
                         variant="four-player")
    rows = [line.strip() for line in shown.split("\n") if line.strip()]
    fits = [c for c in cards if count + card_value(parse_card(c)) <= 31]
    assert sorted(row.split(":")[0] for row in rows) == sorted(fits) == sorted(direct["card"])
    said = {f"{r.card}: now {r.now}, rest {r.rest:+.2f}, total {r.total:+.2f}, P(win) "
            f"{r.p_win:.1%}" + (", wins the game" if r.wins_now else "")
            for r in direct.itertuples(index=False)}
    assert set(rows) == said
    totals = [float(re.search(r"total ([-+]\d+\.\d+)", row).group(1)) for row in rows]
    assert totals == sorted(totals, reverse=True)  # best first (no card wins the game here)
    print("\n".join(rows))
