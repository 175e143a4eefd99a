"""The committed contract: ``openapi.yaml`` at the repository root is the live schema. A change to
the API surface fails this test until the file is regenerated and the change recorded in CHANGELOG.md."""

REGENERATE = ".venv/bin/python manage.py spectacular --file openapi.yaml --validate --fail-on-warn"


def test_the_live_schema_is_the_committed_openapi_yaml(openapi_schema, committed_openapi):
    live = openapi_schema  # as `manage.py spectacular` writes it (support.fixtures)
    committed = committed_openapi

    assert live == committed, (
        "The live OpenAPI schema differs from the committed openapi.yaml: the API contract changed. "
        "If the change is deliberate, regenerate the file with\n"
        f"    {REGENERATE}\n"
        "and record the change in CHANGELOG.md (removals and renames belong in /api/v2/, see docs/api.md, "
        "'Versioning and deprecation')."
    )
