"""The pages in a real browser: Debian's headless Chromium, driven by Selenium, against the
application served on a free loopback port. Skipped, with the reason, where there is no browser
(``.ci/run`` installs one when it can)."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")

from analyzer.web.browser import missing  # noqa: E402

REASON = missing()
# Both browser modules are one unit of work for the test workers (conftest.py's WORK_UNITS).
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"no browser to drive: {REASON}")

from analyzer import keep  # noqa: E402
from analyzer.core.cards import format_card  # noqa: E402
from analyzer.web import browser, trainer  # noqa: E402
from analyzer.web.browser import chromium  # noqa: E402

HAND = "5H 5S 6D JC QS KH"
HANG_GUARD = 1800  # seconds: a page's first answer may wait on a cold compile on a slow machine


def wait_for(condition, timeout: float = HANG_GUARD):
    """:func:`analyzer.web.browser.wait_for` with only a hang guard for a timeout."""
    return browser.wait_for(condition, timeout=timeout)


@pytest.fixture(scope="module")
def served_app(tmp_path_factory):
    from analyzer.web.app import create_app

    return create_app(warm=True, history=tmp_path_factory.mktemp("history") / "h.sqlite3")


@pytest.fixture(scope="module")
def site(served_app):
    from analyzer.web.serve import BackgroundServer

    with BackgroundServer(served_app) as url, chromium() as driver:
        yield url, driver


def by(driver, css):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, css)


def one(driver, css):
    return wait_for(lambda: [e for e in by(driver, css) if e.is_displayed()])[0]


def click_card(driver, card):
    one(driver, f'#picker button[data-card="{card}"]').click()


def test_count_the_29_hand_by_clicking(site):
    url, driver = site
    driver.get(url + "/count")
    for card in ("5H", "5C", "5S", "JD", "5D"):
        click_card(driver, card)
    total = one(driver, "#total")
    wait_for(lambda: total.text == "29")
    said = one(driver, "#said").text
    assert said.startswith("fifteen two, fifteen four,") and said.endswith("nob makes 29")
    rows = by(driver, "#items tbody tr")
    kinds = [r.find_elements("css selector", "td")[0].text for r in rows]
    assert kinds == ["fifteen"] * 8 + ["pair"] * 6 + ["nobs"]
    # the starter is the last card clicked, drawn apart; the address holds the hand
    assert one(driver, "#shown .card.starter").get_attribute("data-card") == "5D"
    assert "hand=5H+5C+5S+JD" in driver.current_url and "starter=5D" in driver.current_url
    # a combination lights its cards up on the hand: the nobs row, the jack alone
    rows[-1].click()
    lit = [e.get_attribute("data-card") for e in by(driver, "#shown .card.hl")]
    assert lit == ["JD"]
    rows[0].click()  # the first fifteen: 5H and JD
    lit = sorted(e.get_attribute("data-card") for e in by(driver, "#shown .card.hl"))
    assert lit == ["5H", "JD"]


def test_count_a_five_card_hand_of_three_cards(site):
    # five-card's hand is three cards and the starter (an audit found no way to count one on
    # the page); its crib is four, as in the other forms
    from selenium.webdriver.support.ui import Select

    from analyzer import count_hand

    url, driver = site
    driver.get(url + "/count")
    Select(one(driver, "#variant")).select_by_value("five-card")
    for card in ("5H", "5S", "6D", "JC"):  # the fourth card clicked is the starter
        click_card(driver, card)
    want = count_hand("5H 5S 6D", "JC", variant="five-card")
    hand_total = str(sum(i.points for i in want))
    wait_for(lambda: one(driver, "#total").text == hand_total)
    assert len(by(driver, "#items tbody tr")) == len(want)
    assert one(driver, "#shown .card.starter").get_attribute("data-card") == "JC"
    assert "variant=five-card" in driver.current_url
    # as a crib it is four cards: the page asks for the fourth, then counts a five-card crib
    one(driver, "#crib").click()
    click_card(driver, "2C")  # the crib's fourth card; the starter stays
    want = count_hand("5H 5S 6D 2C", "JC", crib=True, variant="five-card")
    wait_for(lambda: one(driver, "#total").text == str(sum(i.points for i in want))
             and "in the crib" in one(driver, "#what").text)
    # the address opens the same count
    driver.get(url + "/count?hand=5H+5S+6D&starter=JC&variant=five-card")
    wait_for(lambda: one(driver, "#total").text == hand_total)
    assert Select(one(driver, "#variant")).first_selected_option.get_attribute("value") == \
        "five-card"


def test_a_typo_is_shown_next_to_the_input(site):
    url, driver = site
    driver.get(url + "/count")
    hand = one(driver, "#hand")
    hand.send_keys("5H 5C 5S JX")
    one(driver, "#starter").send_keys("5D\n")
    error = one(driver, "#hand-error")
    assert "unknown suit in 'JX'" in error.text
    assert hand.get_attribute("aria-invalid") == "true"


def test_an_address_the_counter_cannot_show_is_said_and_its_cards_checked_at_once(site):
    """A bad card in the address is said at once (it waited for Count), an unknown form or a
    crib neither yes nor no is said and replaced by the default (they fell back silently), and
    the notice goes once the person changes the hand."""
    from selenium.webdriver.common.keys import Keys

    url, driver = site
    driver.get(url + "/count?hand=ZZ&starter=5D&variant=bogus&crib=maybe")
    wait_for(lambda: "'ZZ'" in one(driver, "#hand-error").text)
    notice = one(driver, "#notice").text
    assert "no form 'bogus' here: six-card instead" in notice
    assert "crib 'maybe' is not yes or no: a hand" in notice
    assert by(driver, "#variant")[0].get_attribute("value") == "six-card"
    assert "variant=" not in driver.current_url and "crib=" not in driver.current_url
    hand = one(driver, "#hand")
    hand.send_keys(Keys.CONTROL, "a")
    hand.send_keys("5H 5C 5S JD")
    wait_for(lambda: one(driver, "#total").text == "29")
    assert not by(driver, "#notice")[0].is_displayed()
    # a good address says nothing, and counts as before
    driver.get(url + "/count?hand=4H+5H+6H&starter=5S&variant=Five-Card")
    wait_for(lambda: one(driver, "#total").text == "15")
    assert not by(driver, "#notice")[0].is_displayed()


def test_an_address_the_keep_page_cannot_show_is_said_and_its_hand_checked_at_once(site):
    url, driver = site
    driver.get(url + "/keep?hand=5H+5S+ZZ&role=banker&crib=psychic&pegging=perhaps")
    wait_for(lambda: "'ZZ'" in one(driver, "#hand-error").text)
    notice = one(driver, "#notice").text
    for said in ("no role 'banker' here (dealer or pone): dealer instead",
                 "no crib values 'psychic' here (table, uniform or weighted)",
                 "pegging 'perhaps' is not yes or no: counted"):
        assert said in notice
    assert by(driver, "#dealer")[0].is_selected() and by(driver, "#pegging")[0].is_selected()
    driver.get(url + "/keep?hand=5H+5S+6D+JC+KH&variant=five-card&crib=weighted")
    wait_for(lambda: len(by(driver, "#result tbody tr")) == 10)
    assert "the weighted crib is six-card's" in one(driver, "#notice").text
    driver.get(url + "/keep?hand=5H+5S+6D+JC+KH&variant=three-player&position=third")
    wait_for(lambda: len(by(driver, "#result tbody tr")) == 5)
    assert "no place 'third' here: dealer instead" in one(driver, "#notice").text
    driver.get(url + "/keep?hand=" + HAND.replace(" ", "+") + "&role=Pone&variant=Six-Card")
    wait_for(lambda: len(by(driver, "#result tbody tr")) == 15)
    assert by(driver, "#pone")[0].is_selected() and not by(driver, "#notice")[0].is_displayed()
    for said, counted in (("", True), ("Off", False), ("yes", True)):
        driver.get(url + "/keep?hand=" + HAND.replace(" ", "+") + "&pegging=" + said)
        wait_for(lambda: len(by(driver, "#result tbody tr")) == 15)
        assert by(driver, "#pegging")[0].is_selected() == counted, said
        assert not by(driver, "#notice")[0].is_displayed()
    # an audit's: a role the place contradicts, and a place in a game of two, were dropped
    # silently; a blank role, crib or form was "no role '' here" where a blank pegging was not
    five = "&hand=5H+5S+6D+JC+KH"
    for address, said, dealer in (
            ("variant=four-player&role=pone&position=second",
             "the role pone and the place second disagree: dealer, as the place is", True),
            ("variant=three-player&role=dealer&position=first",
             "the role dealer and the place first disagree: pone, as the place is", False),
            ("variant=five-card&position=third",
             "a place 'third' in five-card, a game of two: left out", True)):
        driver.get(url + "/keep?" + address + five)
        wait_for(lambda: len(by(driver, "#result tbody tr")) in (5, 10))
        assert said in one(driver, "#notice").text, address
        assert by(driver, "#dealer")[0].is_selected() == dealer, address
    driver.get(url + "/keep?variant=four-player&role=dealer&position=second" + five)
    wait_for(lambda: len(by(driver, "#result tbody tr")) == 5)
    assert not by(driver, "#notice")[0].is_displayed()
    assert by(driver, "#position")[0].get_attribute("value") == "second"
    driver.get(url + "/keep?hand=" + HAND.replace(" ", "+") + "&role=&crib=+&variant=&position=")
    wait_for(lambda: len(by(driver, "#result tbody tr")) == 15)
    assert by(driver, "#dealer")[0].is_selected() and not by(driver, "#notice")[0].is_displayed()


def test_a_blank_in_an_address_is_the_default_on_every_page(site):
    """Every page reads a blank value (``role=``, what a form sends for an empty box) as if it
    were not given: the page's default, said nowhere; before, some were "no form '' here"."""
    url, driver = site
    driver.get(url + "/count?hand=5H+5C+5S+JD&starter=5D&variant=&crib=")
    wait_for(lambda: one(driver, "#total").text == "29")
    assert not by(driver, "#notice")[0].is_displayed()
    driver.get(url + "/play?seed=5&level=&variant=+&first=&muggins=&opponent=")
    wait_for(lambda: ask(driver) == "throw")
    assert not by(driver, "#notice")[0].is_displayed()
    assert "Against Expert (best)." in one(driver, "#status").text
    driver.get(url + "/trainer?seed=5&role=&close=")
    wait_for(lambda: len(by(driver, "#deal-cards .card")) == 6)
    assert not by(driver, "#notice")[0].is_displayed() and not by(driver, "#seed-error")[0].text
    assert by(driver, "#role")[0].get_attribute("value") == "any"


