"""The core settings: paths, the secret key, apps, middleware, database, cache,
templates. The rest is in this package's other modules, by concern (config.settings)."""

from pathlib import Path

from django.conf import global_settings
from django.core.exceptions import ImproperlyConfigured

from config.settings.registry import Concern, env

BASE_DIR = Path(__file__).resolve().parents[2]
VAR_DIR = BASE_DIR / "var"

core = Concern("Core", "config/settings/base.py: the secret key, hosts, addresses, database, cache")
admin_login = Concern("Admin login", "config/settings/base.py: lockout (django-axes) and the "
                                     "client's address behind proxies")

DEBUG = core.read("DJANGO_DEBUG", env.bool, False, "development mode: no HTTPS redirect, "
                  "HSTS or secure cookies, an insecure local key allowed",
                  shown="false (`make run` sets `true`)", production="`false`")

# --- Secret key and the first run ---------------------------------------------------------
# DEBUG off means production: HTTPS redirect, HSTS, secure cookies. A fresh checkout run
# with nothing set would answer every request with a permanent HTTPS redirect that
# browsers remember, and would sign sessions and derive the webhook encryption key from a
# public value. So without a real SECRET_KEY the service refuses to start unless DEBUG is
# on (`make run` sets DJANGO_DEBUG=true); the local key below exists only for that case.
INSECURE_LOCAL_SECRET_KEY = "django-insecure-local-development-only"
SECRET_KEY = core.read(
    "SECRET_KEY", env.str, "", "signs sessions and links; the webhook encryption key is "
    "derived from it unless WEBHOOK_ENCRYPTION_KEY is set",
    shown="none: with `DJANGO_DEBUG` off the service refuses to start without one (an "
          "insecure local key only when `DJANGO_DEBUG=true`)",
    production="a long random value")
if not SECRET_KEY or SECRET_KEY.startswith("django-insecure"):
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY não definida (ou insegura) com DJANGO_DEBUG desligado, que é o modo "
            "de produção (redirecionamento HTTPS, HSTS). Para desenvolver, use `make run` ou "
            "defina DJANGO_DEBUG=true; em produção, defina SECRET_KEY com um valor longo e "
            "aleatório, por exemplo: python -c \"import secrets; "
            "print(secrets.token_urlsafe(50))\""
        )
    SECRET_KEY = SECRET_KEY or INSECURE_LOCAL_SECRET_KEY
ALLOWED_HOSTS = core.read("ALLOWED_HOSTS", env.list, ["127.0.0.1", "localhost", "testserver"],
                          "host names the service answers to", production="the public host names")
CSRF_TRUSTED_ORIGINS = core.read(
    "CSRF_TRUSTED_ORIGINS", env.list, [], "origins (`https://host`) trusted for the admin's "
    "forms besides the request's own host", production="only when the admin is served "
    "under another origin than its host (a proxy rewriting the host)")

# Public addresses written into responses: problem types, links, docs.
BASE_URL = core.read("BASE_URL", env.str, "http://127.0.0.1:8000",
                     "the API's public address", production="the API's public `{base_url}`"
                     ).rstrip("/")
AUTH_URL = core.read("AUTH_URL", env.str, BASE_URL, "where `/oauth/token` is served",
                     shown="`BASE_URL`", production="`{auth_url}`").rstrip("/")
PROBLEMS_URL = core.read("PROBLEMS_URL", env.str, f"{BASE_URL}/api/v1/problemas",
                         "the base of problem `type`s", shown="`BASE_URL/api/v1/problemas`",
                         production="`{problems_url}` of problem `type`s").rstrip("/")

