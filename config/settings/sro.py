"""Registering claims with a registradora (SUSEP's SRO): docs/sro.md."""

from config.settings.registry import Concern, env

sro = Concern("SRO registrations", "config/settings/sro.py: the registradora, deadlines, "
              "sending ([docs/sro.md](sro.md))")
_NOT_SENT = ("empty: registrations are built and kept, not sent (`make run`: the local "
             "registradora on `127.0.0.1:8070`)")

# The registradora's API (B3's "Registro de Sinistro – V3" layout). Empty: registrations
# are built and kept, but nothing is sent, and the admin says so.
SRO_API_URL = sro.read("SRO_API_URL", env.str, "", "the registradora's API", shown=_NOT_SENT)
# The client for that registradora (sro.client.Registradora); B3 by default.
SRO_CLIENT_CLASS = sro.read("SRO_CLIENT_CLASS", env.str, "sro.client.B3Client",
                            "the registradora's client (another registradora's, in its place)")
# OAuth 2.0 client credentials at the registradora.
SRO_TOKEN_URL = sro.read("SRO_TOKEN_URL", env.str, "", "the registradora's OAuth 2.0 "
                         "token endpoint", shown=_NOT_SENT)
SRO_CLIENT_ID = sro.read("SRO_CLIENT_ID", env.str, "", "our OAuth 2.0 client id there")
SRO_CLIENT_SECRET = sro.read("SRO_CLIENT_SECRET", env.str, "", "that client's secret")
# The client certificate (mutual TLS) the registradora asks for; optional.
SRO_CERT_FILE = sro.read("SRO_CERT_FILE", env.str, "", "the client certificate (mutual TLS) "
                         "the registradora asks for")
SRO_KEY_FILE = sro.read("SRO_KEY_FILE", env.str, "", "that certificate's key")
# The insurer's SUSEP code (codigo_seguradora, up to 5 characters).
SUSEP_CODIGO_SEGURADORA = sro.read("SUSEP_CODIGO_SEGURADORA", env.str, "00000",
                                   "the insurer's SUSEP code (up to 5 characters)")
# The beat job sends what is due every this many seconds, in batches of this many claims.
SRO_SEND_INTERVAL_SECONDS = sro.read("SRO_SEND_INTERVAL_SECONDS", env.int, 60,
                                     "how often the beat sends what is due")
SRO_BATCH_SIZE = sro.read("SRO_BATCH_SIZE", env.int, 50, "claims per request")
# Business days after the fact (notice, evaluation concluded, payment settled) within
# which it must be registered (Circular SUSEP 601/2020; docs/sro.md cites what was read).
SRO_DEADLINE_BUSINESS_DAYS = sro.read(
    "SRO_DEADLINE_BUSINESS_DAYS", env.int, 2, "business days after the fact within which it "
    "must be registered")
# Which days are not business days: "BR" (national public holidays, the holidays library)
# or "BVMF" (B3's own calendar, which also closes on Carnaval and 24 and 31 December).
SRO_HOLIDAY_CALENDAR = sro.read(
    "SRO_HOLIDAY_CALENDAR", env.str, "BR", "which days are not business days",
    shown="`BR` (national holidays)", production="`BVMF` for B3's calendar (closed on Carnaval)")
# Local holidays on top: "YYYY-MM-DD" (that day) or "MM-DD" (every year), comma-separated.
SRO_LOCAL_HOLIDAYS = sro.read(
    "SRO_LOCAL_HOLIDAYS", env.list, [], "local holidays on top, as `YYYY-MM-DD` or `MM-DD`, "
    "comma-separated")
# One request to the registradora may take this long (seconds) before it is a failed try.
SRO_TIMEOUT_SECONDS = sro.read("SRO_TIMEOUT_SECONDS", env.float, 30.0,
                               "seconds a request may take")
# A failed try (429, 5xx, timeout) waits this many seconds x 2^(n-1), at most SRO_RETRY_MAX.
SRO_RETRY_SECONDS = sro.read("SRO_RETRY_SECONDS", env.int, 60, "the wait after a 429, a 5xx "
                             "or a timeout, doubling after each")
SRO_RETRY_MAX_SECONDS = sro.read("SRO_RETRY_MAX_SECONDS", env.int, 60 * 60,
                                 "the longest of those waits")
# A worker holds what it sends this long; past it (the worker died) another one sends it.
SRO_LEASE_SECONDS = sro.read("SRO_LEASE_SECONDS", env.int, 120,
                             "how long a worker holds what it sends")
