"""The channels' API: DRF, the OpenAPI schema, request limits, OAuth 2.0."""

from config.settings.registry import Concern, env

api = Concern("The channels' API", "config/settings/api.py: request limits, OAuth 2.0 tokens")

# --- API -------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["channel_auth.authentication.ChannelTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["channel_auth.authentication.IsChannel"],
    "DEFAULT_PARSER_CLASSES": ["api_common.parsers.StrictJSONParser"],
    "DEFAULT_THROTTLE_CLASSES": ["claims.throttles.ChannelRateThrottle"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "api_common.schema.AutoSchema",
    "EXCEPTION_HANDLER": "api_common.problems.problem_exception_handler",
    "COERCE_DECIMAL_TO_STRING": False,
    "UNAUTHENTICATED_USER": None,
}

# Requests per minute per channel, counted in the cache (Redis in production); a
# channel's own values in the admin override these. Past a limit: 429 with Retry-After.
API_THROTTLE_PER_MINUTE = api.read(
    "API_THROTTLE_PER_MINUTE", env.int, 600, "calls per minute per channel",
    production="a channel's own values in the admin override it; 429 past it")
UPLOAD_URL_THROTTLE_PER_MINUTE = api.read(
    "UPLOAD_URL_THROTTLE_PER_MINUTE", env.int, 60, "upload URLs per minute per channel",
    production="a channel's own values in the admin override it; 429 past it")

SPECTACULAR_SETTINGS = {
    "TITLE": "Sinistros API",
    "DESCRIPTION": (
        "Contrato de sinistros para canais parceiros: vendas, abertura e consulta de "
        "sinistros, documentos, saldo devedor, links whitelabel e webhooks."
    ),
    "VERSION": "1",
    "OAS_VERSION": "3.1.0",
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
        "EventoOuTodosEnum": "webhooks.serializers.EVENTS_OR_ALL",
        "EventoOuPingEnum": "webhooks.serializers.DELIVERY_EVENTS",
        "EstadoDisjuntorEnum": "webhooks.serializers.BREAKER_STATES",
        "CodigoRecusaEnum": "claims.denials.DenialCode",
        # A beneficiary's relationship to the insured, and the requester's to the deceased.
        "ParentescoEnum": "claims.models.beneficiaries.Relationship",
        "ParentescoSolicitanteEnum": "claims.models.beneficiaries.RequesterRelationship",
    },
    # Every event a subscription receives, as OpenAPI 3.1 webhooks (first: it adds
    # components the other hooks then see).
    "POSTPROCESSING_HOOKS": [
        "webhooks.events_schema.published_events",
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api_common.openapi_hooks.contract_path_parameters",
        "channel_auth.schema.token_operation",
        "claims.documents.schema.upload_operation",
        "api_common.openapi_hooks.common_responses",
        "claims.schema.operation_links",
        "webhooks.schema.operation_links",
        "sandbox.schema.operation_links",
        "idempotency.openapi.idempotency_header",
    ],
}

# A sandbox channel (manage.py create_channel --sandbox) comes with this many sales of
# its own, every coverage free (docs/sandbox.md).
SANDBOX_SALES = api.read("SANDBOX_SALES", env.int, 10, "the sales a sandbox channel is "
                         "created with ([docs/sandbox.md](sandbox.md))")

# --- OAuth 2.0 (client credentials) ----------------------------------------------------
OAUTH2_PROVIDER = {
    "ACCESS_TOKEN_EXPIRE_SECONDS": api.read(
        "ACCESS_TOKEN_EXPIRE_SECONDS", env.int, 12 * 60 * 60, "seconds an access token "
        "lasts", shown="`43200` (12 h)"),
    "SCOPES": {"claims": "Sinistros do canal"},
    "DEFAULT_SCOPES": ["claims"],
    "OAUTH2_BACKEND_CLASS": "channel_auth.backends.CheckedTokenRequestCore",
    "OAUTH2_VALIDATOR_CLASS": "channel_auth.validators.ChannelOAuth2Validator",
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
# (nor past its expiry) while the shared generation is unchanged: a revoked token or a
# deactivated channel is refused on the next call in every process when the cache is
# Redis (channel_auth.revocation; docs/performance.md). 0: every call looks it up.
API_AUTH_CACHE_SECONDS = api.read(
    "API_AUTH_CACHE_SECONDS", env.int, 10, "an accepted token is not looked up again by the "
    "same process for this long", production="revoking a token or deactivating a channel "
    "takes effect on the next call in every process (a generation in the shared cache; one "
    "cache read per call); the window is back only without Redis (`CACHE_URL` unset: per "
    "process) or when Redis was away at the change "
    "([docs/performance.md](performance.md#bearer-authentication)); `0` looks up every call")
# Token issuance per client, counted in a fixed window (a token is meant to be reused
# for its whole lifetime, so a healthy client asks a few times a day).
TOKEN_RATE_LIMIT = api.read("TOKEN_RATE_LIMIT", env.int, 20,
                            "tokens per client per `TOKEN_RATE_WINDOW_SECONDS`")
TOKEN_RATE_WINDOW_SECONDS = api.read("TOKEN_RATE_WINDOW_SECONDS", env.int, 3600,
                                     "the window of `TOKEN_RATE_LIMIT`")
# Failed client authentications, counted per claimed client id from one address and
# per address, reserved before any secret is looked at; past either, 429 until the
# window ends. Per client id and address: failures from elsewhere never lock a channel
# out of its own address.
_RESERVED = "reserved before any secret is hashed (racing requests never pass it); 429 past it"
TOKEN_FAILURE_LIMIT_PER_CLIENT_ADDRESS = api.read(
    "TOKEN_FAILURE_LIMIT_PER_CLIENT_ADDRESS", env.int, 10, "failed authentications per "
    "client id from one address, per `TOKEN_FAILURE_WINDOW_SECONDS`", production=_RESERVED)
TOKEN_FAILURE_LIMIT_PER_ADDRESS = api.read(
    "TOKEN_FAILURE_LIMIT_PER_ADDRESS", env.int, 20, "failed authentications per address, "
    "per `TOKEN_FAILURE_WINDOW_SECONDS`", production=_RESERVED)
TOKEN_FAILURE_WINDOW_SECONDS = api.read("TOKEN_FAILURE_WINDOW_SECONDS", env.int, 600,
                                        "the window of the two limits above")
