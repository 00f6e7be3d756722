"""The table's features on ``/play`` in a real browser (issue 24's last items): whole games at
each level and in each form, the show counted out phrase by phrase, muggins on the cards, undo,
resume after a reload, why, the review and the history pages, the trainer's record kept in the
history, and what a screen reader and a phone need. Headless Chromium against the application on
a free loopback port, its history a temporary file. Every check is against the engine's own
table replayed with the same moves, or the rules' words (:func:`analyzer.core.counting`)."""

from __future__ import annotations

import json
import sqlite3

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")

from analyzer.web.browser import missing  # noqa: E402

REASON = missing()
# Both browser modules are one unit of work for the test workers (conftest.py's WORK_UNITS).
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"no browser to drive: {REASON}")

from analyzer.core.cards import format_card, parse_card  # noqa: E402
from analyzer.web import browser  # noqa: E402
from analyzer.web.browser import chromium  # noqa: E402

HANG_GUARD = 1800  # seconds: only a guard against a hang (a cold compile may be slow)

#: A person at the page, in the page: each decision taken by clicking what a person clicks (the
#: first cards that may be thrown or laid, Go, Continue at each show; with muggins the count
#: given); stops at the end, after ``limit`` actions, or at the first ask in ``stop``. Resolves
#: to {ask, acted, shows}.
AUTOPLAY = """
const done = arguments[arguments.length - 1];
const limit = arguments[0], claim = arguments[1], stop = arguments[2] || [];
let acted = 0, shows = 0;
const $ = (s) => document.querySelector(s);
function tick() {
  const b = document.body.dataset;
  if (b.busy === "1" || !b.ask) return setTimeout(tick, 5);
  if (b.ask === "over" || acted >= limit || stop.includes(b.ask))
    return done({ ask: b.ask, acted, shows });
  if (b.ask === "show") { shows++; $("#continue").click(); }
  else if (b.ask === "throw") {
    const picks = [...document.querySelectorAll("#hand .card.pick")];
    for (const c of picks.slice(0, Number($("#throw").dataset.n))) c.click();
    $("#throw").click();
  } else if (b.ask === "lay") $("#hand .card.pick").click();
  else if (b.ask === "count") { $("#claim").value = claim; $("#claim-send").click(); }
  acted++;
  setTimeout(tick, 5);
}
tick();
"""


def wait_for(condition, timeout: float = HANG_GUARD):
    return browser.wait_for(condition, timeout=timeout)


@pytest.fixture(scope="module")
def history_path(tmp_path_factory):
    return tmp_path_factory.mktemp("history") / "history.sqlite3"


@pytest.fixture(scope="module")
def site(history_path):
    from analyzer.web.app import create_app
    from analyzer.web.serve import BackgroundServer

    app = create_app(warm=True, history=history_path)
    with BackgroundServer(app) as url, chromium() as driver:
        driver.set_script_timeout(HANG_GUARD)
        yield url, driver


def by(driver, css):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, css)


def one(driver, css):
    return wait_for(lambda: [e for e in by(driver, css) if e.is_displayed()])[0]


def data(driver, key):
    return driver.execute_script(f"return document.body.dataset.{key}")


def open_game(driver, url, query):
    driver.get(url + "/play?" + query)
    wait_for(lambda: data(driver, "ask") and data(driver, "busy") == "0")


def play(driver, limit=100_000, claim="0", stop=()):
    return driver.execute_async_script(AUTOPLAY, limit, claim, list(stop))


def page_moves(driver) -> str:
    return driver.execute_script(
        "return new URLSearchParams(location.search).get('moves') || ''")


class OutOfMoves(Exception):
    """The page's moves are all answered: the engine's table stops at its next question."""


class Listed:
    """The person of an engine's table answering from the page's moves."""

    def __init__(self, moves: str):
        self.moves = moves.split()

    def _next(self) -> str:
        if not self.moves:
            raise OutOfMoves
        return self.moves.pop(0)

    def discard(self, table, seat):
        return [parse_card(c) for c in self._next().split("-")]

    def lay(self, table, seat):
        if not table.legal(seat):  # the go, said for the person: no move
            return None
        return parse_card(self._next())

    def claim(self, table, seat, cards, crib):
        return int(self._next())


def engine_game(variant, spec, seed, moves, first="cut", muggins=False):
    """The engine's table played with the page's moves: (record, events)."""
    from analyzer.core.choices import variant_game
    from analyzer.table.tabletop import Table

    players = variant_game(variant).players
    events = []
    table = Table((Listed(moves), *[spec] * (players - 1)), variant=variant, seed=seed,
                  first={"cut": "cut", "you": 0, "ai": 1}[first], muggins=muggins,
                  emit=events.append)
    try:
        return table.play(), events
    except OutOfMoves:  # a game in progress: as it stands at the next question
        return table.record(), events


def board(driver) -> list[tuple[int, int]]:
    """Each side's pegs on the SVG board: (front, back)."""
    pegs = {}
    for peg in by(driver, "#board circle.peg"):
        side = int(peg.get_attribute("data-side"))
        kind = "front" if "front" in peg.get_attribute("class") else "back"
        pegs.setdefault(side, {})[kind] = int(peg.get_attribute("data-hole"))
    sides = len(by(driver, "#board g.side"))
    return [(pegs.get(s, {}).get("front", 0), pegs.get(s, {}).get("back", 0))
            for s in range(sides)]


# ------------------------------------------------------------------------ whole games