def test_the_trainer_reads_its_address_in_any_case_and_says_what_it_cannot(site):
    # an audit's: role=Pone dealt either role, and role=banker or close=maybe said nothing
    url, driver = site
    driver.get(url + "/trainer?seed=5&role=Pone&close=YES")
    wait_for(lambda: len(by(driver, "#deal-cards .card")) == 6)
    assert by(driver, "#role")[0].get_attribute("value") == "pone"
    assert by(driver, "#close")[0].is_selected()
    assert not by(driver, "#notice")[0].is_displayed()
    assert "you are the pone" in one(driver, "#deal-title").text
    driver.get(url + "/trainer?seed=5&role=banker&close=maybe")
    wait_for(lambda: len(by(driver, "#deal-cards .card")) == 6)
    notice = one(driver, "#notice").text
    assert "no role 'banker' here (any, dealer or pone): either instead" in notice
    assert "close 'maybe' is not yes or no: every deal" in notice
    assert by(driver, "#role")[0].get_attribute("value") == "any"
    assert not by(driver, "#close")[0].is_selected()
    select = by(driver, "#role")[0]  # a change of the person's: the notice goes
    driver.execute_script("arguments[0].value = 'dealer'; arguments[0].dispatchEvent("
                          "new Event('change'))", select)
    wait_for(lambda: not by(driver, "#notice")[0].is_displayed())
    wait_for(lambda: "you are the dealer" in one(driver, "#deal-title").text)


