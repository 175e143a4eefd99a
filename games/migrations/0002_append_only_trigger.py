"""On PostgreSQL, a trigger rejects UPDATE and DELETE on the event log: append-only even for raw SQL.

TRUNCATE (a table-level privilege; the test runner empties tables with it) is left to grants."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION games_matchevent_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'games_matchevent is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_matchevent_append_only
    BEFORE UPDATE OR DELETE ON games_matchevent
    FOR EACH STATEMENT EXECUTE FUNCTION games_matchevent_append_only();
"""
DROP = """
DROP TRIGGER IF EXISTS games_matchevent_append_only ON games_matchevent;
DROP FUNCTION IF EXISTS games_matchevent_append_only();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)  # no params: the % in RAISE is not a placeholder


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