# make test plays six-card at Club, five-card and four-player; make test-all every one.
@pytest.mark.parametrize("variant, level, seed", [
    pytest.param("six-card", "Beginner", 5, marks=pytest.mark.slow),
    pytest.param("six-card", "Casual", 6, marks=pytest.mark.slow), ("six-card", "Club", 7),
    pytest.param("six-card", "Expert", 8, marks=pytest.mark.slow), ("five-card", "Club", 11),
    pytest.param("three-player", "Beginner", 3, marks=pytest.mark.slow),
    ("four-player", "Beginner", 4)])
def test_a_whole_game_at_each_level_and_in_each_form(site, variant, level, seed):
    from analyzer.table.levels import find_level

    url, driver = site
    open_game(driver, url, f"seed={seed}&level={level}&variant={variant}")
    result = play(driver)
    assert result["ask"] == "over"
    moves = page_moves(driver)
    spec = find_level(level).player
    record, events = engine_game(variant, spec, seed, moves)
    # the game stopped at every show, each counted out before the next question
    assert result["shows"] == sum(e["kind"] == "show" for e in events) > 0
    # the board: each side's front peg at its final score, the back peg where it stood before
    # its last points (the engine's events)
    final = record["scores"]
    backs = []
    for side in range(len(final)):
        seen = [0]
        for e in events:
            if "scores" in e and e["scores"][side] != seen[-1]:
                seen.append(e["scores"][side])
        backs.append(seen[-2] if len(seen) > 1 else 0)
    assert board(driver) == list(zip(final, backs, strict=True))
    assert max(final) >= (61 if variant == "five-card" else 121)
    # the AIs' cards laid, in the log, as the table laid them
    shown = [(e.get_attribute("data-card"), int(e.get_attribute("data-points")))
             for e in by(driver, "#log li.ai[data-points]")]
    assert shown == [(format_card(e["card"]), e["points"]) for e in events
                     if e["kind"] == "lay" and e["seat"] != 0]
    end = by(driver, "#log li.end")[0].text
    assert end.startswith(("You win", "You and your partner win") if record["winner"] == 0
                          else ("The AI wins", "West wins", "East wins", "West and East win"))
    if variant == "three-player":  # each loser named, with its score and skunk, as the terminal
        from analyzer.web.game import SEAT_NAMES

        words = ("", " (skunked)", " (double skunk)", " (triple skunk)")
        names, w = SEAT_NAMES[3], record["winner"]
        losers = ", ".join(f"{names[i]} {final[i]}{words[record['skunk'][i]]}"
                           for i in range(3) if i != w)
        assert end.endswith(f" with {final[w]}: {losers}."), end
    assert f"Against {level} ({spec})" in one(driver, "#status").text


# ------------------------------------------------------------------------ defect 5: the show


def test_the_show_is_counted_out_on_the_cards_and_the_game_waits(site):
    # the show was a line of the log; now the game stops at each show and says the count
    # phrase by phrase on the cards, with Continue
    from analyzer.core.counting import count_hand, say_count, say_count_steps

    url, driver = site
    open_game(driver, url, "seed=7&level=Club&variant=six-card")
    assert play(driver, stop=["show"])["ask"] == "show"
    moves = page_moves(driver)
    _, events = engine_game("six-card", "ev+greedy", 7, moves)
    show = next(e for e in events if e["kind"] == "show")
    cards = [format_card(c) for c in show["cards"]]
    starter = format_card(show["starter"])
    on_table = [e.get_attribute("data-card") for e in by(driver, "#show-cards .card")]
    assert on_table == cards + [starter]
    assert by(driver, "#show-cards .card")[-1].get_attribute("class").count("starter")
    items = count_hand(cards, starter, crib=show["crib"])
    steps = say_count_steps(items)
    # the board takes the show's points when its count has been said to its end, not before
    before = next(e["scores"] for e in reversed(events[:events.index(show)]) if "scores" in e)
    shown = [front for front, _ in board(driver)]
    if driver.execute_script("return document.querySelector('#show').dataset.done") == "0":
        assert shown == list(before)
    wait_for(lambda: driver.execute_script("return document.querySelector('#show').dataset.done")
             == "1")
    assert [front for front, _ in board(driver)] == list(show["scores"]) != list(before)
    said = [li.get_attribute("data-cards") for li in by(driver, "#show-steps li")]
    words = [driver.execute_script("return arguments[0].firstChild.textContent", li)
             for li in by(driver, "#show-steps li")]
    assert words == [s.said for s in steps]
    assert said == [" ".join(sorted({format_card(c) for i in s.items for c in i.cards}))
                    for s in steps]
    assert f'"{say_count(items)}": {sum(i.points for i in items)}.' == one(
        driver, "#show-total").text
    # the game waits: no move made, the question not asked until Continue
    assert data(driver, "ask") == "show" and page_moves(driver) == moves
    one(driver, "#continue").click()
    assert data(driver, "ask") in ("show", "throw", "over")


# ------------------------------------------------------------------------ defect 4: muggins


