"""The web application of ``crib serve``: the JSON API and the pages, on FastAPI.

:func:`create_app` makes the application. Its API (every answer JSON but the chart, an SVG):

==============================  ==============================================================
``GET /api/count``              a hand or crib counted out
                                (:func:`~analyzer.web.answers.count_answer`)
``GET /api/keep``               the keeps ranked (:func:`~analyzer.web.answers.keep_answer`)
``GET /api/keep/win``           the keeps ranked by P(win) from a score (``win_answer``): six-card,
                                five-card, four-player (``position``), three-player
                                (``position``, a third score ``third``)
``GET /api/keep/chart.svg``     the chart of ``crib plot keep`` (``chart_svg``)
``GET /api/trainer/deal``       the trainer's next deal (:func:`~analyzer.web.trainer.next_deal`)
``GET /api/trainer/answer``     a throw graded (:func:`~analyzer.web.trainer.grade`)
``GET /api/game``               a game against the AI replayed from its moves, stopped at your
                                next decision (:func:`~analyzer.web.game.game_answer`)
``GET /api/game/record``        the game's record as a JSON Lines download
                                (:func:`~analyzer.web.game.game_record`)
``GET /api/game/why``           the AIs' choices in the last deal shown, explained
                                (:func:`~analyzer.web.game.game_why`)
``GET /api/game/review``        the review of your decisions
                                (:func:`~analyzer.web.game.game_review`)
``POST /api/history/game``      a finished game added to the history (:mod:`analyzer.web.history`)
``GET /api/history/review``     the review of a game of the history, by its ``id``
``GET /api/history``            the history: ``crib stats``'s statistics, the last games, the
                                trainer's sittings
``POST /api/trainer/record``    a trainer's answer added to its sitting in the history
``GET /api/trainer/sitting``    a sitting's answers, read back
``GET /api/openapi.json``       the API described (OpenAPI)
==============================  ==============================================================

Bad input (an unknown card, a duplicate, the wrong number, a value out of range, a missing or
malformed parameter) is answered ``422`` with ``{"error": "one line", "field": "hand"}``, an
unknown path ``404`` and a wrong method ``405``, each with an ``error``; never a 500. A history
file that cannot be read or written (damaged, locked) is the server's fault, not the request's:
``503`` with its ``error`` and no ``field``. ``HEAD``
is answered wherever ``GET`` is (:class:`_Head`), and ``/favicon.ico`` is the pages' icon.

The pages are ``/count`` (the hand counter), ``/keep`` (which four to keep), ``/trainer`` (the
discard trainer), ``/play`` (the game against the AI), ``/review`` (a game's review) and
``/history`` (the history of games and sittings). Their files are read from the installed
package once, when the application is made (:data:`STATIC`). No request names a file (the game's
record is the body of a response, sent as an attachment); the one file written is the history
(the terminal's, or ``create_app(history=PATH)``'s), by the two ``POST`` requests: besides it
and the pages, the only files read are the package's own tables (crib values, pegging, win
odds), once each, on first use (``create_app(warm=True)`` loads the six-card game's at
start-up).

No answer computes on the event loop (:mod:`analyzer.web.work`): each runs in a worker thread,
side by side with the others, so a count or a keep is answered in milliseconds while a P(win)
simulates for seconds; P(win) takes one slot, one at a time, and a P(win) whose page has asked
again (and dropped the request) is not computed, or its answer is dropped.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Annotated

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..core.choices import DEFAULT_SAMPLES, DEFAULT_VARIANT
from . import answers, game, trainer
from .answers import InputError
from .history import History, HistoryUnavailable
from .work import Work

__all__ = ["PAGES", "STATIC", "create_app"]

#: The pages, by path: each a file of ``static/``.
PAGES = {"/count": "count.html", "/keep": "keep.html", "/trainer": "trainer.html",
         "/play": "play.html", "/review": "review.html", "/history": "history.html"}
#: The content type of each kind of static file.
STATIC = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
          ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml",
          ".png": "image/png", ".ico": "image/x-icon"}
_CARDS = 200  # the longest card text a parameter takes, in characters
_GONE = 499  # the status of an answer whose client has gone (nginx's "client closed request")

Cards = Annotated[str, Query(max_length=_CARDS, description="cards, e.g. 5H 5S 6D JC QS KH")]
Role = Annotated[str, Query(description="dealer (your crib) or pone")]
Variant = Annotated[str, Query(max_length=40, description="six-card, three-player, four-player "
                               "or five-card")]
CribMode = Annotated[str | None, Query(description="table, uniform or weighted")]
Position = Annotated[str | None, Query(max_length=20, description="four-player: your place from "
                                       "the dealer: dealer, first, second or third; "
                                       "three-player: dealer, first or second")]
Seed = Annotated[int, Query(ge=0, le=2**63 - 1)]
GameId = Annotated[int, Query(ge=1, le=2**63 - 1, description="a game's number in the history")]
Deal = Annotated[int, Query(ge=0, le=trainer.MAX_DEAL)]
Score = Annotated[int, Query(ge=0, le=120)]
Third = Annotated[int | None, Query(ge=0, le=120, description="three-player: the score of the "
                                    "player on your right (opp: on your left)")]
GameVariant = Annotated[str, Query(max_length=40, description="six-card, five-card, "
                                   "three-player or four-player")]
Level = Annotated[str | None, Query(max_length=20, description="Beginner, Casual, Club or "
                                   "Expert, any case (in place of opponent: not both)")]
Sitting = Annotated[str, Query(max_length=40, description="the trainer's sitting")]
Opponent = Annotated[str | None, Query(max_length=60, description="the AI: best, "
                                       "ev+lookahead, ... (none and no level: best)")]
First = Annotated[str, Query(max_length=10, description="who deals first: cut, you or ai")]
Moves = Annotated[str, Query(max_length=game.MAX_MOVES * 6,
                             description="your moves: 5H-JC (a throw), 7D (a card), go, 12 "
                             "(a count, muggins)")]


def _static_files() -> dict[str, tuple[bytes, str]]:
    """Every file of the package's ``static/`` folder: name -> (bytes, content type)."""
    folder = files("analyzer.web") / "static"
    out = {}
    for item in folder.iterdir():
        suffix = "." + item.name.rsplit(".", 1)[-1]
        if item.is_file() and suffix in STATIC:
            out[item.name] = (item.read_bytes(), STATIC[suffix])
    return out


