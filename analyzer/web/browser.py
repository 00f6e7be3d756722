"""Headless Chromium for the pages: Debian's ``chromium`` and ``chromium-driver`` through Selenium.

:func:`missing` says why no browser can be driven here (no Selenium, no Chromium, no driver), or
None; :func:`chromium` starts one, headless, with a new empty profile and no background network
(the machine's network is closed, and a browser that tries it waits). :func:`screenshots` serves
the application on a free loopback port and writes a PNG of each page, at a desktop width and a
phone width (``crib serve --screenshots DIR``). The browser tests use the same two.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

__all__ = ["PHONE", "DESKTOP", "chromium", "missing", "screenshots", "wait_for"]

#: The viewports the screenshots are taken at: (name, width, height, mobile).
DESKTOP = ("desktop", 1200, 900, False)
PHONE = ("phone", 390, 844, True)
_BROWSERS = ("chromium", "chromium-browser")
_DRIVERS = ("chromedriver",)
_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
          "--disable-quic", "--no-first-run", "--disable-background-networking",
          "--disable-component-update", "--disable-sync", "--hide-scrollbars",
          "--force-color-profile=srgb")


def _which(names) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def missing() -> str | None:
    """Why no browser can be driven here, in one line, or None when one can."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "Selenium is not installed (pip install 'analyzer[test]')"
    if _which(_BROWSERS) is None:
        return "no Chromium (apt-get install chromium chromium-driver)"
    if _which(_DRIVERS) is None:
        return "no ChromeDriver (apt-get install chromium-driver)"
    return None


class _Browser:
    """A Selenium driver of headless Chromium with its own temporary profile folder."""

    def __init__(self, width: int, height: int):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self._profile = tempfile.TemporaryDirectory(prefix="crib-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = _which(_BROWSERS)
        for flag in _FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self._profile.name}")
        options.add_argument(f"--window-size={width},{height}")
        try:
            self.driver = webdriver.Chrome(service=Service(executable_path=_which(_DRIVERS)),
                                           options=options)
        except Exception:
            self._profile.cleanup()
            raise
        self.driver.set_page_load_timeout(30)

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            self._profile.cleanup()

    def __enter__(self):
        return self.driver

    def __exit__(self, *exc) -> None:
        self.close()


def chromium(width: int = 1200, height: int = 900) -> _Browser:
    """Headless Chromium driven by Selenium, as a context manager giving the driver.

    Raises RuntimeError with :func:`missing`'s reason when there is no browser to drive.
    """
    reason = missing()
    if reason is not None:
        raise RuntimeError(reason)
    return _Browser(width, height)