def test_muggins_shows_the_cards_to_count_and_speaks_the_pages_words(site):
    from analyzer.core.counting import count_hand
    from analyzer.web.game import game_answer

    url, driver = site
    open_game(driver, url, "seed=10&level=Club&variant=six-card&first=ai&muggins=1")
    assert play(driver, stop=["count"])["ask"] == "count"
    moves = page_moves(driver)
    answer = game_answer("six-card", "ev+greedy", 10, "ai", True, moves)
    detail = answer["ask_detail"]
    # the hand and the starter as cards in the card area (it was blank), no count of the play
    shown = [e.get_attribute("data-card") for e in by(driver, "#hand .card")]
    assert shown == detail["cards"] + [answer["state"]["starter"]]
    assert not by(driver, "#count-box")[0].is_displayed()  # no stale "count 26"
    true = sum(i.points for i in count_hand(detail["cards"], detail["starter"],
                                            crib=detail["crib"]))
    assert true > 1
    box = one(driver, "#claim")
    assert driver.switch_to.active_element == box  # ready to type
    box.send_keys("99\n")  # Enter submits; a count out of range is said in the page's words
    error = one(driver, "#claim-error").text
    assert "'99' is not a count" in error and "move" not in error
    assert page_moves(driver) == moves  # nothing was sent
    box.clear()
    box.send_keys(f"{true - 1}\n")  # one short: muggins
    wait_for(lambda: page_moves(driver) != moves)
    assert page_moves(driver).split()[-1] == str(true - 1)
    wait_for(lambda: data(driver, "ask") == "show" and driver.execute_script(
        "return document.querySelector('#show').dataset.seat") == "0")
    wait_for(lambda: one(driver, "#show-claim").text)
    assert one(driver, "#show-claim").text == (
        f"You counted {true - 1}, but it counts {true}: muggins! The AI takes the 1 you missed.")


# ------------------------------------------------------------------------ undo, resume, why


def test_undo_one_step_and_a_refusal_in_words(site):
    # muggins, you deal: your hand's count, then your crib's; the hand's count may be taken
    # back at the crib's (the next deal is not dealt yet), a card laid once the AI answered not
    from analyzer.table.tabletop import Table

    url, driver = site
    open_game(driver, url, "seed=12&level=Beginner&variant=six-card&first=you&muggins=1")
    play(driver, limit=3, stop=["count"])  # a throw and a card or two
    if data(driver, "ask") == "lay":
        before = page_moves(driver)
        # refused: the button looks unavailable and its title says why, as the click does
        assert one(driver, "#undo").get_attribute("aria-disabled") == "true"
        title = one(driver, "#undo").get_attribute("title")
        assert title.startswith("Cannot undo your") and " since" in title
        one(driver, "#undo").click()
        note = one(driver, "#notice").text
        assert note.startswith("Undo: cannot undo your") and " since" in note
        assert page_moves(driver) == before
    assert play(driver, claim="0", stop=["count"])["ask"] == "count"
    play(driver, limit=1, claim="0", stop=["show"])  # the hand's count, 0
    play(driver, stop=["count"])  # its show, then the crib's count is asked
    assert data(driver, "ask") == "count"
    moves = page_moves(driver).split()
    assert moves[-1] == "0"
    assert one(driver, "#undo").get_attribute("aria-disabled") == "false"
    one(driver, "#undo").click()
    wait_for(lambda: page_moves(driver).split() == moves[:-1] and data(driver, "busy") == "0")
    assert data(driver, "ask") == "count"  # the hand's count asked again
    assert "Taken back" in one(driver, "#notice").text
    # the engine agrees: at the crib's count, the hand's count may be taken back
    table = Table((Listed(" ".join(moves)), "hand+random"), seed=12, first=0, muggins=True)
    with pytest.raises(OutOfMoves):
        table.play()
    assert table.decisions[-1][0] == "claim" and table.undo_refused() is None


def test_a_reload_mid_deal_resumes_and_bare_play_goes_on(site):
    url, driver = site
    open_game(driver, url, "seed=21&level=Beginner&variant=four-player")
    play(driver, limit=2)
    moves = page_moves(driver)
    hand = [e.get_attribute("data-card") for e in by(driver, "#hand .card")]
    ask = data(driver, "ask")
    assert moves and ask == "lay"
    driver.refresh()
    wait_for(lambda: data(driver, "busy") == "0" and data(driver, "ask"))
    assert page_moves(driver) == moves and data(driver, "ask") == ask
    assert [e.get_attribute("data-card") for e in by(driver, "#hand .card")] == hand
    driver.get(url + "/play")  # bare: this browser's last game
    wait_for(lambda: data(driver, "busy") == "0" and data(driver, "ask"))
    assert page_moves(driver) == moves and "variant=four-player" in driver.current_url


def test_why_explains_the_ais_last_deal(site):
    from analyzer.table.review import explain_deal
    from analyzer.web.game import replay_record

    url, driver = site
    open_game(driver, url, "seed=7&level=Club&variant=six-card")
    play(driver, stop=["show"])
    play(driver, limit=3, stop=["throw"])  # the shows of the first deal, to the next throw
    assert data(driver, "ask") == "throw"
    moves = page_moves(driver)
    one(driver, "#why").click()
    rows = wait_for(lambda: by(driver, "#why-box li.why-row"))
    # the record of the game as it stands: deal 1 is complete
    record = replay_record("six-card", "ev+greedy", 7, "cut", False, moves)
    want = explain_deal(record, 1, 1)  # the samples of the terminal's why
    assert len(rows) == len(want)
    assert rows[0].text.startswith("kept") and want[0]["kind"] == "discard"
    kept = [c.get_attribute("data-card") for c in rows[0].find_elements("css selector", ".card")]
    assert kept == want[0]["done"].split()
    for row, explained in zip(rows, want, strict=True):
        best = explained["alternatives"][0][0]
        assert f"by {explained['objective']}: 1. {best} " in row.text