def _error(status: int, message: str, field: str | None = None) -> JSONResponse:
    body = {"error": message}
    if field is not None:
        body["field"] = field
    return JSONResponse(body, status_code=status)


def _validation_message(exc: RequestValidationError) -> tuple[str, str | None]:
    """One line for FastAPI's validation errors: the first parameter that is wrong, and why."""
    errors = exc.errors()
    if not errors:
        return "bad request", None
    first = errors[0]
    where = [str(part) for part in first.get("loc", ()) if part not in ("query", "body")]
    field = where[-1] if where else None
    message = str(first.get("msg", "invalid")).replace("\n", " ")
    kind, given, limits = first.get("type"), first.get("input"), first.get("ctx") or {}
    if isinstance(given, str) and len(given) > 30:  # a long value is not echoed whole
        given = given[:27] + "..."
    words = {"missing": "missing",
             "less_than_equal": f"{given} is more than {limits.get('le')}",
             "greater_than_equal": f"{given} is less than {limits.get('ge')}",
             "int_parsing": f"{given!r} is not a whole number",
             "int_parsing_size": f"{given} is out of range (too many digits)",
             "bool_parsing": f"{given!r} is not true or false",
             "string_too_long": f"too long: at most {limits.get('max_length')} characters"}
    message = words.get(kind, message)
    return (f"{field}: {message}" if field else message), field


