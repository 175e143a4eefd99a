"""The committed contract against the last release's (issue 29, item 3): ``openapi.yaml`` may
only add to ``api/releases/openapi-1.0.0.yaml`` (the file of the commit that released 1.0.0,
2026-11-30), unless CHANGELOG.md's unreleased section marks a break (docs/api.md, "Versioning
and deprecation"). The comparison is ``schema_diff``; the tests below show what it catches."""

import copy
from pathlib import Path

import pytest
from schema_diff import breaking_changes, marked
from support.fixtures import load_yaml

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def released():
    return load_yaml((ROOT / "api" / "releases" / "openapi-1.0.0.yaml").read_text())


@pytest.fixture(scope="module")
def committed(committed_openapi):
    return committed_openapi


def test_the_baseline_is_the_released_contract(released):
    assert released["info"]["version"] == "1.0.0"


def test_the_committed_contract_breaks_nothing_the_changelog_does_not_mark(released, committed):
    accepted = marked((ROOT / "CHANGELOG.md").read_text())

    unmarked = [change for change in breaking_changes(released, committed) if change not in accepted]

    assert unmarked == [], "breaking changes against 1.0.0: mark each in CHANGELOG.md as - BREAKING: `<key>`"


def test_every_mark_names_a_change_that_is_still_there(released, committed):
    """A mark left behind after the change was undone would hide the next one of that name."""
    assert marked((ROOT / "CHANGELOG.md").read_text()) <= set(breaking_changes(released, committed))


def test_the_v2_contract_breaks_nothing_of_its_baseline_the_changelog_does_not_mark(committed_openapi_v2):
    """/api/v2/ against its own baseline (api/releases/openapi-2.0.0-draft.yaml, the first v2 committed):
    until v2 is released a break is allowed, but marked like v1's."""
    baseline = load_yaml((ROOT / "api" / "releases" / "openapi-2.0.0-draft.yaml").read_text())
    committed_v2 = committed_openapi_v2
    accepted = marked((ROOT / "CHANGELOG.md").read_text())

    assert [change for change in breaking_changes(baseline, committed_v2) if change not in accepted] == []


# --- what the comparison catches, on the released contract itself ---------------------------------------


def test_an_unchanged_contract_breaks_nothing(released):
    assert breaking_changes(released, copy.deepcopy(released)) == []


def test_a_removed_operation_and_a_changed_status_break(released):
    changed = copy.deepcopy(released)
    del changed["paths"]["/api/v1/ping/"]["get"]
    responses = changed["paths"]["/api/v1/clubs/"]["post"]["responses"]
    responses["200"] = responses.pop("201")

    found = breaking_changes(released, changed)

    assert "GET /api/v1/ping/ removed" in found and "POST /api/v1/clubs/ 201 removed" in found


def test_a_renamed_operation_id_breaks(released):
    changed = copy.deepcopy(released)
    changed["paths"]["/api/v1/clubs/{id}/members/"]["get"]["operationId"] = "clubs_members_list"

    assert breaking_changes(released, changed) == [
        "GET /api/v1/clubs/{id}/members/ operationId clubs_members_retrieve renamed"
    ]


def test_a_removed_answer_field_and_a_type_made_nullable_break(released):
    changed = copy.deepcopy(released)
    club = changed["components"]["schemas"]["Club"]["properties"]
    del club["slug"]
    club["name"]["nullable"] = True

    found = breaking_changes(released, changed)

    assert "GET /api/v1/clubs/{id}/ 200: field slug removed" in found
    assert "GET /api/v1/clubs/{id}/ 200.name: type ['string'] became ['null', 'string']" in found


def test_a_new_required_request_field_and_a_narrowed_type_break(released, committed):
    changed = copy.deepcopy(released)
    body = changed["components"]["schemas"]["ClubInputRequest"]
    body["properties"]["motto"] = {"type": "string"}
    body["required"] = [*body.get("required", []), "motto"]
    body["properties"]["name"] = {"type": "integer"}

    found = breaking_changes(released, changed)

    assert "POST /api/v1/clubs/ request: field motto newly required" in found
    assert "POST /api/v1/clubs/ request.name: type ['string'] narrowed to ['integer']" in found


def test_additions_do_not_break(released):
    changed = copy.deepcopy(released)
    changed["paths"]["/api/v1/new/"] = {"get": {"responses": {"200": {"description": "new"}}}}
    changed["components"]["schemas"]["Club"]["properties"]["motto"] = {"type": "string"}
    changed["components"]["schemas"]["ClubInputRequest"]["properties"]["motto"] = {"type": "string"}

    assert breaking_changes(released, changed) == []


def test_only_the_unreleased_section_marks():
    changelog = (
        "# Changelog\n\n## [Unreleased]\n\n### Changed\n\n- BREAKING: `GET /api/v1/x/ removed` for v2.\n\n"
        "## [1.0.0] — 2026-11-30\n\n- BREAKING: `GET /api/v1/y/ removed`\n"
    )

    assert marked(changelog) == {"GET /api/v1/x/ removed"}