def test_a_hint_in_the_four_player_play(site):
    """Hint at the first card to lay in four-player: each card that fits, with its points and
    P(win), as /api/game's advice (test_web_game checks that against advise_play)."""
    from analyzer.web.game import game_answer

    url, driver = site
    open_game(driver, url, "seed=4&level=Club&variant=four-player")
    play(driver, stop=["lay"])
    assert data(driver, "ask") == "lay"
    moves = page_moves(driver)
    fits = sorted(c.get_attribute("data-card") for c in by(driver, "#hand .card.pick"))
    one(driver, "#hint").click()
    rows = wait_for(lambda: by(driver, "#advice li"))
    want = game_answer("four-player", "ev+greedy", 4, moves=moves, advice=True)["advice"]
    assert sorted(r["card"] for r in want) == fits and len(rows) == len(fits)
    heading = one(driver, "#advice").text.splitlines()[0]
    assert heading.startswith("Each card you may lay, best first by points (points now, the rest "
                              "of the play for your side minus against and the chance to win); ")
    assert "P(win))" not in heading  # an audit's: the list's parenthesis closed P(win)'s
    # the AIs (three of them), as the box Why opens says (an audit's: "the AI's last deal")
    assert driver.execute_script("return $('why').textContent") == "Why? (the AIs' last deal)"
    for row, r in zip(rows, want, strict=True):
        # the card on its face (rank and suit sign), then its figures
        assert [c.get_attribute("data-card") for c in row.find_elements(
            "css selector", ".card")] == [r["card"]]
        assert f": now {r['now']}, rest " in row.text
        assert f"P(win) {100 * r['p_win']:.1f}%" in row.text


def _signed(x: float) -> str:
    """A number as the page signs it (common.js's ``signed``, two places, a true minus)."""
    return ("+" if x >= 0 else "") + f"{x:.2f}".replace("-", "\u2212")


def _keep_hint(driver, url, query: str) -> tuple[str, list, dict]:
    """The keep hint of the game at ``query`` (at a throw): its heading, its rows, and
    /api/game's answer with the advice."""
    from urllib.parse import parse_qs

    from analyzer.web.game import game_answer

    open_game(driver, url, query)
    assert data(driver, "ask") == "throw"
    one(driver, "#hint").click()
    rows = wait_for(lambda: by(driver, "#advice li"))
    given = {k: v[0] for k, v in parse_qs(query).items()}
    want = game_answer(given["variant"], seed=int(given["seed"]), level=given["level"],
                       first=given.get("first", "cut"), moves=given.get("moves", ""),
                       advice=True)
    return one(driver, "#advice").text.splitlines()[0], rows, want


def test_the_keep_hint_near_the_end_says_p_win(site):
    """Late in a six-card game (seed 103, Club, 107 to 109, you are pone) the keeps are ranked
    by P(win), and the first keeps fewer points than the next two: the hint says the objective
    and each keep's P(win), then its points, the crib signed as it enters the net (against
    you), as /api/game's advice (test_web_game checks it against the review)."""
    from test_web_game import LATE_THROW

    url, driver = site
    heading, rows, want = _keep_hint(driver, url, "seed=103&level=Club&variant=six-card&moves="
                                     + LATE_THROW.replace(" ", "+"))
    assert want["state"]["crib"] == "ai"
    advice = want["advice"]
    assert advice[0]["net"] < advice[1]["net"]
    assert heading.startswith("The analyzer's best keeps, by P(win), near the end (")
    assert "net = hand + crib + play" in heading
    assert len(rows) == len(advice) == 3
    for row, r in zip(rows, advice, strict=True):
        assert [c.get_attribute("data-card") for c in row.find_elements(
            "css selector", ".card")] == r["keep"] + r["discard"]
        assert row.text.endswith(
            f": P(win) {100 * r['p_win']:.1f}% ({r['net']:.2f} points: hand {r['hand']:.2f}, "
            f"crib {_signed(-r['crib'])}, play {_signed(r['peg'])})".replace("-", "\u2212"))


@pytest.mark.parametrize(("query", "crib"), [
    ("seed=5&level=Club&variant=six-card&first=you", "you"),
    ("seed=5&level=Club&variant=five-card&first=ai", "ai"),
    ("seed=5&level=Club&variant=three-player&first=ai&moves=3H+7H+7S+9C+QS+2C+3S+5S+9D+QS+5S"
     "+6H+9D+JC+KH+2C+2H+7H+7S+9C+AD+7S+8H+9H+QC+2D+3D+6D+7C+KS+AS+6H+9D+JC+KC+AC+2C+6C+6H+TH",
     "you")])  # three-player late in the game (57, 97, 85), your crib
def test_the_keep_hint_by_points_signs_the_crib(site, query, crib):
    """By points, each keep's net and its parts: the crib plus when it is yours and minus when
    it is another's (as it enters the net), the play in six-card only (the other forms do not
    value it: no "play 0.00")."""
    url, driver = site
    heading, rows, want = _keep_hint(driver, url, query)
    six = "six-card" in query
    assert want["state"]["crib"] == crib
    assert heading == ("The analyzer's best keeps, by points (expected points: net = hand + "
                       f"crib{' + play' if six else ''}, the crib signed as it counts for you):")
    sign = 1 if crib == "you" else -1
    for row, r in zip(rows, want["advice"], strict=True):
        tail = f": {r['net']:.2f} (hand {r['hand']:.2f}, crib {_signed(sign * r['crib'])}"
        tail += f", play {_signed(r['peg'])})" if six else ")"
        assert row.text.endswith(tail.replace("-", "\u2212"))
        assert ("play" in row.text) == six


# ------------------------------------------------------------------------ review and history


