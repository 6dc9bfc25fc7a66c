"""A hasher for machine-generated client secrets.

Channel secrets are 128 random characters from a 62-letter alphabet (over 700 bits): no
dictionary or brute-force search can reach one, so the slow, deliberately expensive
password hashers protect nothing here and only turn ``/oauth/token`` into a CPU lever
(a wrong secret cost 0.6 s of CPU with PBKDF2). A salted SHA-256, compared in constant
time, is what a secret of this entropy needs (the reasoning of RFC 9700 §4.x for
high-entropy tokens, and of GitHub's and Stripe's API keys).

Only client secrets use it (``OAUTH2_PROVIDER["CLIENT_SECRET_HASHER"]``); people's
passwords keep Django's default hasher, which stays first in ``PASSWORD_HASHERS``.
"""

import hashlib

from django.contrib.auth.hashers import BasePasswordHasher, mask_hash
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext_noop as _


class ClientSecretHasher(BasePasswordHasher):
    algorithm = "client_secret_sha256"

    def encode(self, password, salt):
        self._check_encode_args(password, salt)
        digest = hashlib.sha256(f"{salt}${password}".encode()).hexdigest()
        return f"{self.algorithm}${salt}${digest}"

    def decode(self, encoded):
        algorithm, salt, digest = encoded.split("$", 2)
        assert algorithm == self.algorithm
        return {"algorithm": algorithm, "hash": digest, "salt": salt}

    def verify(self, password, encoded):
        decoded = self.decode(encoded)
        return constant_time_compare(encoded, self.encode(password, decoded["salt"]))

    def safe_summary(self, encoded):
        decoded = self.decode(encoded)
        return {
            _("algorithm"): decoded["algorithm"],
            _("salt"): mask_hash(decoded["salt"], show=2),
            _("hash"): mask_hash(decoded["hash"]),
        }

    def must_update(self, encoded):
        return False

    def harden_runtime(self, password, encoded):
        pass  # one hash, always the same cost: nothing to even out
