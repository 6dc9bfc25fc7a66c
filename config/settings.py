"""Settings for the claims back office.

Every value comes from the environment (12-factor, django-environ) and has a local
default that starts the service with nothing else installed: SQLite, local file
storage, a file-system Celery broker. Production sets the variables listed in the
README ("Configuration").
"""

from decimal import Decimal
from pathlib import Path

import environ
from csp.constants import NONCE, NONE, SELF
from django.conf import global_settings
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from api_common.request_log import JSON_FORMATTER

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()

DEBUG = env.bool("DJANGO_DEBUG", default=False)

# --- Secret key and the first run ---------------------------------------------------------
# DEBUG off means production: HTTPS redirect, HSTS, secure cookies. A fresh checkout run
# with nothing set would answer every request with a permanent HTTPS redirect that
# browsers remember, and would sign sessions and derive the webhook encryption key from a
# public value. So without a real SECRET_KEY the service refuses to start unless DEBUG is
# on (`make run` sets DJANGO_DEBUG=true); the local key below exists only for that case.
INSECURE_LOCAL_SECRET_KEY = "django-insecure-local-development-only"
SECRET_KEY = env.str("SECRET_KEY", default="")
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
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# Public addresses written into responses: problem types, links, docs.
BASE_URL = env.str("BASE_URL", default="http://127.0.0.1:8000").rstrip("/")
AUTH_URL = env.str("AUTH_URL", default=BASE_URL).rstrip("/")
PROBLEMS_URL = env.str("PROBLEMS_URL", default=f"{BASE_URL}/api/v1/problemas").rstrip("/")

INSTALLED_APPS = [
    "claims.apps.ClaimsAdminConfig",  # django.contrib.admin with the dashboard home
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
    "webhooks",
    "whitelabel",
]

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

# Admin login lockout (django-axes): AXES_FAILURE_LIMIT failures lock that username and,
# separately, that client address, for AXES_COOLOFF_HOURS. Unlock with
# `manage.py axes_reset_username USER` or `manage.py axes_reset_ip IP` (README).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=1.0)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
# The client's address (lockout, hosted-page rate limits) behind AXES_PROXY_COUNT proxies
# (django-ipware). 0: the connection's own address; X-Forwarded-For is ignored, since a
# client could write it. 1: deploy/nginx.conf, which sets X-Forwarded-For to the client's
# address alone (docs/operations.md).
_proxy_count = env.int("AXES_PROXY_COUNT", default=0)  # (a deprecated name to django-axes)
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
                "claims.admin.context_processors.admin_branding",
            ],
        },
    },
]

if "DATABASE_URL" not in env:
    VAR_DIR.mkdir(exist_ok=True)  # the embedded default lives in var/ (git-ignored)
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
# Persistent connections: opening one costs more than a short request (a GET of a claim
# ran at half the speed without them). Each web process keeps its connection for up to
# DATABASE_CONN_MAX_AGE seconds, and checks it is alive before reusing it after a request,
# so a database restart costs no failed request. 0 closes it after every request. Celery
# workers close theirs around each task (celery.fixups.django) whatever this says.
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DATABASE_CONN_MAX_AGE", default=600))
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
    "default": env.cache("CACHE_URL", default="locmemcache://claims"),
}
if CACHES["default"]["BACKEND"].endswith("RedisCache"):
    # A Redis that does not answer costs a request this much once, not a hung thread.
    CACHE_TIMEOUT_SECONDS = env.float("CACHE_TIMEOUT_SECONDS", default=0.5)
    CACHES["default"].setdefault("OPTIONS", {}).update(
        socket_connect_timeout=CACHE_TIMEOUT_SECONDS, socket_timeout=CACHE_TIMEOUT_SECONDS)