@pytest.mark.parametrize("path, typed, words", [("/count", "5H 5C 5S", "expected 4 cards"),
                                                 ("/keep", "5H 5S 6D", "expected 6 cards")])
def test_enter_right_after_typing_keeps_the_error(site, path, typed, words):
    # Enter within the typing's 300 ms delay: the delayed call came after and wiped the error
    url, driver = site
    driver.get(url + path)
    one(driver, "#hand").send_keys(typed + "\n")
    error = one(driver, "#hand-error")  # (the counter's starter is not given: the hand first)
    assert words in error.text
    time.sleep(0.6)  # past the typing's delay (the page's own timer, not a speed)
    assert words in one(driver, "#hand-error").text


def test_keeps_that_tie_share_a_rank(site):
    # 5H 5S 6D JC QS KH as dealer: the two best keeps tie; they were numbered 1 and 2
    url, driver = site
    driver.get(url + "/keep?hand=5H+5S+6D+JC+QS+KH&role=dealer")
    wait_for(lambda: len(by(driver, "#keeps tbody tr")) == 15)
    df = keep(HAND, dealer=True)
    net = df["net"].tolist()
    want = [str(1 + sum(y > x + 1e-9 for y in net)) for x in net]
    shown = [td.get_attribute("textContent") for td in by(driver, '#keeps td[data-col="rank"]')]
    assert shown == want and shown[:3] == ["1", "1", "3"]
    assert len(by(driver, "#keeps tr.best")) == 2


def test_the_trainers_verdict_and_table_give_one_rank(site):
    # seed 7's first dealer deal (k = 1): its 4th and 5th keeps tie; throwing the 5th, the
    # verdict said "Rank 4 of 15" and the table marked the keep "5"
    url, driver = site
    driver.get(url + "/trainer?seed=7&role=dealer")
    cards = wait_for(lambda: by(driver, "#deal-cards .card"))
    six, dealer = trainer.deal(7, 1)
    assert dealer and [c.get_attribute("data-card") for c in cards] == [format_card(c) for c in six]
    throw = keep(six, dealer=True)["discard"].iloc[4].split()
    for c in cards:
        if c.get_attribute("data-card") in throw:
            c.click()
    one(driver, "#throw").click()
    verdict = one(driver, "#grade .bad").text
    assert verdict.startswith("Rank 4 of 15")
    mine = one(driver, "#rows tr.mine td").get_attribute("textContent")
    assert mine == "4 \u2190"


@pytest.mark.parametrize("role", ["pone", "dealer"])
def test_the_trainers_table_signs_the_crib_as_it_enters_the_net(site, role):
    # the crib was shown unsigned and subtracted as pone; the caption says what the net adds
    import re

    url, driver = site
    driver.get(url + f"/trainer?seed=23&role={role}")
    cards = wait_for(lambda: by(driver, "#deal-cards .card"))
    k = int(re.match(r"Deal (\d+) of seed 23: you are the " + role,
                     one(driver, "#deal-title").text).group(1)) - 1  # said from 1
    for c in cards[:2]:
        c.click()
    one(driver, "#throw").click()
    one(driver, "#rows tbody tr")
    want = trainer.grade(23, k, " ".join(c.get_attribute("data-card") for c in cards[:2]))
    sign = 1 if role == "dealer" else -1
    for tr, r in zip(by(driver, "#rows tbody tr"), want["rows"], strict=True):
        cells = [td.get_attribute("textContent").replace("\u2212", "-")
                 for td in tr.find_elements("css selector", "td")]
        hand, crib, peg, net = (float(x) for x in cells[3:])
        assert cells[4] == f"{sign * r['crib_mean']:+.3f}"
        assert hand + crib + peg == pytest.approx(net, abs=0.0015)  # the net is their sum
    caption = by(driver, "#rows caption")
    assert caption and caption[0].is_displayed()
    assert "net = hand + crib + peg" in caption[0].text
    assert "minus the opponent's as pone" in caption[0].text


def test_rank_a_keep_and_check_it_against_keep(site):
    url, driver = site
    driver.get(url + "/keep")
    for card in HAND.split():
        click_card(driver, card)
    one(driver, "#pone").click()
    wait_for(lambda: "role=pone" in driver.current_url and len(by(driver, "#keeps tbody tr")) == 15)
    df = keep(HAND, dealer=False)
    wait_for(lambda: by(driver, "#keeps tbody tr")[0].get_attribute("data-keep") == df["keep"][0])
    rows = by(driver, "#keeps tbody tr")
    for row, (_, want) in zip(rows, df.iterrows(), strict=True):
        cell = {td.get_attribute("data-col"): td.get_attribute("textContent").replace(
            "\u2212", "-") for td in row.find_elements("css selector", "td")}
        assert row.get_attribute("data-keep") == want["keep"]
        assert float(cell["hand_mean"]) == round(float(want["hand_mean"]), 3)
        assert int(cell["hand_min"]) == want["hand_min"]
        assert int(cell["hand_max"]) == want["hand_max"]
        assert float(cell["crib_mean"]) == round(float(want["crib_mean"]), 3)
        assert float(cell["peg_mean"]) == round(float(want["peg_mean"]), 3)
        assert float(cell["net"]) == round(float(want["net"]), 3)
    assert "best" in rows[0].get_attribute("class")
    # the chart, drawn in the page: a row per keep, in the table's order, each net written
    bars = wait_for(lambda: len(by(driver, "#chart-box g.row")) == 30  # two panels
                    and by(driver, "#chart-box g.row"))
    assert [g.get_attribute("data-keep") for g in bars[:15]] == df["keep"].tolist()
    assert [g.find_element("css selector", "text.val").get_attribute("textContent").replace(
        "\u2212", "-") for g in bars[:15]] == [f"{x:.2f}" for x in df["net"]]
    # the address holds the hand: opened afresh, it shows the same ranking
    shared = driver.current_url
    assert "hand=5H+5S+6D+JC+QS+KH" in shared
    driver.get(url + "/count")
    driver.get(shared)
    wait_for(lambda: len(by(driver, "#keeps tbody tr")) == 15)
    assert [r.get_attribute("data-keep") for r in by(driver, "#keeps tbody tr")] == \
        df["keep"].tolist()


