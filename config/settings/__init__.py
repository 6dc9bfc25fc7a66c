"""Settings for the claims back office.

Every value comes from the environment (12-factor, django-environ) and has a local
default that starts the service with nothing else installed: SQLite, local file
storage, a file-system Celery broker. Production sets the variables listed in
docs/configuration.md, which is written from the declarations (config.settings.registry).
One module per concern, read in this order; then a variable under one of our prefixes that
none of them declared stops the start (a typo would otherwise be ignored).
"""

from config.settings.base import *  # noqa: F401,F403
from config.settings.documents import *  # noqa: F401,F403
from config.settings.security import *  # noqa: F401,F403
from config.settings.api import *  # noqa: F401,F403
from config.settings.webhooks import *  # noqa: F401,F403
from config.settings.jobs import *  # noqa: F401,F403
from config.settings.correspondence import *  # noqa: F401,F403
from config.settings.sro import *  # noqa: F401,F403
from config.settings.payouts import *  # noqa: F401,F403
from config.settings.decisions import *  # noqa: F401,F403
from config.settings.operations import *  # noqa: F401,F403
from config.settings.ledger_accounts import *  # noqa: F401,F403
from config.settings.privacy import *  # noqa: F401,F403
from config.settings.serving import *  # noqa: F401,F403
from config.settings.registry import check_environment

check_environment()
