"""Collection settings for the whole repository (the suite's own settings are tests/conftest.py).

Without the web extra (FastAPI) the web application's module cannot be imported for its
doctests; its tests skip on their own, with the reason.
"""

import importlib.util

collect_ignore = ([] if importlib.util.find_spec("fastapi") and importlib.util.find_spec("uvicorn")
                  else ["analyzer/web/app.py", "analyzer/web/serve.py"])
