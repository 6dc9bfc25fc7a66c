import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

# Django's handler, with requests that survive a Content-Type charset it cannot read
# (api_common.charsets): answered 415, never a 500.
from api_common.charsets import CharsetCheckedWSGIHandler  # noqa: E402

application = CharsetCheckedWSGIHandler()
