"""Admin for insurer staff, in Portuguese. Read-only screens plus the analysts'
actions: every claim change goes through ``claims.services``, never a model form."""

from workbench.admin import (  # noqa: F401  (registers the model admins)
    claim,
    consequences,
    requirements_and_events,
    sales,
    teams,
)