INSTALLED_APPS = [
    "workbench.apps.WorkbenchAdminConfig",  # django.contrib.admin with the dashboard home
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "oauth2_provider",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "idempotency",
    "api_common",  # the problem pages' templates and stylesheet
    "claims",
    "channel_auth",  # channels' OAuth 2.0 token endpoint and API authentication
    "workbench",  # the analysts' admin and dashboard
    "webhooks",
    "whitelabel",
    "anymail",  # e-mail providers' backends and delivery reports (correspondence)
    "correspondence",
    "sro",  # registering claims with a registradora (SUSEP's SRO)
    "sandbox",  # partners' test channels move their own claims
    "payouts",  # payment orders to the bank (CNAB 240 remittances and returns)
    "decisions",  # claims decided by rules people read (shadow, sampling, never a denial)
    "ledger",  # the books: reserve ledger, monthly close, PSL, triangles, entries
    "privacy",  # keeping and forgetting: retention clock, holds, LGPD requests, who looked
    "config",  # manage.py settings_docs: docs/configuration.md from the declared settings
]
# The development tools (localdev: seed_demo and the demo's data, the local registradora,
# the local bank) with DEBUG, or where LOCAL_DEV_TOOLS says so (the tests, CI's live
# server); production settings never install them (docs/operations.md).
LOCAL_DEV_TOOLS = core.read(
    "LOCAL_DEV_TOOLS", env.bool, DEBUG,
    "installs the development tools (`localdev`: `seed_demo`, the local registradora and "
    "bank; docs/operations.md)", shown="`DJANGO_DEBUG`'s value", production="`false`")
if LOCAL_DEV_TOOLS:
    INSTALLED_APPS.append("localdev")

MIDDLEWARE = [
    # First: its request id and duration cover everything below (see "Operations").
    "api_common.request_log.RequestLogMiddleware",
    # First: errors on the machine paths become problem JSON whoever answered them, and
    # /api/v1 responses are marked no-store.
    "api_common.middleware.MachinePathMiddleware",
    # Before anything reads the request: a charset it cannot be read in is a 415.
    "api_common.charsets.RefuseUnreadableCharsetMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it answers locked-out logins.
    "axes.middleware.AxesMiddleware",
]

# Admin login lockout (django-axes): AXES_FAILURE_LIMIT failures lock that username *from
# that address* for AXES_COOLOFF_HOURS (the pair: typos behind a shared NAT lock only
# their author, and knowing a login does not let anyone lock its owner out). An address
# alone is refused past ADMIN_LOGIN_FAILURES_PER_ADDRESS failures in the window
# (workbench.admin_login). Unlock with `manage.py axes_reset_username USER` or
# `manage.py axes_reset_ip IP` (docs/analysts.md).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = admin_login.read("AXES_FAILURE_LIMIT", env.int, 5,
                                      "failed admin logins that lock a (username, address) pair")
AXES_COOLOFF_TIME = admin_login.read("AXES_COOLOFF_HOURS", env.float, 1.0,
                                     "hours a locked (username, address) pair stays locked")
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
ADMIN_LOGIN_FAILURES_PER_ADDRESS = admin_login.read(
    "ADMIN_LOGIN_FAILURES_PER_ADDRESS", env.int, 100, "failed admin logins from one address, "
    "any usernames, per `AXES_COOLOFF_HOURS`, past which that address is refused")
ADMIN_LOGIN_FAILURE_WINDOW_SECONDS = int(AXES_COOLOFF_TIME * 3600)
AXES_RESET_ON_SUCCESS = True
# The client's address (lockout, hosted-page rate limits) behind AXES_PROXY_COUNT proxies
# (django-ipware). 0: the connection's own address; X-Forwarded-For is ignored, since a
# client could write it. 1: deploy/nginx.conf, which sets X-Forwarded-For to the client's
# address alone (docs/operations.md).
_proxy_count = admin_login.read(  # (a deprecated name to django-axes)
    "AXES_PROXY_COUNT", env.int, 0, "proxies in front of the service whose `X-Forwarded-For` "
    "names the client", shown="`0` (the connection's address; `X-Forwarded-For` ignored)",
    production="`1` behind `deploy/nginx.conf`: the client address for the lockout, token "
               "failure limits and hosted pages' rate limits comes from its `X-Forwarded-For`")
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"] if _proxy_count else ["REMOTE_ADDR"]
)
# django-ipware counts the proxies listed in X-Forwarded-For before the last one.
AXES_IPWARE_PROXY_COUNT = _proxy_count - 1 if _proxy_count else None
AXES_LOCKOUT_TEMPLATE = "admin/locked_out.html"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "workbench.admin.context_processors.admin_branding",
            ],
        },
    },
]