def test_keep_to_win_in_four_player_by_side_and_place(site):
    # the score-aware view was six-card's only: the form, the side and the place are chosen on
    # the page, and the P(win) it shows is keep_to_win's for them
    from selenium.webdriver.support.ui import Select

    from analyzer import keep_to_win

    url, driver = site
    driver.get(url + "/keep")
    Select(one(driver, "#variant")).select_by_value("four-player")
    assert one(driver, "#hand-label").text == "Five cards"
    for card in "5H 5S 6D JC KH".split():
        click_card(driver, card)
    click_card(driver, "QS")  # a sixth: refused in a form dealt five
    assert one(driver, "#pick-note").text.startswith("Five cards are chosen")
    Select(one(driver, "#position")).select_by_value("third")  # the other side deals
    assert by(driver, "#pone")[0].is_selected()
    one(driver, "#me").send_keys("104")
    one(driver, "#opp").send_keys("110\n")
    wait_for(lambda: len(by(driver, "#wins tbody tr")) == 5)
    df = keep_to_win("5H 5S 6D JC KH", False, (104, 110), variant="four-player",
                     position="third")
    rows = by(driver, "#wins tbody tr")
    assert [r.get_attribute("data-keep") for r in rows] == df["keep"].tolist()
    shown = [float(r.find_element("css selector", 'td[data-col="p_win"]').text) for r in rows]
    assert shown == [round(float(p), 4) for p in df["p_win"]]
    chosen = by(driver, "#wins tr.win")[0].get_attribute("data-keep")
    assert chosen == df.attrs["win_keep"]
    assert "sit third from the dealer" in one(driver, "#win-basis").text
    for part in ("variant=four-player", "position=third", "role=pone", "me=104", "opp=110"):
        assert part in driver.current_url, part
    # no pegging column outside six-card; the place follows the side and the side the place
    assert not any(e.is_displayed() for e in by(driver, "#keeps .peg"))
    one(driver, "#dealer").click()
    wait_for(lambda: "position=dealer" in driver.current_url)
    Select(one(driver, "#position")).select_by_value("first")
    wait_for(lambda: by(driver, "#pone")[0].is_selected() and "position=first" in
             driver.current_url)


def test_keep_to_win_in_five_card_and_three_player(site):
    from selenium.webdriver.support.ui import Select

    from analyzer import keep_to_win

    url, driver = site
    driver.get(url + "/keep?variant=five-card&hand=9H+9S+KD+2C+AS&role=pone&me=59&opp=41")
    wait_for(lambda: len(by(driver, "#wins tbody tr")) == 10)
    df = keep_to_win("9H 9S KD 2C AS", False, (59, 41), variant="five-card")
    assert [r.get_attribute("data-keep") for r in by(driver, "#wins tbody tr")] == \
        df["keep"].tolist()
    assert by(driver, "#wins tr.win")[0].get_attribute("data-keep") == df.attrs["win_keep"]
    assert one(driver, "#me").get_attribute("max") == "60"
    me = one(driver, "#me")
    me.clear()
    me.send_keys("61\n")  # past five-card's 60: the page says so in its words
    wait_for(lambda: one(driver, "#me-error").text ==
             "Your score is a whole number of points, 0 to 60.")
    # three-player: three scores (yours, on your left, on your right) and your place; until
    # the third is given the page asks for it, in its words
    Select(one(driver, "#variant")).select_by_value("three-player")
    assert one(driver, "#opp-label").text == "on your left"
    # two others at the table: not dealing, the crib is one of theirs, not "the opponent's"
    assert one(driver, "#pone-label").text == "not the dealer (another player's crib)"
    assert "minus (the dealer's)" in one(driver, "#help").text
    me = one(driver, "#me")
    me.clear()
    me.send_keys("59\n")
    wait_for(lambda: one(driver, "#third-error").text ==
             "The score on your right too, for the chance to win (or none).")
    assert len(by(driver, "#keeps tbody tr")) == 5
    assert by(driver, '#position option[value="third"]')[0].get_property("disabled")
    Select(one(driver, "#position")).select_by_value("second")
    one(driver, "#third").send_keys("100\n")
    wait_for(lambda: len(by(driver, "#wins tbody tr")) == 5)
    df = keep_to_win("9H 9S KD 2C AS", False, (59, 41, 100), variant="three-player",
                     position="second")
    rows = by(driver, "#wins tbody tr")
    assert [r.get_attribute("data-keep") for r in rows] == df["keep"].tolist()
    shown = [float(r.find_element("css selector", 'td[data-col="p_win"]').text) for r in rows]
    assert shown == [round(float(p), 4) for p in df["p_win"]]
    assert "on your right 100" in one(driver, "#win-basis").text
    for part in ("variant=three-player", "position=second", "third=100", "me=59", "opp=41"):
        assert part in driver.current_url, part


