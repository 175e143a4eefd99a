"""Results the table signs (issue 11): decide, for the matches filed before, whether their result
is confirmed — by the two rules that need no signature (games/domain/confirmation.py):

- ``filed``: every filer (creator, scorer) is staff or a scorer, arbiter or admin of the match's
  club (its season's), and none of them sits in it;
- ``online``: server-dealt, finished, every card played by its seat's own user.

Other matches wait for two seated players to confirm them (or an arbiter to withdraw them).
Standings are not rewritten here: run ``manage.py rebuild_standings`` after migrating.
"""

from django.db import migrations

OFFICIAL = ("scorer", "arbiter", "admin")
SEATS = ("north", "east", "south", "west")


def decide(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    MatchEvent = apps.get_model("games", "MatchEvent")
    Membership = apps.get_model("scoring", "Membership")
    SeasonMatch = apps.get_model("scoring", "SeasonMatch")
    User = Match._meta.get_field("created_by").related_model
    staff = set(User.objects.filter(is_staff=True).values_list("pk", flat=True))
    club_of = dict(SeasonMatch.objects.values_list("match_id", "season__league__club_id"))
    officials = {}
    for club_id, user_id in Membership.objects.filter(role__in=OFFICIAL).values_list("club_id", "user_id"):
        officials.setdefault(club_id, set()).add(user_id)
    fields = ["pk", "dealing", "status", "created_by_id", "scorer_id", *[f"{seat}__user_id" for seat in SEATS]]
    for pk, dealing, status, created_by, scorer, *seated in Match.objects.values_list(*fields).iterator():
        filers = {user for user in (created_by, scorer) if user is not None}
        club = officials.get(club_of.get(pk), set())
        filed = bool(filers) and all((user in staff or user in club) and user not in seated for user in filers)
        online = dealing == "server" and status == "finished" and _own_cards(MatchEvent, pk, dict(zip("NESW", seated)))
        if filed or online:
            Match.objects.filter(pk=pk).update(filed_by_official=filed, confirmed=True)


def _own_cards(MatchEvent, match_id, users) -> bool:
    plays = MatchEvent.objects.filter(match_id=match_id, type="card_played").values_list("payload", "actor_id")
    played = False
    for payload, actor in plays.iterator():
        if actor is None or users.get(payload.get("seat")) != actor:
            return False
        played = True
    return played


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_recompute_outbox"),
        ("games", "0005_roles_confirmation"),
    ]

    operations = [migrations.RunPython(decide, migrations.RunPython.noop)]