_EMBEDDED_DATABASE = VAR_DIR / "db.sqlite3"
DATABASES = {
    "default": core.read("DATABASE_URL", env.db, f"sqlite:///{_EMBEDDED_DATABASE}",
                         "the database", shown="`sqlite:///var/db.sqlite3`",
                         production="`postgres://user:pass@host:5432/db` (psycopg 3)"),
}
if DATABASES["default"]["NAME"] == str(_EMBEDDED_DATABASE):
    VAR_DIR.mkdir(exist_ok=True)  # the embedded default lives in var/ (git-ignored)
# Persistent connections: opening one costs more than a short request (a GET of a claim
# ran at half the speed without them). Each web process keeps its connection for up to
# DATABASE_CONN_MAX_AGE seconds, and checks it is alive before reusing it after a request,
# so a database restart costs no failed request. 0 closes it after every request. Celery
# workers close theirs around each task (celery.fixups.django) whatever this says.
DATABASES["default"].setdefault("CONN_MAX_AGE", core.read(
    "DATABASE_CONN_MAX_AGE", env.int, 600, "seconds each process keeps its database "
    "connection, checked before reuse (`CONN_HEALTH_CHECKS`)", production="`0` closes it "
    "after every request (only behind a pooler such as PgBouncer in transaction mode)"))
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded database (make run, make test): a write transaction takes SQLite's
    # write lock when it begins (IMMEDIATE), so two requests writing at once (a
    # double-clicked form) queue for up to 20 s instead of one failing with "database is
    # locked" after a read; the second then meets the claim's version check as on
    # PostgreSQL.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# The queue indexes INCLUDE columns so PostgreSQL answers the dashboard from the index
# alone; SQLite (the embedded database) builds them without those columns, which changes
# nothing it returns: its warning about it says nothing to act on.
SILENCED_SYSTEM_CHECKS = ["models.W040"]

CACHES = {
    # Rate limits are counted in the cache: production points this at Redis so every
    # web process shares the counters. Without it each process counts alone
    # (api_common.ratelimit), so Redis is never on a request's critical path.
    "default": core.read(
        "CACHE_URL", env.cache, "locmemcache://claims", "the shared cache",
        shown="local memory", production="`rediscache://host:6379/1` (token rate limits "
        "and the webhook workers' attempt counters for `/metricas` are shared through it; "
        "while it does not answer, each process counts alone)"),
}
# A Redis that does not answer costs a request this much once, not a hung thread.
CACHE_TIMEOUT_SECONDS = core.read(
    "CACHE_TIMEOUT_SECONDS", env.float, 0.5, "how long a Redis cache call may take before "
    "the process counts alone for 5 s")
if CACHES["default"]["BACKEND"].endswith("RedisCache"):
    CACHES["default"].setdefault("OPTIONS", {}).update(
        socket_connect_timeout=CACHE_TIMEOUT_SECONDS, socket_timeout=CACHE_TIMEOUT_SECONDS)

# People's passwords use Django's default (first) hasher; channels' random client secrets
# use a salted SHA-256 fit for their entropy (channel_auth/hashers.py). Stored hashes name
# the hasher's algorithm ("client_secret_sha256$..."), not this path.
PASSWORD_HASHERS = [*global_settings.PASSWORD_HASHERS, "channel_auth.hashers.ClientSecretHasher"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "pt-br"
LANGUAGES = [("pt-br", "Português (Brasil)")]
# Analysts read local time in the admin; the API always writes UTC ("...Z").
TIME_ZONE = core.read("TIME_ZONE", env.str, "America/Sao_Paulo",
                      "local time of the admin's display and of the validity-date rule")
USE_I18N = True
USE_TZ = True
# Analysts read and type money as 1.234,56 (forms accept the thousands separator too).
USE_THOUSAND_SEPARATOR = True
FORMAT_MODULE_PATH = ["config.formats"]

STATIC_URL = "static/"
STATIC_ROOT = core.read("STATIC_ROOT", env.path, BASE_DIR / "staticfiles",
                        "where `manage.py collectstatic` gathers the static files WhiteNoise serves")
MEDIA_ROOT = core.read("MEDIA_ROOT", env.path, VAR_DIR / "media",
                       "where the `local` document storage keeps files")
MEDIA_URL = "media/"