def test_answer_three_trainer_deals(site):
    url, driver = site
    driver.get(url + "/trainer?seed=5&role=pone")
    one(driver, "#new-sitting").click()  # the record of this sitting only
    lost = 0.0
    best = 0
    for round_ in range(3):
        cards = wait_for(lambda: by(driver, "#deal-cards .card"))
        title = one(driver, "#deal-title").text
        k = int(title.split()[1].rstrip(":")) - 1  # said from 1
        six, dealer = trainer.deal(5, k)
        assert not dealer and "you are the pone" in title  # the role filter
        assert [c.get_attribute("data-card") for c in cards] == [format_card(c) for c in six]
        df = keep(six, dealer=False)
        # throw the best discard once, then others
        throw = df["discard"].iloc[0 if round_ == 0 else 3 * round_].split()
        for c in cards:
            if c.get_attribute("data-card") in throw:
                c.click()
        one(driver, "#throw").click()
        grade = one(driver, "#grade")
        mine = float(df.loc[df["discard"] == " ".join(throw), "net"].iloc[0])
        rank = 1 + int((df["net"] > mine + 1e-9).sum())
        assert int(grade.get_attribute("data-rank")) == rank
        assert float(grade.get_attribute("data-lost")) == pytest.approx(
            0.0 if rank == 1 else float(df["net"].iloc[0]) - mine, abs=1e-9)
        lost += float(grade.get_attribute("data-lost"))
        best += rank == 1
        assert one(driver, "#record-n").text == str(round_ + 1)
        one(driver, "#next").click()
        wait_for(lambda t=title: one(driver, "#deal-title").text != t)
    assert one(driver, "#record-best").text == str(best) and best >= 1
    assert float(one(driver, "#record-lost").text.replace("\u2212", "-")) == pytest.approx(
        lost, abs=0.001)
    assert len(by(driver, "#spark rect")) == 3


def test_the_trainer_deals_from_a_random_seed_for_a_bad_one_and_refuses_one_typed(site):
    # an audit's: /trainer?seed=abc dealt nothing and said "seed: missing"; -5 typed in the box
    # left the old deal with the address already seed=-5, and a reload dealt nothing
    from selenium.webdriver.common.keys import Keys

    url, driver = site

    def address_seed():
        return driver.execute_script("return new URLSearchParams(location.search).get('seed')")

    for seed, words in (("abc", "is not a whole number"), ("-5", "is below 0, the smallest seed")):
        driver.get(url + f"/trainer?seed={seed}")
        wait_for(lambda: len(by(driver, "#deal-cards .card")) == 6)
        said = wait_for(lambda: one(driver, "#seed-error").text)
        assert said == f"The seed '{seed}' {words}: a random seed instead."
        dealt = one(driver, "#seed").get_attribute("value")
        assert dealt.isdigit() and address_seed() == dealt
        assert one(driver, "#deal-title").text.startswith(f"Deal 1 of seed {dealt}:")
    driver.get(url + "/trainer?seed=5")
    title = wait_for(lambda: one(driver, "#deal-title").text)
    box = one(driver, "#seed")
    box.send_keys(Keys.CONTROL, "a")  # typed over (clear() is a change: a deal of its own)
    box.send_keys("-5\n")
    said = wait_for(lambda: one(driver, "#seed-error").text)
    assert said == "The seed -5 is below 0, the smallest seed: leave it blank for a random one."
    assert box.get_attribute("value") == "5" and address_seed() == "5"
    assert one(driver, "#deal-title").text == title
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.DELETE, "\n")  # blank: a random seed, shown in the box and the address
    wait_for(lambda: one(driver, "#deal-title").text != title)
    dealt = box.get_attribute("value")
    assert dealt.isdigit() and address_seed() == dealt
    assert not by(driver, "#seed-error")[0].text  # the refusal gone with the new deal


def test_the_navigation_reaches_every_page(site):
    url, driver = site
    driver.get(url + "/")
    assert driver.current_url == url + "/count"  # the home is the counter
    for link, heading in (("Which four to keep", "Which four to keep"),
                          ("Discard trainer", "Discard trainer"),
                          ("Play the AI", "Play a game against the AI"),
                          ("History", "Your history"),
                          ("Count a hand", "Count a hand")):
        one(driver, "header nav").find_element("link text", link).click()
        wait_for(lambda h=heading: one(driver, "h1").text == h)
        current = one(driver, 'header nav a[aria-current="page"]').text
        assert current == link


@pytest.mark.parametrize("path", ["/count?hand=5H+5C+5S+JD&starter=5D",
                                  "/keep?hand=5H+5S+6D+JC+QS+KH&role=pone&me=110&opp=115",
                                  "/keep?variant=four-player&hand=5H+5S+6D+JC+KH&role=pone"
                                  "&position=third&me=104&opp=110",
                                  "/trainer?seed=7"])
