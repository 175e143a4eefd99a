"""Issue 28: people named in the event log by ``Player.public_id``; ``EventSeal`` for legacy events
redacted at an erasure; the append-only trigger lets an erasure's redaction through (only with
``SET LOCAL kierki.redacting = 'on'``, which ``games.write.redaction`` sets in its transaction)."""

import secrets

from django.db import migrations, models

import games.models

FUNCTION = """
CREATE OR REPLACE FUNCTION games_matchevent_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND current_setting('kierki.redacting', true) = 'on' THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'games_matchevent is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
"""
ORIGINAL = """
CREATE OR REPLACE FUNCTION games_matchevent_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'games_matchevent is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
"""


def give_public_ids(apps, schema_editor):
    Player = apps.get_model("games", "Player")
    for player in Player.objects.only("pk"):
        Player.objects.filter(pk=player.pk).update(public_id="p" + secrets.token_hex(8))


def allow_redaction(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTION, params=None)


def forbid_redaction(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(ORIGINAL, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0011_deal_corrected")]

    operations = [
        migrations.AddField(
            model_name="player", name="public_id", field=models.CharField(max_length=17, null=True, editable=False)
        ),
        migrations.RunPython(give_public_ids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="public_id",
            field=models.CharField(default=games.models.new_public_id, editable=False, max_length=17, unique=True),
        ),
        migrations.AddField(
            model_name="player",
            name="erased_number",
            field=models.PositiveIntegerField(blank=True, editable=False, null=True, unique=True),
        ),
        migrations.CreateModel(
            name="EventSeal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seq", models.PositiveIntegerField()),
                ("hash", models.CharField(max_length=64)),
                ("previous", models.CharField(max_length=64)),
                ("digest", models.CharField(max_length=64)),
                ("public_key", models.CharField(max_length=44)),
                ("signature", models.CharField(max_length=88)),
                ("sealed_at", models.DateTimeField()),
                (
                    "match",
                    models.ForeignKey(on_delete=models.deletion.PROTECT, related_name="seals", to="games.match"),
                ),
            ],
            options={"constraints": [models.UniqueConstraint(fields=("match", "seq"), name="one_seal_per_event")]},
        ),
        migrations.RunPython(allow_redaction, forbid_redaction),
    ]