def test_the_review_and_the_history_of_a_finished_game(site, history_path):
    from analyzer.table.history import history_stats, read_games
    from analyzer.table.review import review_game
    from analyzer.web.game import replay_record

    url, driver = site
    open_game(driver, url, "seed=31&level=Casual&variant=five-card")
    assert play(driver)["ask"] == "over"
    moves = page_moves(driver)
    wait_for(lambda: "in your history" in one(driver, "#notice").text)
    record = replay_record("five-card", "baseline", 31, "cut", False, moves)
    games = read_games(history_path)
    assert (games["seed"] == 31).sum() == 1  # added once
    driver.refresh()  # a reload at the end does not add it again
    wait_for(lambda: "in your history" in one(driver, "#notice").text)
    assert (read_games(history_path)["seed"] == 31).sum() == 1
    # the review: each decision on its cards, as review_game has it
    one(driver, "#review-link").click()
    wait_for(lambda: data(driver, "reviewed"))
    review = review_game(record)
    rows = by(driver, "#rows .review-row")
    assert len(rows) == len(review.decisions)
    assert "not over" not in one(driver, "#summary").text
    for row, (_, want) in zip(rows, review.decisions.iterrows(), strict=True):
        assert row.get_attribute("data-kind") == want["kind"]
        if want["kind"] == "discard":
            done = [c.get_attribute("data-card") for c in row.find_elements(
                "css selector", ".done .card")]
            assert done == want["done"].split()
    # the history page: crib stats's figures
    driver.get(url + "/history")
    wait_for(lambda: data(driver, "loaded"))
    stats = history_stats(history_path)
    shown = {(r.get_attribute("data-variant"), r.get_attribute("data-label")):
             [td.text for td in r.find_elements("css selector", "td")][2:5]
             for r in by(driver, "#levels tbody tr")}
    for row in stats.levels.itertuples():
        assert shown[(row.variant, row.label)] == [str(row.games), str(row.won), str(row.lost)]
    assert ("five-card", "Casual") in shown
    assert str(stats.games) in one(driver, "#games-summary").text
    # the trainer's sittings: a line saying there are none yet, until there are
    from analyzer.table.history import read_trainer

    assert by(driver, "#sittings-none")[0].is_displayed() == read_trainer(history_path).empty
    # points a deal by phase, as crib stats has them
    phases = {(r.get_attribute("data-variant"), r.get_attribute("data-phase")):
              [td.text for td in r.find_elements("css selector", "td")][2:4]
              for r in by(driver, "#phases tbody tr")}
    counted = stats.per_deal[stats.per_deal["deals"] > 0]  # no whole deal: no row (0.00 shown)
    assert len(phases) == len(counted) > 0
    for row in counted.itertuples():
        want = [f"{x:.2f}".replace("-", "\u2212") for x in (row.you, row.computer)]
        assert phases[(row.variant, row.phase)] == want
    # the last games name their form, on a phone too (61-60 is a five-card score)
    game_id = int(games.loc[games["seed"] == 31, "id"].iloc[0])
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        driver.get(url + "/history")
        wait_for(lambda: data(driver, "loaded"))
        cells = by(driver, f'#games tr[data-id="{game_id}"] td')
        assert cells[1].is_displayed() and cells[1].text == "five-card"
        assert by(driver, "#games th")[1].is_displayed()
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.get(url + "/history")
    wait_for(lambda: data(driver, "loaded"))
    # an audit's: at 485 to 560 pixels the page scrolled sideways (the review column's hidden
    # head, placed absolutely, escaped its table's scroller: it is placed within it now)
    assert driver.execute_script(
        "const hidden = [...document.querySelectorAll('.scroll .visually-hidden')];"
        "return hidden.length > 0 && hidden.every((e) => e.offsetParent"
        " && e.offsetParent.closest('.scroll'))")
    for width in (440, 520, 560):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        try:
            assert driver.execute_script(
                "return document.documentElement.scrollWidth") <= width
        finally:
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    # the points muggins gave away, as crib stats says them (none played with it: no line)
    assert stats.muggins_given is None and not by(driver, "#muggins")[0].is_displayed()
    with sqlite3.connect(history_path) as conn:
        conn.execute("UPDATE games SET muggins_given = 3 WHERE seed = 31")
    try:
        driver.refresh()
        wait_for(lambda: data(driver, "loaded"))
        assert history_stats(history_path).muggins_given == 3
        assert one(driver, "#muggins").text == \
            "Muggins: your own counts gave the other side 3 points."
    finally:
        with sqlite3.connect(history_path) as conn:
            conn.execute("UPDATE games SET muggins_given = NULL WHERE seed = 31")
    # the game from the history's list, reviewed again: the same decisions, and back
    one(driver, f'#games tr[data-id="{game_id}"] a').click()
    wait_for(lambda: data(driver, "reviewed"))
    assert "game=" in driver.current_url
    assert len(by(driver, "#rows .review-row")) == len(review.decisions)
    assert one(driver, "#back").get_attribute("href").endswith("/history")
    # /review opened bare has no game: it says where reviews are, and points to the history
    driver.get(url + "/review")
    wait_for(lambda: data(driver, "reviewed") == "0")
    assert "No game to review here" in one(driver, "#summary").text
    assert by(driver, "#rows .review-row") == []
    assert one(driver, "#back").get_attribute("href").endswith("/history")
    # a game that is no number, said in the address's words (the API's parameter is its id)
    driver.get(url + "/review?game=abc")
    said = wait_for(lambda: [e.text for e in by(driver, "#other-error") if e.text])
    assert said == ["game: 'abc' is not a whole number"]
    # a game not in the history: the API's words as they are (an audit read "gameere is no
    # game 99999", the first two letters taken for the parameter's)
    driver.get(url + "/review?game=99999")
    said = wait_for(lambda: [e.text for e in by(driver, "#other-error") if e.text])
    assert said == ["there is no game 99999 in the history"]
    # a game not over: its finished deals are reviewed, and the page says the deal in progress
    # is not yet (an audit read "0 decisions" after a throw, and took the throw for forgotten)
    from analyzer.web.game import game_answer

    dealt = game_answer(variant="five-card", seed=31)["state"]
    throw = "-".join(dealt["hand"][:dealt["thrown"]])
    driver.get(url + f"/review?seed=31&variant=five-card&moves={throw}")
    wait_for(lambda: data(driver, "reviewed") == "0")
    assert "The game is not over: the deal in progress is reviewed once its show is counted." \
        in one(driver, "#summary").text


