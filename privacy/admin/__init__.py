"""Privacy's admin pages (docs/privacy.md), one module per concern: legal holds and the
retention list (holds), the retention runs and their evidence (runs), people's requests
(requests), and who read a claim's or a CPF's personal data (access)."""

from privacy.admin import access, holds, requests, runs  # noqa: F401
