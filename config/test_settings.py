"""Test settings: production settings (DEBUG off) with four local allowances."""

import os
from urllib.parse import urlsplit, urlunsplit

# Production settings refuse to start without a real key; tests (and the workers and
# servers they start, which inherit the environment) share this one.
os.environ.setdefault("SECRET_KEY", "tests-only-key-" + "x" * 50)
# The development tools (localdev: seed_demo, the local registradora and bank) are
# installed in the tests and in the servers and commands they start.
os.environ.setdefault("LOCAL_DEV_TOOLS", "true")

# pytest-xdist: each worker process (gw0, gw1...) has a test database of its own
# (pytest-django) and here a Redis database of its own for the cache, which the tests
# empty between tests; the servers and workers a test starts inherit it.
XDIST_CACHE_DB_BASE = 8
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw") and os.environ.get("CACHE_URL", "").startswith("rediscache://"):
    _url = urlsplit(os.environ["CACHE_URL"])
    os.environ["CACHE_URL"] = urlunsplit(
        _url._replace(path=f"/{XDIST_CACHE_DB_BASE + int(_worker[2:])}"))

from config.settings import *  # noqa: E402,F401,F403
from config.settings import STORAGES

# The test client speaks plain HTTP; every other security setting stays as in production.
SECURE_SSL_REDIRECT = False
# Tests render admin pages without running collectstatic first.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
WHITENOISE_USE_FINDERS = True
# Hashing strength is not what tests measure; client secrets are hashed all the same.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "channel_auth.hashers.ClientSecretHasher",
]
# Tests see a revoked token or a deactivated channel at once; the accepted-token cache's
# own tests (tests/channel_auth/test_token_cache.py) switch it on.
API_AUTH_CACHE_SECONDS = 0
# Dashboards count on each view, so a test sees its own claims at once; the shared
# figures' own tests (tests/workbench/test_dashboard_figures.py) switch it on.
DASHBOARD_FIGURES_SECONDS = 0
