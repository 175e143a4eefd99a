"""``manage.py club_archive export SLUG --out FILE`` and ``club_archive import FILE``: the club's own
archive (``kierki-club/1``, ``scoring.club_export``), and reading it into an instance that has
neither the club nor its matches (``scoring.club_import``). docs/club-admin.md says what is in it."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from games.domain.exceptions import InvalidInput
from games.models import Match
from games.read.audit import audit_matches
from scoring.club_export import club_export
from scoring.club_import import club_import
from scoring.models import Club


class Command(BaseCommand):
    help = "Export a club to one ZIP archive (kierki-club/1), or import such an archive into an empty instance."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True)
        export = actions.add_parser("export", help="write the club's archive")
        export.add_argument("slug", help="the club's slug")
        export.add_argument("--out", metavar="FILE", required=True)
        read = actions.add_parser("import", help="read a club's archive into this (empty) instance")
        read.add_argument("archive", metavar="FILE")

    def handle(self, *args, action, **options):
        if action == "export":
            self.export(options["slug"], Path(options["out"]))
        else:
            self.read(Path(options["archive"]))

    def export(self, slug: str, out: Path) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(gettext("no club %(id)s") % {"id": slug})
        with out.open("wb") as file:
            manifest = club_export(club=club, out=file)
        self.stdout.write(
            gettext("%(club)s: %(matches)s matches written to %(file)s (%(left)s still in play left out)")
            % {"club": club.name, "matches": manifest["matches"], "file": out, "left": len(manifest["left_out"])}
        )

    def read(self, archive: Path) -> None:
        try:
            imported = club_import(archive=str(archive))
        except (InvalidInput, OSError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            gettext("%(club)s: %(matches)s matches and %(seasons)s seasons imported")
            % {"club": imported.club.name, "matches": imported.matches, "seasons": imported.seasons}
        )
        failing = audit_matches(
            match_ids=Match.objects.filter(season_match__season__league__club=imported.club).values_list(
                "pk", flat=True
            )
        )
        for match_id, failures in failing.items():
            self.stdout.write(gettext("match %(id)s: %(failure)s") % {"id": match_id, "failure": "; ".join(failures)})
        if not imported.standings_equal:
            self.stdout.write(gettext("the standings rebuilt differ from the archive's (were they up to date?)"))
        if failing:
            raise CommandError(
                gettext("%(count)s imported matches fail the audit") % {"count": len(failing)}, returncode=1
            )
        self.stdout.write(self.style.SUCCESS(gettext("every imported match audits clean")))