def test_the_pages_fit_a_phone(site, path):
    # 390 pixels wide: nothing wider than the screen, no table that must be scrolled sideways
    url, driver = site
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        driver.get(url + path)
        wait_for(lambda: [e for e in by(driver, "table tbody tr, #deal-cards .card")
                          if e.is_displayed()])
        if path.startswith("/keep"):
            wait_for(lambda: by(driver, "#wins tbody tr"))
        if path.startswith("/trainer"):  # answered: the 15 keeps are shown
            for card in by(driver, "#deal-cards .card")[:2]:
                card.click()
            one(driver, "#throw").click()
            one(driver, "#rows tbody tr")
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
        overflow = driver.execute_script(
            "return [...document.querySelectorAll('.scroll')].filter(e => e.offsetParent)"
            ".map(e => e.scrollWidth - e.clientWidth)")
        assert overflow and max(overflow) <= 0, overflow
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_play_a_short_seeded_game_to_its_end(site):
    # five-card to 61 against ev+lookahead, by clicking: each throw the first two cards, each
    # card laid the first that fits (a go is said for you: never asked, no button); the end
    # checked against the table itself
    import json

    from analyzer.core.cards import parse_card
    from analyzer.sim.records import validate_record
    from analyzer.table.tabletop import Table

    url, driver = site
    driver.get(url + "/play?seed=11&opponent=ev%2Blookahead&variant=five-card")
    made = 0
    reloaded = False
    while True:
        wait_for(lambda m=made: driver.execute_script(
            "return document.body.dataset.moves") == str(m))
        ask = driver.execute_script("return document.body.dataset.ask")
        if ask == "over":
            break
        if ask == "show":  # the game waits at each show, counted out on the cards
            if not reloaded:
                # a reload during the shows counts out those not yet counted, from the one on
                # screen (an audit's reload skipped them: the board moved on, the count unsaid)
                which = driver.execute_script(
                    "const s = document.getElementById('show').dataset; return [s.seat, s.crib]")
                one(driver, "#continue").click()
                wait_for(lambda w=which: driver.execute_script(
                    "const s = document.getElementById('show').dataset; return [s.seat, s.crib]")
                    != w or driver.execute_script("return document.body.dataset.ask") != "show")
                if driver.execute_script("return document.body.dataset.ask") == "show":
                    which = driver.execute_script(
                        "const s = document.getElementById('show').dataset; "
                        "return [s.seat, s.crib]")
                    driver.refresh()
                    wait_for(lambda m=made: driver.execute_script(
                        "return document.body.dataset.moves") == str(m))
                    assert driver.execute_script("return document.body.dataset.ask") == "show"
                    assert driver.execute_script(
                        "const s = document.getElementById('show').dataset; "
                        "return [s.seat, s.crib]") == which
                    reloaded = True
                continue
            one(driver, "#continue").click()
            continue
        if ask == "throw":
            assert not one(driver, "#throw").is_enabled()
            for card in by(driver, "#hand .card.pick")[:2]:
                card.click()
            one(driver, "#throw").click()
        else:
            assert ask == "lay" and not by(driver, "#go")  # no Go button: it is said for you
            one(driver, "#hand .card.pick").click()
        made += 1
        assert made < 200
    moves = driver.execute_script("return new URLSearchParams(location.search).get('moves')")
    assert len(moves.split()) == made
    assert reloaded

    class Listed:
        def __init__(self, moves):
            self.moves = moves.split()

        def discard(self, table, seat):
            return [parse_card(c) for c in self.moves.pop(0).split("-")]

        def lay(self, table, seat):
            return parse_card(self.moves.pop(0)) if table.legal(seat) else None

    events = []
    record = Table((Listed(moves), "ev+lookahead"), variant="five-card", seed=11,
                   emit=events.append).play()
    assert [int(one(driver, "#score-you").text), int(one(driver, "#score-ai").text)] == \
        record["scores"]
    assert max(record["scores"]) >= 61
    end = by(driver, "#log li.end")[0].text
    assert end.startswith("You win" if record["winner"] == 0 else "The AI wins")
    # the AI's cards in the log, with their points, as the table laid them
    shown = [(e.get_attribute("data-card"), int(e.get_attribute("data-points")))
             for e in by(driver, "#log li.ai[data-points]")]
    assert shown == [(format_card(e["card"]), e["points"]) for e in events
                     if e["kind"] == "lay" and e["seat"] == 1]
    assert shown
    # the download: the record as JSON Lines, an attachment, that the validator accepts
    link = one(driver, "#download")
    got = driver.execute_async_script(
        "const done = arguments[1]; fetch(arguments[0]).then(async r => done("
        "[r.headers.get('content-disposition'), await r.text()]))", link.get_attribute("href"))
    assert got[0] == 'attachment; filename="crib-game-11.jsonl"', got
    downloaded = json.loads(got[1])
    validate_record(downloaded)
    assert downloaded == json.loads(json.dumps(record))
    # a reload resumes the game where it stands: over, the same scores
    driver.refresh()
    wait_for(lambda: driver.execute_script("return document.body.dataset.ask") == "over")
    assert int(one(driver, "#score-you").text) == record["scores"][0]


def test_the_game_fits_a_phone(site):
    url, driver = site
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        driver.get(url + "/play?seed=7&opponent=best&variant=six-card&moves=KC-8D+6S+TD+3D+5C")
        one(driver, "#hand .card")
        one(driver, "#log li.show")
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_muggins_count_and_a_hint_in_the_game(site):
    # a muggins game: clicking to the first show of the person's, a hint on the way, then a
    # count one short: the AI takes the point, as the table's rule says
    from analyzer.core.counting import count_hand
    from analyzer.web.game import game_answer

    url, driver = site
    driver.get(url + "/play?seed=10&opponent=ev%2Bgreedy&variant=six-card&first=ai&muggins=1")
    made = 0
    hinted = False
    while True:
        wait_for(lambda m=made: driver.execute_script(
            "return document.body.dataset.moves") == str(m))
        ask = driver.execute_script("return document.body.dataset.ask")
        if ask == "count":
            break
        if ask == "show":
            one(driver, "#continue").click()
            continue
        if ask == "throw" and not hinted:  # the hint: the analyzer's three best keeps
            one(driver, "#hint").click()
            rows = wait_for(lambda: by(driver, "#advice li"))
            assert len(rows) == 3
            # each keep and throw on the cards' faces: four kept, two thrown
            assert all(len(r.find_elements("css selector", ".card")) == 6 for r in rows)
            hinted = True
        if ask == "throw":
            for card in by(driver, "#hand .card.pick")[:2]:
                card.click()
            one(driver, "#throw").click()
        else:
            one(driver, "#hand .card.pick").click()
        made += 1
        assert made < 40
    moves = driver.execute_script("return new URLSearchParams(location.search).get('moves')")
    answer = game_answer("six-card", "ev+greedy", 10, "ai", True, moves)
    detail = answer["ask_detail"]
    true = sum(i.points for i in count_hand(detail["cards"], answer["state"]["starter"],
                                            crib=detail["crib"]))
    assert [e.get_attribute("data-card") for e in by(driver, "#hand .card")] == \
        detail["cards"] + [answer["state"]["starter"]]  # the cards to count, on the table
    assert true > 0  # seed 10: a hand with points, so a count one short loses one
    claim = true - 1
    one(driver, "#claim").send_keys(str(claim))
    one(driver, "#claim-send").click()
    wait_for(lambda: driver.execute_script("return document.body.dataset.moves") == str(made + 1))
    one(driver, "#continue").click()  # past the show of your hand: it is in the log
    shown = [e.text for e in by(driver, "#log li.show") if e.text.startswith("Your")][-1]
    assert f"you counted {claim}" in shown
    assert "muggins, the AI takes 1" in shown


