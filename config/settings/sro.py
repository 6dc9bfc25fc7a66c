"""Registering claims with a registradora (SUSEP's SRO): docs/sro.md."""

from config.settings.base import env

# The registradora's API (B3's "Registro de Sinistro – V3" layout). Empty: registrations
# are built and kept, but nothing is sent, and the admin says so.
SRO_API_URL = env.str("SRO_API_URL", default="")
# The client for that registradora (sro.client.Registradora); B3 by default.
SRO_CLIENT_CLASS = env.str("SRO_CLIENT_CLASS", default="sro.client.B3Client")
# OAuth 2.0 client credentials at the registradora.
SRO_TOKEN_URL = env.str("SRO_TOKEN_URL", default="")
SRO_CLIENT_ID = env.str("SRO_CLIENT_ID", default="")
SRO_CLIENT_SECRET = env.str("SRO_CLIENT_SECRET", default="")
# The client certificate (mutual TLS) the registradora asks for; optional.
SRO_CERT_FILE = env.str("SRO_CERT_FILE", default="")
SRO_KEY_FILE = env.str("SRO_KEY_FILE", default="")
# The insurer's SUSEP code (codigo_seguradora, up to 5 characters).
SUSEP_CODIGO_SEGURADORA = env.str("SUSEP_CODIGO_SEGURADORA", default="00000")
# The beat job sends what is due every this many seconds, in batches of this many claims.
SRO_SEND_INTERVAL_SECONDS = env.int("SRO_SEND_INTERVAL_SECONDS", default=60)
SRO_BATCH_SIZE = env.int("SRO_BATCH_SIZE", default=50)
# Business days after the fact (notice, evaluation concluded, payment settled) within
# which it must be registered (Circular SUSEP 601/2020; docs/sro.md cites what was read).
SRO_DEADLINE_BUSINESS_DAYS = env.int("SRO_DEADLINE_BUSINESS_DAYS", default=2)
# Which days are not business days: "BR" (national public holidays, the holidays library)
# or "BVMF" (B3's own calendar, which also closes on Carnaval and 24 and 31 December).
SRO_HOLIDAY_CALENDAR = env.str("SRO_HOLIDAY_CALENDAR", default="BR")
# Local holidays on top: "YYYY-MM-DD" (that day) or "MM-DD" (every year), comma-separated.
SRO_LOCAL_HOLIDAYS = env.list("SRO_LOCAL_HOLIDAYS", default=[])
# One request to the registradora may take this long (seconds) before it is a failed try.
SRO_TIMEOUT_SECONDS = env.float("SRO_TIMEOUT_SECONDS", default=30.0)
# A failed try (429, 5xx, timeout) waits this many seconds x 2^(n-1), at most SRO_RETRY_MAX.
SRO_RETRY_SECONDS = env.int("SRO_RETRY_SECONDS", default=60)
SRO_RETRY_MAX_SECONDS = env.int("SRO_RETRY_MAX_SECONDS", default=60 * 60)
# A worker holds what it sends this long; past it (the worker died) another one sends it.
SRO_LEASE_SECONDS = env.int("SRO_LEASE_SECONDS", default=120)