# People's passwords use Django's default (first) hasher; channels' random client secrets
# use a salted SHA-256 fit for their entropy (claims/oauth/hashers.py).
PASSWORD_HASHERS = [*global_settings.PASSWORD_HASHERS, "claims.oauth.hashers.ClientSecretHasher"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "pt-br"
LANGUAGES = [("pt-br", "Português (Brasil)")]
# Analysts read local time in the admin; the API always writes UTC ("...Z").
TIME_ZONE = env.str("TIME_ZONE", default="America/Sao_Paulo")
USE_I18N = True
USE_TZ = True
# Analysts read and type money as 1.234,56 (forms accept the thousands separator too).
USE_THOUSAND_SEPARATOR = True
FORMAT_MODULE_PATH = ["config.formats"]

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
MEDIA_ROOT = env.path("MEDIA_ROOT", default=VAR_DIR / "media")
MEDIA_URL = "media/"

# --- Claim documents -------------------------------------------------------------------
# "local": files under MEDIA_ROOT, uploaded through the service's own signed PUT URL.
# "s3": any S3-compatible bucket, uploaded straight to it with pre-signed PUT URLs.
DOCUMENT_STORAGE = env.str("DOCUMENT_STORAGE", default="local")
UPLOAD_URL_EXPIRE_SECONDS = env.int("UPLOAD_URL_EXPIRE_SECONDS", default=15 * 60)
DOWNLOAD_URL_EXPIRE_SECONDS = env.int("DOWNLOAD_URL_EXPIRE_SECONDS", default=5 * 60)
UPLOAD_MAX_BYTES = env.int("UPLOAD_MAX_BYTES", default=20 * 1024 * 1024)
# Extension -> media type. The media type is bound into the upload URL.
UPLOAD_ALLOWED_TYPES = env.dict(
    "UPLOAD_ALLOWED_TYPES",
    default={
        "pdf": "application/pdf",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "png": "image/png",
        "heic": "image/heic",
        "heif": "image/heif",
    },
)
# Origins allowed to PUT to the local upload URL from a browser (the hosted pages).
UPLOAD_CORS_ALLOWED_ORIGINS = env.list("UPLOAD_CORS_ALLOWED_ORIGINS", default=["*"])
# Shared secret of S3-compatible bucket notifications (POST /armazenamento/notificacoes).
STORAGE_NOTIFICATION_TOKEN = env.str("STORAGE_NOTIFICATION_TOKEN", default="")
AWS_STORAGE_BUCKET_NAME = env.str("AWS_STORAGE_BUCKET_NAME", default="sinistros-documentos")
AWS_S3_REGION_NAME = env.str("AWS_S3_REGION_NAME", default="us-east-1")
AWS_S3_ENDPOINT_URL = env.str("AWS_S3_ENDPOINT_URL", default="") or None
AWS_ACCESS_KEY_ID = env.str("AWS_ACCESS_KEY_ID", default="") or None
AWS_SECRET_ACCESS_KEY = env.str("AWS_SECRET_ACCESS_KEY", default="") or None
AWS_S3_SIGNATURE_VERSION = "s3v4"
AWS_S3_ADDRESSING_STYLE = env.str("AWS_S3_ADDRESSING_STYLE", default="path")
AWS_QUERYSTRING_AUTH = True  # never a public URL
AWS_QUERYSTRING_EXPIRE = DOWNLOAD_URL_EXPIRE_SECONDS
AWS_DEFAULT_ACL = None
AWS_S3_FILE_OVERWRITE = False

STORAGES = {
    "default": {
        "BACKEND": (
            "storages.backends.s3.S3Storage"
            if DOCUMENT_STORAGE == "s3"
            else "django.core.files.storage.FileSystemStorage"
        )
    },
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- Claims back office -----------------------------------------------------------------
# Analysts register payments up to this amount; above it, a supervisor (R$).
PAYMENT_AUTHORITY_LIMIT = Decimal(env.str("PAYMENT_AUTHORITY_LIMIT", default="50000.00"))
# Documents pending this many days make a "Cobrar documentos" task for the owner.
DOCUMENT_REMINDER_DAYS = env.int("DOCUMENT_REMINDER_DAYS", default=7)
# A regulatory deadline this many days away makes a "Decidir até"/"Pagar até" task.
DEADLINE_TASK_DAYS = env.int("DEADLINE_TASK_DAYS", default=5)
# Brazil's minimum wage (R$), for the regulatory clock: a coverage whose LMI is at most
# 500 minimum wages allows one suspension of the decision deadline (Lei 15.040/2024).
MINIMUM_WAGE = Decimal(env.str("MINIMUM_WAGE", default="1621.00"))

# --- Security: production values unless DEBUG (the local `make run`) ---------------
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp) on every page: only our own scripts, styles and
# images; an inline style needs the response's nonce (the hosted pages' brand colour).
# The hosted upload page adds the storage's origin to connect-src (whitelabel.views).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# --- Hosted pages for the insured person (whitelabel) ---------------------------------
# Public address of the hosted pages, written into gerar-url's links.
WHITELABEL_BASE_URL = env.str("WHITELABEL_BASE_URL", default=BASE_URL).rstrip("/")
# A channel's links last this long unless its "Páginas do segurado" entry says otherwise.
WHITELABEL_LINK_LIFETIME_HOURS = env.int("WHITELABEL_LINK_LIFETIME_HOURS", default=24)
# Link exchanges per client address, and upload links per session, per window.
WHITELABEL_EXCHANGE_RATE_LIMIT = env.int("WHITELABEL_EXCHANGE_RATE_LIMIT", default=20)
WHITELABEL_UPLOAD_RATE_LIMIT = env.int("WHITELABEL_UPLOAD_RATE_LIMIT", default=30)
WHITELABEL_RATE_WINDOW_SECONDS = env.int("WHITELABEL_RATE_WINDOW_SECONDS", default=600)

# --- API -------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["claims.authentication.ChannelTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["claims.authentication.IsChannel"],
    "DEFAULT_PARSER_CLASSES": ["api_common.parsers.StrictJSONParser"],
    "DEFAULT_THROTTLE_CLASSES": ["claims.throttles.ChannelRateThrottle"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api_common.problems.problem_exception_handler",
    "COERCE_DECIMAL_TO_STRING": False,
    "UNAUTHENTICATED_USER": None,
}

# Requests per minute per channel, counted in the cache (Redis in production); a
# channel's own values in the admin override these. Past a limit: 429 with Retry-After.
API_THROTTLE_PER_MINUTE = env.int("API_THROTTLE_PER_MINUTE", default=600)
UPLOAD_URL_THROTTLE_PER_MINUTE = env.int("UPLOAD_URL_THROTTLE_PER_MINUTE", default=60)

# URL parameters as the contract names them (Django's converters need identifiers).
OPENAPI_PATH_PARAMETER_NAMES = {
    "sale_id": "id-venda",
    "number": "numero-sinistro",
    "subscription_id": "id-webhook",
    "delivery_id": "id-entrega",
    "file_id": "id",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Sinistros API",
    "DESCRIPTION": (
        "Contrato de sinistros para canais parceiros: vendas, abertura e consulta de "
        "sinistros, documentos, saldo devedor, links whitelabel e webhooks."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No badge from the public validator (an outside image the page's CSP refuses).
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "displayOperationId": True,
                            "validatorUrl": None},
    "COMPONENT_SPLIT_REQUEST": True,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    # Enums that would otherwise be named after a field ("Eventos-habilitadosEnum").
    "ENUM_NAME_OVERRIDES": {
        "EventoEnum": "webhooks.services.SUBSCRIBABLE_EVENTS",
        "EventoOuPingEnum": "webhooks.serializers.DELIVERY_EVENTS",
        "EstadoDisjuntorEnum": "webhooks.serializers.BREAKER_STATES",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api_common.openapi_hooks.contract_path_parameters",
        "api_common.openapi_hooks.request_string_rules",
        "claims.oauth.schema.token_operation",
        "claims.documents.schema.upload_operation",
        "api_common.openapi_hooks.common_responses",
        "claims.schema.operation_links",
        "webhooks.schema.operation_links",
        "idempotency.openapi.idempotency_header",
    ],
}

# --- OAuth 2.0 (client credentials) ----------------------------------------------------
OAUTH2_PROVIDER = {
    "ACCESS_TOKEN_EXPIRE_SECONDS": env.int("ACCESS_TOKEN_EXPIRE_SECONDS", default=12 * 60 * 60),
    "SCOPES": {"claims": "Sinistros do canal"},
    "DEFAULT_SCOPES": ["claims"],
    "OAUTH2_BACKEND_CLASS": "claims.oauth.backends.CheckedTokenRequestCore",
    "OAUTH2_VALIDATOR_CLASS": "claims.oauth.validators.ChannelOAuth2Validator",
    "CLIENT_SECRET_HASHER": "client_secret_sha256",
    # RFC 9700 (OAuth 2.0 Security BCP). Only client credentials are used, but nothing
    # else should be open either; tokens are stored hashed, never in plaintext.
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_SCHEME": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https"],
}
# django-oauth-toolkit's default, named here because claims' first migration points its
# foreign key at this setting (the other models' settings are left to their defaults).
OAUTH2_PROVIDER_APPLICATION_MODEL = "oauth2_provider.Application"
# An accepted bearer token is not looked up again by the same web process for this long
# (nor past its expiry): a revoked token or a deactivated channel takes up to this long
# to be refused everywhere. 0: every call looks the token up.
API_AUTH_CACHE_SECONDS = env.int("API_AUTH_CACHE_SECONDS", default=10)
# Token issuance per client, counted in a fixed window (a token is meant to be reused
# for its whole lifetime, so a healthy client asks a few times a day).
TOKEN_RATE_LIMIT = env.int("TOKEN_RATE_LIMIT", default=20)
TOKEN_RATE_WINDOW_SECONDS = env.int("TOKEN_RATE_WINDOW_SECONDS", default=3600)
# Failed client authentications, counted per claimed client id from one address and
# per address, reserved before any secret is looked at; past either, 429 until the
# window ends. Per client id and address: failures from elsewhere never lock a channel
# out of its own address.
TOKEN_FAILURE_LIMIT_PER_CLIENT_ADDRESS = env.int("TOKEN_FAILURE_LIMIT_PER_CLIENT_ADDRESS",
                                                 default=10)
TOKEN_FAILURE_LIMIT_PER_ADDRESS = env.int("TOKEN_FAILURE_LIMIT_PER_ADDRESS", default=20)
TOKEN_FAILURE_WINDOW_SECONDS = env.int("TOKEN_FAILURE_WINDOW_SECONDS", default=600)

# --- Webhooks ---------------------------------------------------------------------------
# Destinations are untrusted input: loopback, private, link-local, metadata... are refused
# unless inside one of these CIDRs (development and tests; `make run` sets 127.0.0.0/8),
# and plain http is accepted only to them.
WEBHOOK_ALLOWED_NETWORKS = env.list("WEBHOOK_ALLOWED_NETWORKS", default=[])
# Saving a subscription resolves its host: a name that does not answer within this
# long is refused (the request does not hold a web thread for the resolver's 5 s).
WEBHOOK_RESOLVE_TIMEOUT_SECONDS = env.float("WEBHOOK_RESOLVE_TIMEOUT_SECONDS", default=2.0)
WEBHOOK_CONNECT_TIMEOUT_SECONDS = env.float("WEBHOOK_CONNECT_TIMEOUT_SECONDS", default=5.0)
WEBHOOK_READ_TIMEOUT_SECONDS = env.float("WEBHOOK_READ_TIMEOUT_SECONDS", default=15.0)
# The whole of one attempt (connect, send, the answer's head and excerpt): a receiver
# dripping its answer a byte at a time is cut off here.
WEBHOOK_ATTEMPT_DEADLINE_SECONDS = env.float("WEBHOOK_ATTEMPT_DEADLINE_SECONDS", default=20.0)
# A worker holds a delivery for the deadline + this margin; past that, another worker
# takes it over (the first one is taken for dead).
WEBHOOK_LEASE_MARGIN_SECONDS = env.float("WEBHOOK_LEASE_MARGIN_SECONDS", default=30.0)
# Requests in flight at once in each delivery worker process (webhooks.pump), and to one
# subscription's endpoint at once, every worker together (docs/decisions.md).
WEBHOOK_MAX_IN_FLIGHT = env.int("WEBHOOK_MAX_IN_FLIGHT", default=100)
WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = env.int("WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT", default=8)
# The circuit breaker: this many failures in a row pause the endpoint for the first
# interval, doubled after each failed probe up to the last one.
WEBHOOK_BREAKER_FAILURES = env.int("WEBHOOK_BREAKER_FAILURES", default=5)
WEBHOOK_BREAKER_OPEN_SECONDS = env.float("WEBHOOK_BREAKER_OPEN_SECONDS", default=30.0)
WEBHOOK_BREAKER_MAX_OPEN_SECONDS = env.float("WEBHOOK_BREAKER_MAX_OPEN_SECONDS", default=3600.0)
# A pump hands its worker process back after this long (a new one goes on at once), so
# a worker serving every queue still runs the other tasks during a long backlog.
WEBHOOK_PUMP_MAX_SECONDS = env.float("WEBHOOK_PUMP_MAX_SECONDS", default=60.0)
# A pump with nothing to do keeps looking for new events this long before it returns,
# so a steady stream of events finds one at work instead of asking the broker each time.
WEBHOOK_PUMP_LINGER_SECONDS = env.float("WEBHOOK_PUMP_LINGER_SECONDS", default=2.0)
# Seconds to wait after each failed attempt (about three days in all), with jitter.
WEBHOOK_RETRY_SCHEDULE = [
    int(seconds) for seconds in env.list(
        "WEBHOOK_RETRY_SCHEDULE",
        default=["5", "300", "1800", "7200", "18000", "36000", "50400", "72000", "86400"],
    )
]
# A subscription failing without a single success for this long is disabled.
WEBHOOK_DISABLE_AFTER_DAYS = env.float("WEBHOOK_DISABLE_AFTER_DAYS", default=5.0)
# After a rotation, deliveries are signed with the old key too for this long.
WEBHOOK_SECRET_OVERLAP_DAYS = env.float("WEBHOOK_SECRET_OVERLAP_DAYS", default=7.0)
WEBHOOK_RESPONSE_EXCERPT_BYTES = env.int("WEBHOOK_RESPONSE_EXCERPT_BYTES", default=1024)
# Key for the subscription secrets at rest (Fernet, 32 url-safe base64 bytes). Empty:
# derived from SECRET_KEY, so rotating SECRET_KEY then needs `manage.py` re-encryption.
WEBHOOK_ENCRYPTION_KEY = env.str("WEBHOOK_ENCRYPTION_KEY", default="")
WEBHOOK_USER_AGENT = "Sinistros-Webhooks/1 (+{base})".format(base=BASE_URL)

# --- Jobs ------------------------------------------------------------------------------
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
CELERY_BROKER_TRANSPORT_OPTIONS = (
    {
        "data_folder_in": str(VAR_DIR / "broker"),
        "data_folder_out": str(VAR_DIR / "broker"),
        "processed_folder": str(VAR_DIR / "broker-processed"),
        # Kombu's exchange tables (its default is ./control, wherever the process starts).
        "control_folder": str(VAR_DIR / "broker-control"),
    }
    if CELERY_BROKER_URL.startswith("filesystem")
    # Publishing tries the broker once: a request (or a pump) never waits out kombu's
    # reconnection backoff (6 s against a stopped Redis); what it asked for is covered by
    # the outbox and the sweep. Workers' consumers reconnect on their own terms.
    else {"max_retries": 0}
)
# Webhook delivery has a queue of its own; every other task goes to the default one. A
# worker started without -Q consumes both (CELERY_TASK_QUEUES), so one worker is enough;
# production runs a worker per queue (README, "Workers").
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery")
CELERY_WEBHOOK_QUEUE = env.str("CELERY_WEBHOOK_QUEUE", default="webhooks")
CELERY_TASK_QUEUES = (Queue(CELERY_TASK_DEFAULT_QUEUE), Queue(CELERY_WEBHOOK_QUEUE))
CELERY_TASK_ROUTES = {"webhooks.tasks.*": {"queue": CELERY_WEBHOOK_QUEUE}}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    # Fans out outbox events the relay missed and re-enqueues due or stuck deliveries.
    "sweep-webhook-deliveries": {
        "task": "webhooks.tasks.sweep_deliveries",
        "schedule": env.int("WEBHOOK_SWEEP_SECONDS", default=30),
    },
    # Notices S3 uploads whose bucket notification was lost, and expires stale links.
    "sweep-pending-uploads": {
        "task": "claims.tasks.sweep_pending_uploads",
        "schedule": env.int("UPLOAD_SWEEP_SECONDS", default=60),
    },
    # The analysts' automatic tasks (chase documents, decide by the deadline) and the
    # escalation of overdue tasks to the team's supervisors; idempotent.
    "workbench-sweep": {
        "task": "claims.tasks.workbench_sweep",
        "schedule": env.int("WORKBENCH_SWEEP_SECONDS", default=15 * 60),
    },
    # Forgets Idempotency-Key answers past their retention.
    "purge-idempotency-keys": {
        "task": "idempotency.tasks.purge_keys",
        "schedule": env.int("IDEMPOTENCY_PURGE_SECONDS", default=60 * 60),
    },
    # Deletes expired OAuth tokens (one row per token issued; a client takes a few a day).
    "clear-expired-tokens": {
        "task": "claims.tasks.clear_expired_tokens",
        "schedule": env.int("TOKEN_CLEANUP_SECONDS", default=6 * 60 * 60),
    },
}