def test_errors_are_in_the_pages_words_next_to_their_field(site):
    # a score out of range was "me: Input should be less than or equal to 120" under the box
    # labelled "you"; one score alone gave an empty panel and "opp: missing"
    url, driver = site
    driver.get(url + "/keep?hand=5H+5S+6D+JC+QS+KH&role=pone")
    wait_for(lambda: len(by(driver, "#keeps tbody tr")) == 15)
    one(driver, "#opp").send_keys("100")
    one(driver, "#me").send_keys("130\n")
    error = one(driver, "#me-error")
    assert error.text == "Your score is a whole number of points, 0 to 120."
    assert one(driver, "#me").get_attribute("aria-invalid") == "true"
    assert not by(driver, "#opp-error")[0].text
    assert not by(driver, "#win")[0].is_displayed()
    me = one(driver, "#me")
    me.clear()
    me.send_keys("100")
    one(driver, "#opp").clear()
    one(driver, "#opp").send_keys("\n")
    assert one(driver, "#opp-error").text.startswith("The opponent's score too")
    assert not by(driver, "#me-error")[0].text and not by(driver, "#win")[0].is_displayed()
    # the counter: four cards and Enter, the starter not given yet
    driver.get(url + "/count")
    one(driver, "#hand").send_keys("5H 5C 5S JD\n")
    assert one(driver, "#starter-error").text == "Now the starter: the card cut."


def test_a_bad_play_address_starts_a_game_and_says_why(site):
    # moves that cannot be replayed, an unknown opponent: it was a dead board
    url, driver = site
    driver.get(url + "/play?seed=3&moves=ZZ")
    wait_for(lambda: driver.find_element("tag name", "body").get_attribute("data-ask") == "throw")
    assert "could not be replayed" in one(driver, "#notice").text
    assert "moves=" not in driver.current_url and len(by(driver, "#hand .card")) == 6
    driver.get(url + "/play?seed=3&opponent=grandmaster")
    wait_for(lambda: driver.find_element("tag name", "body").get_attribute("data-ask") == "throw")
    # the default is crib play's, the level Expert (its player best), named so (it was best)
    assert "no opponent 'grandmaster' here: Expert instead" in one(driver, "#notice").text
    assert "level=Expert" in driver.current_url
    assert "Against Expert (best)." in one(driver, "#status").text
    # muggins read as the API reads a yes or no (true was dropped, without a word)
    driver.get(url + "/play?seed=3&muggins=True")
    wait_for(lambda: driver.find_element("tag name", "body").get_attribute("data-ask") == "throw")
    assert by(driver, "#muggins")[0].is_selected() and "muggins=1" in driver.current_url
    driver.get(url + "/play?seed=3&muggins=maybe")
    wait_for(lambda: driver.find_element("tag name", "body").get_attribute("data-ask") == "throw")
    assert "muggins 'maybe' is not yes or no: the game without it" in one(driver, "#notice").text
    assert not by(driver, "#muggins")[0].is_selected() and "muggins" not in driver.current_url


def ask(driver) -> str | None:
    return driver.execute_script("return document.body.dataset.ask")


def made(driver) -> str | None:
    return driver.execute_script("return document.body.dataset.moves")


def catch_errors(driver) -> None:
    """Keep the page's uncaught errors from now on (``window.caught``)."""
    driver.execute_script("window.caught = []; window.addEventListener('error', "
                          "(e) => window.caught.push(e.message));")


def throw_two(driver) -> None:
    for card in by(driver, "#hand .card.pick")[:2]:
        card.click()
    one(driver, "#throw").click()


SAVED = "return localStorage.getItem('crib-play-game')"


@pytest.mark.parametrize(("typed", "words"), [
    ("12345678901234567890123", "is above 9223372036854775807, the largest seed"),
    ("-3", "is below 0, the smallest seed")])
def test_a_seed_out_of_range_in_new_game_is_refused_and_the_game_goes_on(site, typed, words):
    # it went to the server: the API's raw words, the seed-5 table dead (a card clicked was a
    # TypeError), the address and the remembered game already the refused one's
    url, driver = site
    driver.get(url + "/play?seed=5&level=Club")
    wait_for(lambda: ask(driver) == "throw")
    catch_errors(driver)
    where, saved = driver.current_url, driver.execute_script(SAVED)
    one(driver, "#setup summary").click()
    box = one(driver, "#seed")
    box.clear()
    box.send_keys(typed)
    one(driver, "#new").click()
    said = wait_for(lambda: [e.text for e in by(driver, "#seed-error") if e.text])
    assert said == [f"The seed {typed} {words}: leave it blank for a random game."]
    assert box.get_attribute("aria-invalid") == "true"
    assert driver.current_url == where and driver.execute_script(SAVED) == saved
    assert one(driver, "#status").text.startswith("Seed 5. ")
    throw_two(driver)  # the game on the table goes on
    wait_for(lambda: made(driver) == "1")
    assert driver.execute_script("return window.caught") == []
    assert not by(driver, "#seed-error")[0].is_displayed()  # said, and gone with the next move
    driver.get(url + "/play")  # opened bare: the seed-5 game, where it stands
    wait_for(lambda: made(driver) == "1")
    assert "seed=5&" in driver.current_url


def test_an_address_with_a_seed_out_of_range_plays_a_random_seed_and_says_so(site):
    # the page sent it: a table with no game, whose Hint, Why and Undo did nothing; -3 was
    # "not a whole number"
    url, driver = site
    for seed, words in (("99999999999999999999999",
                         "is above 9223372036854775807, the largest seed"),
                        ("-3", "is below 0, the smallest seed")):
        driver.get(url + f"/play?seed={seed}&level=Club")
        wait_for(lambda: ask(driver) == "throw")
        assert f"the seed '{seed}' {words}: a random seed instead" in one(driver, "#notice").text
        dealt = driver.execute_script("return new URLSearchParams(location.search).get('seed')")
        assert dealt.isdigit() and int(dealt) < 2**63
        status = one(driver, "#status").text
        assert status.startswith(f"Seed {dealt}. ") and "Against Club (ev+greedy)." in status
    assert not by(driver, "#other-error")[0].text
    # a live table: a hint, a throw, undo; and the game is the one this browser remembers
    one(driver, "#hint").click()
    wait_for(lambda: by(driver, "#advice")[0].is_displayed())
    throw_two(driver)
    wait_for(lambda: made(driver) == "1")
    one(driver, "#undo").click()
    wait_for(lambda: one(driver, "#notice").text.startswith(("Taken back", "Undo: ")))
    moves = made(driver)
    driver.get(url + "/play")
    wait_for(lambda: made(driver) == moves)
    assert f"seed={dealt}&" in driver.current_url


