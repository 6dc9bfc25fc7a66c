"""Letters to people: the e-mail transport, the insurer's own words, the sending job."""

from config.settings.base import VAR_DIR
from config.settings.registry import Concern, env

letters = Concern("Letters", "config/settings/correspondence.py: the e-mail transport, the "
                  "insurer's own words, the sending job ([docs/correspondence.md](correspondence.md))")

# --- Transport -----------------------------------------------------------------------------
# EMAIL_URL in django-environ's form: smtp+tls://user:password@host:587, smtps://...,
# consolemail://, filemail:///absolute/path. By default (filemail://) messages are written
# as files under var/mail (one per message: `make run` needs no mail server, and you can
# open them).
# An ESP through django-anymail: set EMAIL_BACKEND (e.g.
# anymail.backends.amazon_ses.EmailBackend) and its ANYMAIL settings; its delivery
# reports arrive at /anymail/... (docs/correspondence.md).
_email_url = letters.read(
    "EMAIL_URL", env.str, "", "the e-mail transport", shown="`filemail://` (one file per "
    "message under `var/mail/`; `filemail:///abs/path` elsewhere)",
    production="`smtp+tls://user:password@host:587`, or `EMAIL_BACKEND` of an e-mail "
               "provider (django-anymail)") or "filemail://"
_email = env.email_url_config(_email_url)
EMAIL_BACKEND = letters.read(
    "EMAIL_BACKEND", env.str, _email["EMAIL_BACKEND"], "the Django e-mail backend, e.g. "
    "`anymail.backends.amazon_ses.EmailBackend`", shown="the one `EMAIL_URL` names")
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
EMAIL_TIMEOUT = letters.read("EMAIL_TIMEOUT", env.int, 20,
                             "seconds a mail server may take before the try fails")
DEFAULT_FROM_EMAIL = letters.read("DEFAULT_FROM_EMAIL", env.str, "sinistros@seguradora.example",
                                  "the sending address", production="the insurer's sending address")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The right-hand side of every Message-ID (<message id@domain>).
EMAIL_MESSAGE_ID_DOMAIN = letters.read(
    "EMAIL_MESSAGE_ID_DOMAIN", env.str, DEFAULT_FROM_EMAIL.rpartition("@")[2] or "localhost",
    "the right-hand side of every Message-ID", shown="the domain of `DEFAULT_FROM_EMAIL`")
ANYMAIL = {"WEBHOOK_SECRET": letters.read(
    "ANYMAIL_WEBHOOK_SECRET", env.str, "", "the provider's delivery reports",
    shown="empty (no report endpoints)", production="`user:password` the provider sends "
    "to `/anymail/<provider>/tracking/`")}

# --- Sending -------------------------------------------------------------------------------
# Tries per message before it is marked failed (shown on the claim page to resend).
EMAIL_MAX_ATTEMPTS = letters.read(
    "EMAIL_MAX_ATTEMPTS", env.int, 5, "a letter is tried this many times, then marked failed "
    "on the claim page")
# Wait before the n-th retry: this many seconds x 2^(n-1) (1, 2, 4, 8 minutes by default).
EMAIL_RETRY_SECONDS = letters.read("EMAIL_RETRY_SECONDS", env.int, 60,
                                   "the wait before the first retry, doubling after it")
# A worker holds a message this long while it sends; past it (the worker died), the
# sweep hands the message to another worker.
EMAIL_LEASE_SECONDS = letters.read(
    "EMAIL_LEASE_SECONDS", env.int, 120, "a worker holds a letter this long while it sends; "
    "past it, the sweep hands it to another worker")

# --- The insurer's words in every letter ----------------------------------------------------
INSURER_NAME = letters.read("INSURER_NAME", env.str, "Seguradora Exemplo S.A.",
                            "the insurer's name in every letter")
# The insurer's identification and the person who signs every letter (its foot). The
# defaults are demonstration values (a made-up company, a CNPJ with valid check digits
# that belongs to no one): production sets all four. A CNPJ whose check digits fail
# stops the start (correspondence.checks).
_DEMONSTRATION = "a demonstration value (a made-up insurer)"
INSURER_CNPJ = letters.read(
    "INSURER_CNPJ", env.str, "12.345.678/0001-95", "the insurer's CNPJ at the foot of every "
    "letter; a CNPJ with wrong check digits stops the start",
    shown="a demonstration value (its check digits are valid; no one's CNPJ)")
INSURER_ADDRESS = letters.read(
    "INSURER_ADDRESS", env.str,
    "Avenida Paulista, 1000, 10º andar, Bela Vista, São Paulo/SP, CEP 01310-100",
    "the insurer's address at the foot of every letter", shown=_DEMONSTRATION)
INSURER_SIGNATORY_NAME = letters.read("INSURER_SIGNATORY_NAME", env.str, "Helena Duarte Lima",
                                      "who signs every letter", shown=_DEMONSTRATION)
INSURER_SIGNATORY_ROLE = letters.read("INSURER_SIGNATORY_ROLE", env.str,
                                      "Diretora de Sinistros", "the signatory's role",
                                      shown=_DEMONSTRATION)
INSURER_OMBUDSMAN_TEXT = letters.read(
    "INSURER_OMBUDSMAN_TEXT", env.str,
    "0800 000 0000 (dias úteis, das 8h às 18h) ou ouvidoria@seguradora.example; "
    "responde em até 10 dias úteis.", "the insurer's ombudsman in every denial letter",
    shown=_DEMONSTRATION)
SUSEP_CONSUMER_TEXT = letters.read(
    "SUSEP_CONSUMER_TEXT", env.str,
    "atendimento ao consumidor em www.gov.br/susep e na plataforma consumidor.gov.br.",
    "SUSEP's consumer service in every denial letter", shown="SUSEP's public channels")
# How long a person has to ask for a denial to be reconsidered: the letter prints the
# date, counted from the day of the denial (or of the answer that kept it).
RECONSIDERATION_DAYS = letters.read(
    "RECONSIDERATION_DAYS", env.int, 30, "days a person has to ask for a denial to be "
    "reconsidered (the letter prints the date)")

# --- Letter PDFs -----------------------------------------------------------------------------
# Downloads of letter PDFs (the channel's signed links and the hosted pages' copies) per
# client address, per window; past it, 429 with Retry-After. Each PDF is drawn once and
# then served from the storage (correspondence.downloads.stored_pdf).
LETTER_PDF_RATE_LIMIT = letters.read(
    "LETTER_PDF_RATE_LIMIT", env.int, 30, "letter PDF downloads (signed links and hosted "
    "pages together) per client address, per `LETTER_PDF_RATE_WINDOW_SECONDS`; each PDF is "
    "drawn once, then served stored")
LETTER_PDF_RATE_WINDOW_SECONDS = letters.read("LETTER_PDF_RATE_WINDOW_SECONDS", env.int, 60,
                                              "the window of the limit above")
