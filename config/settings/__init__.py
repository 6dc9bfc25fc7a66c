"""Settings for the claims back office.

Every value comes from the environment (12-factor, django-environ) and has a local
default that starts the service with nothing else installed: SQLite, local file
storage, a file-system Celery broker. Production sets the variables listed in the
README ("Configuration"). One module per concern, read in this order.
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
