"""``manage.py checkpoint [--out DIR]``: sign the heads of every match's log (Ed25519).

Prints the checkpoint JSON (``games.domain.checkpoints``); with ``--out`` (default:
``settings.CHECKPOINT_DIR`` when set) also saves ``<time>.checkpoint.json`` and the
``<time>.heads.json`` it signs. Copy both off the server (docs/audit.md); ``kierki
verify-checkpoint`` checks them later, offline.
``--generate-key`` prints a new private key for ``CHECKPOINT_SIGNING_KEY`` and its public key.
"""

from __future__ import annotations

import json

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from games.domain import checkpoints
from games.write.checkpointing import checkpoint_take


class Command(BaseCommand):
    help = "Sign a checkpoint of every match's head (prints it; --out DIR also saves it with its heads file)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--out", metavar="DIR", help="save the checkpoint and its heads file here (default: CHECKPOINT_DIR, if set)"
        )
        parser.add_argument("--heads", action="store_true", help="print the heads file too (after the checkpoint)")
        parser.add_argument("--generate-key", action="store_true", help="print a new signing key and exit")

    def handle(self, *args, out=None, heads=False, generate_key=False, **options):
        if generate_key:
            key = Ed25519PrivateKey.generate()
            self.stdout.write(f"CHECKPOINT_SIGNING_KEY={checkpoints.private_key_b64(key)}")
            self.stdout.write(
                gettext("# public key (give it to the club): %(key)s") % {"key": checkpoints.public_key_b64(key)}
            )
            return
        try:
            taken = checkpoint_take(out_dir=out or getattr(settings, "CHECKPOINT_DIR", "") or None)
        except (ImproperlyConfigured, ValueError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(json.dumps(taken.checkpoint))
        if heads:
            self.stdout.write(json.dumps(taken.heads))
        if taken.checkpoint_path is not None:
            self.stderr.write(
                gettext("saved %(checkpoint)s and %(heads)s")
                % {"checkpoint": taken.checkpoint_path, "heads": taken.heads_path}
            )