def wait_for(condition, timeout: float = 15.0, step: float = 0.05):
    """Poll ``condition()`` until it returns something true, and return it; TimeoutError after
    ``timeout`` seconds (the last exception it raised, if any, is chained)."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as exc:  # an element not there yet, a stale one
            last = exc
        time.sleep(step)
    raise TimeoutError(f"waited {timeout} s") from last


def _viewport(driver, width: int, height: int, mobile: bool) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def _shoot(driver, path: Path, width: int, height: int, mobile: bool) -> None:
    """A PNG of the whole page (its full height), written atomically."""
    from ..core.files import atomic_write

    full = int(driver.execute_script(
        "return Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)"))
    _viewport(driver, width, max(height, full), mobile)
    time.sleep(0.2)  # let the layout settle at the new size
    png = driver.get_screenshot_as_png()
    atomic_write(path, lambda tmp: tmp.write_bytes(png))
    _viewport(driver, width, height, mobile)


def _settled(driver, css: str):
    from selenium.webdriver.common.by import By

    return wait_for(lambda: [e for e in driver.find_elements(By.CSS_SELECTOR, css)
                             if e.is_displayed()])


def _chart_loaded(driver) -> bool:
    return bool(driver.execute_script(  # two panels: a row of each per keep
        "const n = document.querySelectorAll('#keeps tbody tr').length;"
        "return n > 0 && document.querySelectorAll('#chart-box svg g.row').length === 2 * n;"))


def _trainer_rounds(driver, rounds: int) -> None:
    """Answer ``rounds`` trainer deals: throw the first two cards, then the next deal."""
    from selenium.webdriver.common.by import By

    for i in range(rounds):
        cards = _settled(driver, "#deal-cards .card")
        cards[0].click()
        cards[1].click()
        driver.find_element(By.ID, "throw").click()
        _settled(driver, "#grade")
        if i < rounds - 1:
            title = driver.find_element(By.ID, "deal-title").text
            driver.find_element(By.ID, "next").click()
            wait_for(lambda t=title: driver.find_element(By.ID, "deal-title").text != t)


#: The person's moves of the game pages shot: six-card seed 7 against best, the third deal's
#: play under way; five-card seed 11 against ev+lookahead, to its end.
_PLAY_MID = "KC-8D 6S TD 3D 5C AH-7D AS 6S JH 5H 8D-8S".split()
_PLAY_END = ("8S-7D 2C 7H AS 9C-7C KH AS AD-AS QH 4S go 9H-8H 2D 7C go 3D-3H AC JD 3C-7D 6S 5D "
             "go 2S-TS 4C KS go 3C-QS TH KC 3H 2S-7D 3H 9D go go").split()


def screenshots(folder, app=None) -> list[Path]:
    """Serve the pages and write a PNG of each, at desktop and phone width, into ``folder``.

    The counter with the 29 hand counted and a combination highlighted, the keeps of 5H 5S 6D JC
    QS KH as pone with the chart, the same from 110 to 115 with the score-aware view, a
    four-player hand's (5H 5S 6D JC KH, third from the dealer, 104 to 110) with its view, the
    trainer after four answers (seed 7), the game in its third deal with a hint shown (seed 7,
    six-card, against best) and a five-card game at its end (seed 11, against ev+lookahead).
    Returns the files written.
    """
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    from .app import create_app
    from .serve import BackgroundServer

    folder = Path(folder)
    scratch = tempfile.TemporaryDirectory(prefix="crib-screenshots-")
    # the pictures' games and trainer answers go to a history of their own, not the user's
    app = (create_app(warm=True, history=Path(scratch.name) / "history.sqlite3") if app is None
           else app)
    pages = [
        ("count", "/count?hand=5H+5C+5S+JD&starter=5D", "#result:not([hidden]) tbody tr"),
        ("keep", "/keep?hand=5H+5S+6D+JC+QS+KH&role=pone", "#keeps tbody tr"),
        ("keep-score", "/keep?hand=5H+5S+6D+JC+QS+KH&role=dealer&me=110&opp=115",
         "#wins tbody tr"),
        ("keep-four-player", "/keep?variant=four-player&hand=5H+5S+6D+JC+KH&role=pone"
         "&position=third&me=104&opp=110", "#wins tbody tr"),
        ("trainer", "/trainer?seed=7", "#deal-cards .card"),
        ("play", "/play?seed=7&opponent=best&variant=six-card&moves=" + "+".join(_PLAY_MID),
         "#hand .card.pick"),
        ("play-end", "/play?seed=11&opponent=ev%2Blookahead&variant=five-card&moves="
         + "+".join(_PLAY_END), "#download:not([hidden])"),
    ]
    written = []
    with scratch, BackgroundServer(app) as url, chromium(*DESKTOP[1:3]) as driver:
        for view, width, height, mobile in (DESKTOP, PHONE):
            _viewport(driver, width, height, mobile)
            for name, path, ready in pages:
                driver.get(url + path)
                _settled(driver, ready)
                if name == "count":
                    rows = driver.find_elements(By.CSS_SELECTOR, "#items tbody tr")
                    rows[-1].click()  # his nobs: the jack lights up
                    # the pointer away, or the row under it when the page grows lights up too
                    ActionChains(driver).move_to_element(
                        driver.find_element(By.TAG_NAME, "h1")).perform()
                if name.startswith("keep"):
                    wait_for(lambda: _chart_loaded(driver))
                if name == "trainer":
                    _trainer_rounds(driver, 4)
                if name == "play":
                    driver.find_element(By.ID, "hint").click()
                    _settled(driver, "#advice li")
                out = folder / f"{name}-{view}.png"
                _shoot(driver, out, width, height, mobile)
                written.append(out)
    return written