# A POST with an Idempotency-Key answers a retry with the same key and body with its
# first answer for this long (idempotency.services).
IDEMPOTENCY_KEY_HOURS = env.int("IDEMPOTENCY_KEY_HOURS", default=24)

# Paths whose callers are programs (the API, the token endpoint, uploads, the storage's
# notifications and downloads): errors there are problem JSON, never HTML pages
# (api_common.middleware); except the pages each problem's `type` opens, for people.
MACHINE_PATH_PREFIXES = ("/api/", "/oauth/", "/uploads/", "/armazenamento/")
PROBLEM_PAGES_PREFIX = "/api/v1/problemas/"

# --- Operations: health probes, structured logs (docs/operations.md) ----------------------
# Load balancers probe /saude/vivo and /saude/pronto over plain http (no redirect).
# /metricas is not exempt: its scrape carries a bearer token, which plain http would
# show to the network; Prometheus scrapes https://host/metricas through the proxy.
SECURE_REDIRECT_EXEMPT = [r"^saude/"]
# The Prometheus scrape (GET /metricas) answers only Authorization: Bearer <this>; empty,
# the endpoint is off (404). A long random value, like STORAGE_NOTIFICATION_TOKEN.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
# Seconds each readiness check (database, cache, broker, storage) may take.
HEALTH_CHECK_TIMEOUT_SECONDS = env.float("HEALTH_CHECK_TIMEOUT_SECONDS", default=3.0)
# Celery workers log through LOGGING below (JSON) instead of their own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# One JSON line per record on stderr, each with the request id of the request that
# logged it; one line per request from api_common.request_log. Django's own per-request
# lines (4xx warnings, runserver's access lines) repeat that line, so only their errors
# are kept.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "api_common.request_log.RequestIdFilter"},
        "refused_host": {"()": "api_common.request_log.RefusedHostFilter"},
        "failed_check": {"()": "api_common.request_log.FailedCheckFilter"},
    },
    "formatters": {
        "json": JSON_FORMATTER,
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "json",
        },
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "django.request": {"handlers": [], "level": "ERROR", "propagate": True},
        "django.server": {"handlers": [], "level": "ERROR", "propagate": True},
        # A Host outside ALLOWED_HOSTS: one warning line, no traceback.
        "django.security.DisallowedHost": {"handlers": [], "level": "WARNING",
                                           "filters": ["refused_host"], "propagate": True},
        # A failed readiness check: one line naming the error, not a traceback per probe.
        "health_check": {"handlers": [], "filters": ["failed_check"], "propagate": True},
    },
}
