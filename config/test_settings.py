"""Test settings: production settings (DEBUG off) with three local allowances."""

from config.settings import *  # noqa: F401,F403
from config.settings import STORAGES

# The test client speaks plain HTTP; every other security setting stays as in production.
SECURE_SSL_REDIRECT = False
# Tests render admin pages without running collectstatic first.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
WHITENOISE_USE_FINDERS = True
# Hashing strength is not what tests measure; client secrets are hashed all the same.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "claims.oauth.hashers.ClientSecretHasher",
]