def test_the_review_says_a_count_too_high_was_corrected_not_right(site):
    # an audit's review: "you counted 9; it counts 6 right" (the game page had said "you peg
    # 6, not more"); muggins, seed 1: your hand of 6 counted 9, then deal 2 is dealt
    url, driver = site
    driver.get(url + "/review?seed=1&variant=six-card&level=Beginner&muggins=1"
               "&moves=4D-8C+2C+7H+5H+8H+9")
    wait_for(lambda: data(driver, "reviewed"))
    (count,) = [r for r in by(driver, "#rows .review-row") if r.get_attribute("data-kind") ==
                "count"]
    assert "you counted 9; it counts 6" in count.text
    verdict = count.find_element("css selector", ".verdict").text
    assert verdict == "too many: you pegged 6, nothing lost", verdict


@pytest.mark.parametrize(("query", "said"), [
    ("variant=five-card&first=you", ["The AI pegs 3 for last: in five-card the pone starts with "
                                     "three.", "The play is one count: when no one can lay, the "
                                     "cards left are not played."]),
    ("variant=three-player&first=0", ["You add the top card of the pack to the crib. Starter"]),
])
def test_the_log_says_the_rules_a_form_adds(site, query, said):
    # an audit: five-card's three for last and its single count, and three-player's card from
    # the pack, were in force and never said on the page (the terminal says them)
    url, driver = site
    open_game(driver, url, f"seed=9&level=Beginner&{query}")
    play(driver, stop=["lay"])
    wait_for(lambda: data(driver, "busy") == "0")
    log = " ".join(one(driver, "#log").text.split())
    for words in said:
        assert words in log, log


def test_a_move_the_server_never_answered_is_taken_back(site):
    # an audit's click with the server gone stayed in the address: the next click laid two
    # cards at once, and the first could not be taken back
    url, driver = site
    open_game(driver, url, "seed=5&level=Beginner&variant=three-player")
    play(driver, stop=["lay"])
    wait_for(lambda: data(driver, "ask") == "lay" and data(driver, "busy") == "0")
    before = page_moves(driver).split()
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
    try:
        one(driver, "#hand .card.pick").click()
        wait_for(lambda: data(driver, "busy") == "0"
                 and [e for e in by(driver, "#other-error") if e.text])
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {**offline, "offline": False})
    assert page_moves(driver).split() == before  # taken back: the server never answered it
    card = one(driver, "#hand .card.pick").get_attribute("data-card")
    one(driver, "#hand .card.pick").click()
    wait_for(lambda: data(driver, "busy") == "0" and page_moves(driver).split() != before)
    assert page_moves(driver).split() == [*before, card]
    # a new game says nothing of the game before: what its AIs did is not announced over it
    driver.execute_script("document.getElementById('setup').open = true")
    from selenium.webdriver.support.ui import Select

    Select(one(driver, "#variant")).select_by_value("six-card")
    seed = one(driver, "#seed")
    seed.clear()
    seed.send_keys("3\n")  # Enter starts it, as the button does (an audit's did nothing)
    wait_for(lambda: data(driver, "ask") == "throw" and data(driver, "busy") == "0"
             and "seed=3&" in driver.current_url)
    said = driver.execute_script("return document.getElementById('announce').textContent")
    assert "West" not in said and "East" not in said, said


