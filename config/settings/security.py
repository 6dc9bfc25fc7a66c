"""Security headers, cookies and the Content-Security-Policy, and the hosted pages."""

from csp.constants import NONCE, NONE, SELF

from config.settings.base import BASE_URL, DEBUG, env

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
# Copies from "Seus documentos" per client address, per window (like the letters' PDFs).
WHITELABEL_DOWNLOAD_RATE_LIMIT = env.int("WHITELABEL_DOWNLOAD_RATE_LIMIT", default=30)
WHITELABEL_DOWNLOAD_RATE_WINDOW_SECONDS = env.int("WHITELABEL_DOWNLOAD_RATE_WINDOW_SECONDS",
                                                  default=60)
