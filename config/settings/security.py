"""Security headers, cookies and the Content-Security-Policy, and the hosted pages."""

from csp.constants import NONCE, NONE, SELF

from config.settings.base import BASE_URL, DEBUG
from config.settings.registry import Concern, env

security = Concern("Security", "config/settings/security.py: production values unless "
                   "`DJANGO_DEBUG`")
hosted_pages = Concern("Hosted pages", "config/settings/security.py: the insured person's "
                       "pages (docs/whitelabel.md)")
_ON_UNLESS_DEBUG = "on when `DJANGO_DEBUG` is off"

# --- Security: production values unless DEBUG (the local `make run`) ---------------
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = security.read(
    "SECURE_SSL_REDIRECT", env.bool, not DEBUG, "redirect plain http to https",
    shown=_ON_UNLESS_DEBUG, production="behind a proxy that sets `X-Forwarded-Proto`; "
    "`/saude/` is exempt")
SECURE_HSTS_SECONDS = security.read(
    "SECURE_HSTS_SECONDS", env.int, 0 if DEBUG else 31536000, "HSTS's max-age",
    shown="`31536000` (a year) when `DJANGO_DEBUG` is off, else `0`")
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SESSION_COOKIE_SECURE = security.read(
    "SESSION_COOKIE_SECURE", env.bool, not DEBUG, "the session cookie is sent over https "
    "only", shown=_ON_UNLESS_DEBUG)
CSRF_COOKIE_SECURE = security.read(
    "CSRF_COOKIE_SECURE", env.bool, not DEBUG, "the CSRF cookie is sent over https only",
    shown=_ON_UNLESS_DEBUG)
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
WHITELABEL_BASE_URL = hosted_pages.read(
    "WHITELABEL_BASE_URL", env.str, BASE_URL, "the hosted pages' public address, written "
    "into `gerar-url`'s links", shown="`BASE_URL`").rstrip("/")
# A channel's links last this long unless its "Páginas do segurado" entry says otherwise.
WHITELABEL_LINK_LIFETIME_HOURS = hosted_pages.read(
    "WHITELABEL_LINK_LIFETIME_HOURS", env.int, 24, "hours a link lasts; a channel's own "
    "lifetime in the admin wins")
# Link exchanges per client address, and upload links per session, per window.
WHITELABEL_EXCHANGE_RATE_LIMIT = hosted_pages.read(
    "WHITELABEL_EXCHANGE_RATE_LIMIT", env.int, 20, "link openings per client address, per "
    "`WHITELABEL_RATE_WINDOW_SECONDS`")
WHITELABEL_UPLOAD_RATE_LIMIT = hosted_pages.read(
    "WHITELABEL_UPLOAD_RATE_LIMIT", env.int, 30, "upload links per session, per "
    "`WHITELABEL_RATE_WINDOW_SECONDS`")
WHITELABEL_RATE_WINDOW_SECONDS = hosted_pages.read(
    "WHITELABEL_RATE_WINDOW_SECONDS", env.int, 600, "the window of the two limits above")
# Copies from "Seus documentos" per client address, per window (like the letters' PDFs).
WHITELABEL_DOWNLOAD_RATE_LIMIT = hosted_pages.read(
    "WHITELABEL_DOWNLOAD_RATE_LIMIT", env.int, 30, "copies from \"Seus documentos\" per "
    "client address, per `WHITELABEL_DOWNLOAD_RATE_WINDOW_SECONDS`; each download is "
    "recorded ([docs/whitelabel.md](whitelabel.md))")
WHITELABEL_DOWNLOAD_RATE_WINDOW_SECONDS = hosted_pages.read(
    "WHITELABEL_DOWNLOAD_RATE_WINDOW_SECONDS", env.int, 60, "the window of the limit above")