@pytest.mark.slow
def test_a_game_the_locked_history_refuses_is_added_once_the_lock_goes(site, history_path):
    # another program holds the history (an exclusive transaction) as the game ends: the server
    # answers 503 after its lock timeout, the page says so and tries again, and the game is
    # added once the lock goes (an audit's game stayed out of the history until a reload)
    import sqlite3

    from analyzer.table.history import read_games

    url, driver = site
    open_game(driver, url, "seed=43&level=Beginner&variant=five-card")
    holder = sqlite3.connect(history_path, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        assert play(driver)["ask"] == "over"
        wait_for(lambda: "tried again in" in one(driver, "#other-error").text)
        assert "not in your history yet" in one(driver, "#other-error").text
    finally:
        holder.execute("COMMIT")
        holder.close()
    wait_for(lambda: "in your history" in one(driver, "#notice").text)
    assert not [e for e in by(driver, "#other-error") if e.text]
    assert (read_games(history_path)["seed"] == 43).sum() == 1


@pytest.mark.slow
def test_ten_trainer_deals_are_kept_after_a_reload(site, history_path):
    from analyzer import keep
    from analyzer.table.history import read_trainer
    from analyzer.web import trainer

    url, driver = site
    driver.get(url + "/trainer?seed=41")
    driver.execute_script("localStorage.removeItem('crib-trainer-sitting')")
    driver.get(url + "/trainer?seed=41")
    lost = 0.0
    for _ in range(10):
        cards = wait_for(lambda: by(driver, "#deal-cards .card"))
        k = int(one(driver, "#deal-title").text.split()[1].rstrip(":")) - 1  # said from 1
        six, dealer = trainer.deal(41, k)
        df = keep(six, dealer=dealer)
        throw = df["discard"].iloc[k % 4].split()
        for c in cards:
            if c.get_attribute("data-card") in throw:
                c.click()
                assert c.get_attribute("aria-pressed") == "true"
        n = one(driver, "#record-n").text
        one(driver, "#throw").click()
        wait_for(lambda n=n: one(driver, "#record-n").text != n)
        mine = float(df.loc[df["discard"] == " ".join(throw), "net"].iloc[0])
        lost += max(0.0, float(df["net"].max()) - mine) if (df["net"] > mine + 1e-9).any() else 0
        title = one(driver, "#deal-title").text
        one(driver, "#next").click()
        wait_for(lambda t=title: one(driver, "#deal-title").text != t)
    sitting = driver.execute_script("return localStorage.getItem('crib-trainer-sitting')")
    assert len(read_trainer(history_path, sitting=sitting)) == 10
    driver.refresh()
    wait_for(lambda: one(driver, "#record-n").text == "10")
    assert float(one(driver, "#record-lost").text.replace("\u2212", "-")) == pytest.approx(
        lost, abs=0.001)
    assert len(by(driver, "#spark rect")) == 10
    driver.get(url + "/history")
    wait_for(lambda: data(driver, "loaded"))
    row = [r for r in by(driver, "#sittings tbody tr")
           if r.get_attribute("data-sitting") == sitting]
    assert row and row[0].find_elements("css selector", "td")[1].text == "10"
    assert not by(driver, "#sittings-none")[0].is_displayed()


# Reviewed games for the trend's chart: one game's record, stripped to what the history reads,
# and what each review lost (discards, play), oldest first: more lost early than late.
_TREND_GAME = {"seats": ["you", "ev+greedy"], "level": "Club", "winner": 0, "scores": [121, 95],
               "skunk": 0, "first_dealer": 0,
               "deals": [{"dealer": 0, "heels": 0, "plays": [[1, "5H", 2]], "show": [8, 12, 5]}]}
_TREND_LOSSES = [(3.5, 4.0), (2.25, 5.5), (4.0, 1.5), (0.5, 2.0), (1.75, 3.25), (0.0, 1.0),
                 (2.5, 0.75), (1.0, 0.5)]


def test_the_trend_chart_has_an_axis_of_points_each_game_and_the_fitted_line(site, tmp_path):
    # an audit's chart had bars only: no scale, no game numbers, the summary's slope not drawn
    from types import SimpleNamespace

    from analyzer.table.history import add_game, history_stats
    from analyzer.web.app import create_app
    from analyzer.web.serve import BackgroundServer

    path = tmp_path / "history.sqlite3"
    for i, (discard, play_lost) in enumerate(_TREND_LOSSES):
        add_game(_TREND_GAME, path, seed=500 + i, played_at=f"2025-03-{i + 1:02d}T10:00:00+00:00",
                 review=SimpleNamespace(discard_lost=discard, play_lost=play_lost))
    stats = history_stats(path)
    lost = stats.losses["lost"].tolist()
    assert lost == [d + p for d, p in _TREND_LOSSES] and stats.trend["slope"] < 0
    _, driver = site
    with BackgroundServer(create_app(history=path)) as url:
        for width in (390, 1200):
            driver.set_window_size(width, 900)
            driver.get(url + "/history")
            wait_for(lambda: data(driver, "loaded"))
            chart = one(driver, "#trend-chart")
            bars = chart.find_elements("css selector", "rect")
            assert [float(b.get_attribute("data-lost")) for b in bars] == lost
            # each bar's height in proportion to its points, on the axis's scale
            heights = [float(b.get_attribute("height")) for b in bars]
            assert all(h == pytest.approx(heights[0] * x / lost[0]) for h, x in zip(
                heights, lost, strict=True))
            labels = [t.text for t in chart.find_elements("css selector", "text")]
            assert labels[:4] == ["0", "5", "10", "points lost"]  # 9.5 at most: an axis to 10
            assert labels[-2:] == ["game 1", f"game {len(lost)}"]
            # the axis's 10 as high as a bar of 10 points would be
            base, top = (float(e.get_attribute("y1")) for e in
                         chart.find_elements("css selector", "line")[0:3:2])
            assert heights[0] == pytest.approx((base - top) * lost[0] / 10)
            assert "game 2 (03-02 10:00): 7.75 points lost" in driver.execute_script(
                "return arguments[0].textContent", bars[1])
            # the least-squares line from the first bar's middle to the last's, falling
            line = one(driver, "#trend-line")
            y1, y2 = (float(line.get_attribute(k)) for k in ("y1", "y2"))
            mean, n = sum(lost) / len(lost), len(lost)
            for y, i in ((y1, 0), (y2, n - 1)):
                fitted = mean + stats.trend["slope"] * (i - (n - 1) / 2)
                assert base - y == pytest.approx((base - top) * fitted / 10)
            assert y2 > y1
            # every label and bar inside the chart's box, drawn in the page's pixels
            outside = driver.execute_script("""
                const svg = arguments[0], box = svg.viewBox.baseVal;
                const size = svg.getBoundingClientRect();
                return [box.width - size.width, ...[...svg.querySelectorAll('text, rect')]
                  .map(e => e.getBBox()).filter(b => b.x < -0.5 || b.y < -0.5
                    || b.x + b.width > box.width + 0.5 || b.y + b.height > box.height + 0.5)
                  .map(b => [b.x, b.y, b.width, b.height])];""", chart)
            assert abs(outside[0]) <= 1 and not outside[1:], outside


# ------------------------------------------------------------------------ defect 9 and phones


def _contrast(fg: str, bg: str) -> float:
    def lum(text):
        parts = [float(x) for x in text[text.index("(") + 1:text.index(")")].split(",")[:3]]
        lin = [(c / 255 / 12.92) if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4
               for c in parts]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    a, b = sorted((lum(fg), lum(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def test_what_a_screen_reader_and_a_keyboard_need(site):
    from analyzer.core.counting import say_peg

    url, driver = site
    open_game(driver, url, "seed=5&level=Beginner&variant=six-card")
    cards = by(driver, "#hand .card.pick")
    first = cards[0].get_attribute("data-card")
    names = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
             "7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen",
             "K": "king"}
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    assert cards[0].get_attribute("aria-label") == f"{names[first[0]]} of {suits[first[1]]}"
    assert cards[0].get_attribute("aria-pressed") == "false"
    cards[0].click()
    assert cards[0].get_attribute("aria-pressed") == "true"
    cards[0].click()
    assert cards[0].get_attribute("aria-pressed") == "false"
    # the computer's moves are announced in a live region
    live = by(driver, "#announce")[0]
    assert live.get_attribute("aria-live") == "polite"
    play(driver, limit=2)
    moves = page_moves(driver)
    _, events = engine_game("six-card", "hand+random", 5, moves)
    mine = max(i for i, e in enumerate(events) if e.get("seat") == 0
               and e["kind"] in ("lay", "discard"))
    laid = [e for e in events[mine:] if e["kind"] == "lay" and e["seat"] == 1]
    text = by(driver, "#announce")[0].get_attribute("textContent")
    assert laid  # the AI answered the card laid
    for e in laid:
        card = format_card(e["card"])
        said = say_peg(e["count"], e["items"])
        assert f"The AI lays {names[card[0]]} of {suits[card[1]]}: {said}" in text
    # the counter's combination rows, from the keyboard: Tab to one, Enter lights its cards
    from selenium.webdriver.common.keys import Keys

    driver.get(url + "/count?hand=5H+5C+5S+JD&starter=5D")
    rows = wait_for(lambda: by(driver, "#items tbody tr"))
    assert all(r.get_attribute("tabindex") == "0" for r in rows)
    driver.execute_script("arguments[0].focus()", rows[-1])
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    assert [e.get_attribute("data-card") for e in by(driver, "#shown .card.hl")] == ["JD"]
    assert rows[-1].get_attribute("aria-pressed") == "true"
    # "Download the record": its words against its colour at least 4.5 to 1
    open_game(driver, url, "seed=11&level=Beginner&variant=five-card")
    play(driver)
    link = one(driver, "#download")
    colours = driver.execute_script(
        "const s = getComputedStyle(arguments[0]); return [s.color, s.backgroundColor];", link)
    assert _contrast(*colours) >= 4.5, colours


PHONE_PAGES = ["/play?seed=7&level=Club&variant=six-card",
               "/play?seed=3&level=Beginner&variant=three-player",
               "/count?hand=5H+5C+5S+JD&starter=5D", "/keep", "/trainer?seed=7", "/history"]


@pytest.mark.parametrize("path", PHONE_PAGES)
def test_390_pixels_nothing_wider_than_the_screen_every_button_40(site, path):
    url, driver = site
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        driver.get(url + path)
        if path.startswith("/play"):
            wait_for(lambda: data(driver, "busy") == "0" and data(driver, "ask"))
            # the board of every side and the hand on the first screen: no scrolling to play
            hand = driver.execute_script(
                "return document.getElementById('hand').getBoundingClientRect().bottom")
            assert hand <= 844, hand
            # the board's names and scores at a 12-pixel font or more (their boxes 16 pixels
            # high), not shrunk with its holes (their boxes were 13 pixels high, a 10-pixel font)
            heights = driver.execute_script(
                "return [...document.querySelectorAll('.side-name, .side-score')]"
                ".map(e => e.getBoundingClientRect().height)")
            assert heights and min(heights) >= 16, heights
            play(driver, stop=["show"])  # a show on the cards, the page at its fullest
        elif path.startswith("/history"):
            wait_for(lambda: data(driver, "loaded"))
        else:
            wait_for(lambda: by(driver, "#picker button, #deal-cards .card"))
        sizes = driver.execute_script("""
            const out = [];
            for (const e of document.querySelectorAll('button, a.button, [role=button]')) {
              const r = e.getBoundingClientRect();
              if (!e.offsetParent) continue;
              out.push([e.id || e.dataset.card || e.textContent.trim().slice(0, 20),
                        r.width, r.height]);
            }
            return out;""")
        assert sizes or path == "/history"  # (the history has no button)
        small = [s for s in sizes if s[1] < 40 - 0.5 or s[2] < 40 - 0.5]
        assert not small, small
        wide = driver.execute_script("""
            return [...document.querySelectorAll('body *')].filter(e => e.offsetParent)
              .map(e => [e.tagName + '#' + e.id, e.getBoundingClientRect().right])
              .filter(([, right]) => right > 390.5).slice(0, 5);""")
        assert not wide, wide
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
        # no table cut off in its scrolling box (a column read as another number)
        overflow = driver.execute_script(
            "return [...document.querySelectorAll('.scroll')].filter(e => e.offsetParent)"
            ".map(e => [e.firstElementChild.id, e.scrollWidth - e.clientWidth])")
        assert all(extra <= 0 for _, extra in overflow), overflow
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_records_download_names_the_level(site):
    # the record of a game at a level, as crib replay reads it
    from analyzer.sim.records import validate_record

    url, driver = site
    open_game(driver, url, "seed=11&level=Beginner&variant=five-card")
    play(driver)
    link = one(driver, "#download")
    body = driver.execute_async_script(
        "const done = arguments[1]; fetch(arguments[0]).then(r => r.text()).then(done)",
        link.get_attribute("href"))
    record = json.loads(body)
    validate_record(record)
    assert record["level"] == "Beginner" and record["seats"][0] == "you"