class _Head:
    """ASGI middleware: a ``HEAD`` request is answered as its ``GET`` without the body (the same
    status and headers), so that ``HEAD`` works wherever ``GET`` does."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "HEAD":
            return await self.app(scope, receive, send)

        async def headless(message):
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headless)


def _warm_later() -> None:
    """Load the kernels of the exact cribs and of P(win) (numba's cache, or a compile): the
    exact cribs first, so that a change of the crib menu does not wait for P(win)'s, then
    six-card's P(win), then the other forms' (five-card and four-player share their kernel,
    three-player has its own)."""
    hand = "5H 5S 6D JC QS KH"
    for crib in ("uniform", "weighted"):
        answers.keep_answer(hand, "pone", crib=crib)
    answers.win_answer(hand, "dealer", 110, 115, samples=64)
    for variant, score in (("five-card", (50, 55)), ("four-player", (110, 115))):
        answers.win_answer(hand[:-3], "dealer", *score, samples=64, variant=variant)
    answers.win_answer(hand[:-3], "dealer", 110, 115, samples=64, variant="three-player",
                       third=100)


def create_app(warm: bool = False, history=None) -> FastAPI:
    """The application: the API and the pages.

    Parameters
    ----------
    warm
        Answer one request of each kind before returning, so that the first user's request does
        not wait for the compiled kernels to load (about a second); those of the exact cribs
        and P(win), which take longer, load in a thread while the server starts (the first
        P(win) waits for them, nothing else does; ``app.state.warming`` is its future).
    history
        The history file the finished games and the trainer's answers are added to (None: the
        terminal's, :func:`analyzer.table.history.default_path`, looked up at each request).
    """
    from ..core.version import package_version

    app = FastAPI(title="analyzer: cribbage in the browser", version=package_version(),
                  openapi_url="/api/openapi.json", docs_url=None, redoc_url=None)
    static = _static_files()
    work = Work()
    app.state.work = work
    kept = History(history)
    app.state.history = kept

    @app.exception_handler(InputError)
    async def _input_error(request: Request, exc: InputError):
        return _error(422, str(exc), exc.field)

    @app.exception_handler(HistoryUnavailable)
    async def _history_unavailable(request: Request, exc: HistoryUnavailable):
        return _error(503, str(exc))  # the server's file, not the request: no field to blame

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        message, field = _validation_message(exc)
        return _error(422, message, field)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        message = {404: f"not found: {request.url.path}",
                   405: f"{request.method} is not allowed on {request.url.path}"}
        return _error(exc.status_code, message.get(exc.status_code, str(exc.detail)))

    # ------------------------------------------------------------------ the API

    @app.get("/api/count", summary="Count a hand or crib, every combination and the words")
    def count(hand: Cards, starter: Annotated[str, Query(max_length=_CARDS)] = "",
              crib: bool = False, variant: Variant = DEFAULT_VARIANT) -> dict:
        return answers.count_answer(hand, starter, crib=crib, variant=variant)

    @app.get("/api/keep", summary="Rank the ways to keep four of six (or of the forms' five)")
    def keep(hand: Cards, role: Role, crib: CribMode = None, pegging: bool = True,
             variant: Variant = DEFAULT_VARIANT) -> dict:
        return answers.keep_answer(hand, role, crib=crib, pegging=pegging, variant=variant)

    @app.get("/api/keep/win", summary="Rank the keeps by the probability of winning")
    async def keep_win(request: Request, hand: Cards, role: Role, me: Score, opp: Score,
                       samples: Annotated[int, Query(ge=1, le=answers.MAX_WEB_SAMPLES)] =
                       DEFAULT_SAMPLES, seed: Seed = 0, crib: CribMode = None,
                       pegging: bool = True, variant: Variant = DEFAULT_VARIANT,
                       position: Position = None, third: Third = None) -> dict:
        answer = await work.long(request, answers.win_answer, hand, role, me, opp,
                                 samples=samples, seed=seed, crib=crib, pegging=pegging,
                                 variant=variant, position=position, third=third)
        return Response(status_code=_GONE) if answer is None else answer

    @app.get("/api/keep/chart.svg", summary="The chart of crib plot keep, as SVG",
             response_class=Response)
    async def keep_chart(hand: Cards, role: Role, crib: CribMode = None, pegging: bool = True,
                         variant: Variant = DEFAULT_VARIANT) -> Response:
        def draw():
            with work.chart_lock:
                return answers.chart_svg(hand, role, crib=crib, pegging=pegging, variant=variant)

        return Response(await work.slow(draw), media_type="image/svg+xml")

    @app.get("/api/trainer/deal", summary="The trainer's next deal that passes the filters")
    def trainer_deal(seed: Seed, k: Deal = 0, role: str = "any", close: bool = False) -> dict:
        return trainer.next_deal(seed, k, role=role, close=close)

    @app.get("/api/trainer/answer", summary="Grade the two cards thrown from a trainer deal")
    def trainer_answer(seed: Seed, k: Deal, throw: Cards) -> dict:
        return trainer.grade(seed, k, throw)

    @app.get("/api/game", summary="A game against the AI, replayed from your moves")
    def game_state(variant: GameVariant = "six-card", opponent: Opponent = None,
                   seed: Seed = 0, first: First = "cut", muggins: bool = False,
                   moves: Moves = "", since: Annotated[int, Query(ge=0, le=10_000)] = 0,
                   advice: bool = False, level: Level = None) -> dict:
        return game.game_answer(variant, opponent, seed, first, muggins, moves, since=since,
                                advice=advice, level=level)

    @app.get("/api/game/record", summary="The game's record, JSON Lines, as a download",
             response_class=Response)
    def game_record(variant: GameVariant = "six-card", opponent: Opponent = None,
                    seed: Seed = 0, first: First = "cut", muggins: bool = False,
                    moves: Moves = "", level: Level = None) -> Response:
        body = game.game_record(variant, opponent, seed, first, muggins, moves, level)
        name = f"crib-game-{seed}.jsonl"
        return Response(body, media_type="application/jsonl",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/api/game/why", summary="The AIs' choices in the last deal shown, explained")
    async def game_why(variant: GameVariant = "six-card", opponent: Opponent = None,
                       seed: Seed = 0, first: First = "cut", muggins: bool = False,
                       moves: Moves = "", level: Level = None) -> dict:
        return await work.slow(game.game_why, variant, opponent, seed, first, muggins, moves,
                               level)

    @app.get("/api/game/review", summary="The review of your decisions in the game")
    async def game_review(variant: GameVariant = "six-card", opponent: Opponent = None,
                          seed: Seed = 0, first: First = "cut", muggins: bool = False,
                          moves: Moves = "", level: Level = None) -> dict:
        return await work.slow(game.game_review, variant, opponent, seed, first, muggins,
                               moves, level)

    @app.post("/api/history/game", summary="Add a finished game to the history")
    async def history_game(variant: GameVariant = "six-card", opponent: Opponent = None,
                           seed: Seed = 0, first: First = "cut", muggins: bool = False,
                           moves: Moves = "", level: Level = None) -> dict:
        return await work.slow(kept.add_game, variant, opponent, seed, first, muggins, moves,
                               level)

    @app.get("/api/history", summary="The history: crib stats's statistics, games, sittings")
    def history_summary() -> dict:
        return kept.summary()

    @app.get("/api/history/review", summary="The review of a game of the history")
    async def history_review(id: GameId) -> dict:
        return await work.slow(kept.review, id)

    @app.post("/api/trainer/record", summary="Add a trainer's answer to its sitting")
    def trainer_record(sitting: Sitting, seed: Seed, k: Deal, throw: Cards) -> dict:
        return kept.add_trainer(sitting, seed, k, throw)

    @app.get("/api/trainer/sitting", summary="The answers of one sitting of the trainer")
    def trainer_sitting(sitting: Sitting) -> dict:
        return kept.sitting(sitting)

    # The address crib serve prints for the API: its endpoints, each with its method and what it
    # does, and where the whole description is (on the event loop: a list made once)
    index: list = []

    @app.get("/api/", include_in_schema=False)
    async def api_index() -> dict:
        if not index:
            index.extend({"method": method, "path": route.path, "summary": route.summary}
                         for route in app.routes
                         if getattr(route, "include_in_schema", False)
                         and route.path.startswith("/api/")
                         for method in sorted(route.methods))
        return {"endpoints": index, "described": "/api/openapi.json"}

    # ------------------------------------------------------------------ the pages

    # The pages and their files are bytes held in memory: answered on the event loop itself,
    # never waiting for a thread (a flood of slow answers once kept them waiting 36 s)
    @app.get("/", include_in_schema=False)
    async def home() -> RedirectResponse:
        return RedirectResponse("/count")

    def page(name: str):
        body, kind = static[name]

        async def answer() -> Response:
            return Response(body, media_type=kind, headers={"Cache-Control": "no-cache"})
        return answer

    for path, name in PAGES.items():
        app.add_api_route(path, page(name), methods=["GET"], include_in_schema=False)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        body, kind = static["favicon.ico"]
        return Response(body, media_type=kind, headers={"Cache-Control": "max-age=86400"})

    @app.get("/static/{name}", include_in_schema=False)
    async def static_file(name: str) -> Response:
        if name not in static:
            return _error(404, f"not found: /static/{name}")
        body, kind = static[name]
        return Response(body, media_type=kind, headers={"Cache-Control": "no-cache"})

    if warm:
        answers.count_answer("5H 5C 5S JD", "5D")
        answers.keep_answer("5H 5S 6D JC QS KH", "pone")
        trainer.grade(0, 0, " ".join(trainer.next_deal(0)["hand"][:2]))
        game.game_answer("six-card", "best", 0, "you", False, "")
        # the exact cribs' kernels, then P(win)'s (seconds to load, a minute to compile): in
        # the slot, while the server starts
        app.state.warming = work.start(_warm_later)
    app.add_middleware(_Head)
    return app
