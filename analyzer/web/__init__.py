"""The analyzer in the browser: ``crib serve``, a local web application and its JSON API.

Optional: it needs the ``web`` extra (``pip install 'analyzer[web]'``: FastAPI and uvicorn).
Only the cli wing above it imports it (``crib serve``, ``crib bench``), and only when asked, so the
core package and ``crib --help`` do without it.

* :mod:`~analyzer.web.answers` computes what the API answers (counting, keeping, the chart),
  with no web framework in it;
* :mod:`~analyzer.web.trainer` is the discard trainer's seeded stream of deals and its grading;
* :mod:`~analyzer.web.app` is the FastAPI application: the API, the pages, the bad-input answers;
* :mod:`~analyzer.web.serve` listens on a host and port and runs the application (``crib serve``);
* :mod:`~analyzer.web.browser` drives Debian's headless Chromium (the screenshots and the tests);
* :mod:`~analyzer.web.latency` measures the API's answers (``crib bench``).

The pages are plain HTML, CSS and JavaScript in ``static/``, read once from the installed package
when the application is made; no request names a file or writes one.
"""
