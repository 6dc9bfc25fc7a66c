"""Letters to people: the e-mail transport, the insurer's own words, the sending job."""

from config.settings.base import VAR_DIR, env

# --- Transport -----------------------------------------------------------------------------
# EMAIL_URL in django-environ's form: smtp+tls://user:password@host:587, smtps://...,
# consolemail://, filemail:///absolute/path. By default (filemail://) messages are written
# as files under var/mail (one per message: `make run` needs no mail server, and you can
# open them).
# An ESP through django-anymail: set EMAIL_BACKEND (e.g.
# anymail.backends.amazon_ses.EmailBackend) and its ANYMAIL settings; its delivery
# reports arrive at /anymail/... (docs/correspondence.md).
_email_url = env.str("EMAIL_URL", default="") or "filemail://"
_email = env.email_url_config(_email_url)
EMAIL_BACKEND = env.str("EMAIL_BACKEND", default=_email["EMAIL_BACKEND"])
EMAIL_HOST = _email.get("EMAIL_HOST") or "localhost"
EMAIL_PORT = _email.get("EMAIL_PORT") or 25
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS"))
EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL"))
# django-environ drops the leading "/" of filemail:///absolute/path: put it back.
_file_path = _email.get("EMAIL_FILE_PATH") or ""
if _file_path and _email_url.startswith("filemail:///"):
    _file_path = "/" + _file_path
EMAIL_FILE_PATH = _file_path or str(VAR_DIR / "mail")
# A server that does not answer within this many seconds is a failed try, retried later.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=20)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="sinistros@seguradora.example")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The right-hand side of every Message-ID (<message id@domain>).
EMAIL_MESSAGE_ID_DOMAIN = env.str(
    "EMAIL_MESSAGE_ID_DOMAIN", default=DEFAULT_FROM_EMAIL.rpartition("@")[2] or "localhost")
ANYMAIL = {"WEBHOOK_SECRET": env.str("ANYMAIL_WEBHOOK_SECRET", default="")}

# --- Sending -------------------------------------------------------------------------------
# Tries per message before it is marked failed (shown on the claim page to resend).
EMAIL_MAX_ATTEMPTS = env.int("EMAIL_MAX_ATTEMPTS", default=5)
# Wait before the n-th retry: this many seconds x 2^(n-1) (1, 2, 4, 8 minutes by default).
EMAIL_RETRY_SECONDS = env.int("EMAIL_RETRY_SECONDS", default=60)
# A worker holds a message this long while it sends; past it (the worker died), the
# sweep hands the message to another worker.
EMAIL_LEASE_SECONDS = env.int("EMAIL_LEASE_SECONDS", default=120)

# --- The insurer's words in every letter ----------------------------------------------------
INSURER_NAME = env.str("INSURER_NAME", default="Seguradora Exemplo S.A.")
# The insurer's identification and the person who signs every letter (its foot). The
# defaults are demonstration values (a made-up company, a CNPJ with valid check digits
# that belongs to no one): production sets all four. A CNPJ whose check digits fail
# stops the start (correspondence.checks).
INSURER_CNPJ = env.str("INSURER_CNPJ", default="12.345.678/0001-95")
INSURER_ADDRESS = env.str(
    "INSURER_ADDRESS",
    default="Avenida Paulista, 1000, 10º andar, Bela Vista, São Paulo/SP, CEP 01310-100")
INSURER_SIGNATORY_NAME = env.str("INSURER_SIGNATORY_NAME", default="Helena Duarte Lima")
INSURER_SIGNATORY_ROLE = env.str("INSURER_SIGNATORY_ROLE", default="Diretora de Sinistros")
INSURER_OMBUDSMAN_TEXT = env.str(
    "INSURER_OMBUDSMAN_TEXT",
    default="0800 000 0000 (dias úteis, das 8h às 18h) ou ouvidoria@seguradora.example; "
            "responde em até 10 dias úteis.")
SUSEP_CONSUMER_TEXT = env.str(
    "SUSEP_CONSUMER_TEXT",
    default="atendimento ao consumidor em www.gov.br/susep e na plataforma "
            "consumidor.gov.br.")
# How long a person has to ask for a denial to be reconsidered: the letter prints the
# date, counted from the day of the denial (or of the answer that kept it).
RECONSIDERATION_DAYS = env.int("RECONSIDERATION_DAYS", default=30)

# --- Letter PDFs -----------------------------------------------------------------------------
# Downloads of letter PDFs (the channel's signed links and the hosted pages' copies) per
# client address, per window; past it, 429 with Retry-After. Each PDF is drawn once and
# then served from the storage (correspondence.downloads.stored_pdf).
LETTER_PDF_RATE_LIMIT = env.int("LETTER_PDF_RATE_LIMIT", default=30)
LETTER_PDF_RATE_WINDOW_SECONDS = env.int("LETTER_PDF_RATE_WINDOW_SECONDS", default=60)