def test_a_level_is_read_in_any_case_and_never_sent_with_an_opponent(site):
    # level=club was "no level 'club' here: best instead", and played best
    url, driver = site
    driver.get(url + "/play?seed=5&level=club")
    wait_for(lambda: ask(driver) == "throw")
    assert "Against Club (ev+greedy)." in one(driver, "#status").text
    assert not by(driver, "#notice")[0].is_displayed()
    assert "level=Club&" in driver.current_url
    driver.get(url + "/play?seed=5&level=wizard")
    wait_for(lambda: ask(driver) == "throw")
    assert ("no level 'wizard' here (Beginner, Casual, Club, Expert): Expert instead"
            in one(driver, "#notice").text)
    assert "Against Expert (best)." in one(driver, "#status").text
    # an address with both (the API refuses them together): the level alone, said and sent
    driver.get(url + "/play?seed=5&level=Club&opponent=best")
    wait_for(lambda: ask(driver) == "throw")
    assert "a level and an opponent both: the level alone" in one(driver, "#notice").text
    throw_two(driver)
    wait_for(lambda: made(driver) == "1")
    one(driver, "#hint").click()
    wait_for(lambda: by(driver, "#advice")[0].is_displayed())
    sent = driver.execute_script(
        "return performance.getEntriesByType('resource').map((e) => new URL(e.name))"
        ".filter((u) => u.pathname.startsWith('/api/')).map((u) => [u.pathname, "
        "u.searchParams.get('level'), u.searchParams.get('opponent')])")
    assert len(sent) >= 3 and all(level == "Club" and opponent is None
                                  for _, level, opponent in sent), sent
    assert "opponent=" not in driver.current_url
    # the form, the opponent and the first dealer in any case too, written back as offered
    driver.get(url + "/play?seed=5&variant=Five-Card&opponent=EV%2BGreedy&first=You")
    wait_for(lambda: ask(driver) == "throw")
    assert not by(driver, "#notice")[0].is_displayed()
    assert "variant=five-card" in driver.current_url and "first=you" in driver.current_url
    assert "opponent=ev%2Bgreedy&" in driver.current_url
    assert "Against ev+greedy." in one(driver, "#status").text


def test_a_blank_seed_deals_a_random_game_and_shows_its_seed(site):
    # a blank seed always dealt seed 0
    url, driver = site
    seeds = []
    for _ in range(2):
        driver.get(url + "/play?seed=3")
        wait_for(lambda: by(driver, "#hand .card"))
        one(driver, "#setup summary").click()
        one(driver, "#seed").clear()
        one(driver, "#new").click()
        wait_for(lambda: "seed=3&" not in driver.current_url)
        shown = by(driver, "#seed")[0].get_attribute("value")  # in the setup, closed again
        assert shown.isdigit() and f"seed={shown}&" in driver.current_url
        assert one(driver, "#status").text.startswith(f"Seed {shown}. ")
        seeds.append(shown)
    assert seeds[0] != seeds[1]


def test_play_again_at_the_end(site):
    url, driver = site
    driver.get(url + "/play?seed=11&opponent=ev%2Blookahead&variant=five-card&moves="
               + "+".join(browser._PLAY_END))
    one(driver, "#again").click()
    wait_for(lambda: "moves=" not in driver.current_url)
    wait_for(lambda: driver.find_element("tag name", "body").get_attribute("data-ask") == "throw")
    assert "variant=five-card" in driver.current_url and "seed=11&" not in driver.current_url
    assert not by(driver, "#again")[0].is_displayed()


def test_the_keep_chart_is_legible_on_a_phone(site):
    # it was a 124 KB SVG of matplotlib's shrunk to 370 pixels, its words 3 to 4 pixels tall
    url, driver = site
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        driver.get(url + "/keep?hand=5H+5S+6D+JC+QS+KH&role=pone")
        wait_for(lambda: len(by(driver, "#chart-box g.row")) == 30)
        size = driver.execute_script(
            "const s = document.querySelector('#chart-box svg');"
            "const r = s.getBoundingClientRect();"
            "const texts = [...s.querySelectorAll('text')]"
            "  .map(t => t.getBoundingClientRect().height);"
            "return [s.outerHTML.length, r.width, Math.min(...texts), "
            "document.documentElement.scrollWidth];")
        chars, width, smallest, page = size
        assert chars <= 20_000 and width <= 390 and page <= 390, size
        assert smallest >= 11, size  # each word at least 11 CSS pixels tall
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_superseded_p_win_is_dropped_and_the_wait_is_shown(site, served_app):
    # three changes of the crib menu while a P(win) computed were each computed in turn, the
    # page frozen meanwhile: now the page aborts the request it no longer wants, the server drops
    # it, and the page shows a spinner while the last one computes
    url, driver = site
    work = served_app.state.work
    dropped = work.dropped
    driver.get(url + "/keep?hand=5H+5S+6D+JC+QS+KH&role=dealer&me=110&opp=115")
    wait_for(lambda: work.running or work.done)
    from selenium.webdriver.support.ui import Select

    crib = Select(one(driver, "#crib"))
    for value in ("uniform", "weighted", "table"):
        crib.select_by_value(value)  # a change event each: a new ranking and a new P(win)
    summary = one(driver, "#win-summary")
    wait_for(lambda: "busy" in summary.get_attribute("class") or by(driver, "#wins tbody tr"))
    wait_for(lambda: len(by(driver, "#wins tbody tr")) == 15)
    assert "busy" not in summary.get_attribute("class")
    assert summary.text.startswith("P(win) from")
    wait_for(lambda: work.dropped > dropped)  # at least one superseded P(win) dropped
    assert len(by(driver, "#keeps tbody tr")) == 15  # the ranking answered meanwhile
