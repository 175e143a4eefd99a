"""The backup tests sign their checkpoints with a key of their own (a fresh one each run)."""

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from games.domain import checkpoints


@pytest.fixture(autouse=True)
def _signing_key(settings):
    settings.CHECKPOINT_SIGNING_KEY = checkpoints.private_key_b64(Ed25519PrivateKey.generate())
