"""What `make test-fast` leaves out (tests/conftest.py marks them `slow` and, under `-m "not slow"`,
does not even import the files): docs/testing.md, "Markers, the fast subset, lint"."""

# What `make test-fast` leaves out: tests that start servers, browsers or worker processes, or fuzz
# (folders and files), and the longest end-to-end runs (single tests, by node id).
SLOW = (
    "tests/fuzz/",
    "tests/live/",
    "tests/faults/",
    "tests/bench/",
    "tests/ops/test_ops_compose.py",
    "tests/scoring/test_scoring_worker.py",
    "tests/scoring/test_scoring_seed_demo.py",
    "tests/clients/",
    "tests/ops/test_ops_shared_limits.py",
    "tests/ops/test_ops_signin_concurrency.py",  # gunicorn and uvicorn, 60 concurrent sign-ins
    "tests/ops/test_ops_body_limit.py",
    "tests/ops/test_ops_attack.py",  # gunicorn, uvicorn and nginx under attack (issue 30)
    "tests/ops/test_ops_replica.py",
    "tests/ops/test_ops_make_run.py",  # make run and seed_demo in subprocesses
    "tests/ops/test_ops_settings.py",  # each test starts Python on other settings
    "tests/i18n/test_i18n_settings.py",  # the same, for the language and time zone
    "tests/backups/test_backup_sqlite.py",  # backup make, restore, verify as processes on a migrated file database
    # a whole evening of 13 members seated, filed by tally, ranked and printed (the rest of the file stays)
    "tests/scoring/test_scoring_evening_e2e.py::test_an_evening_of_13_members_is_seated_filed_by_tally_ranked_and_printed",
    "tests/scoring/test_scoring_evenings.py::test_an_evening_of_13_members_over_4_rounds_seats_files_and_ranks",
    # drf-spectacular's validation of the whole schema (the fast subset compares it with openapi.yaml)
    "tests/api/test_api_problems.py::test_the_schema_validates_without_warnings",
    # whole matches or evenings in one test (each 1.5–3 s; the fast subset keeps shorter ones of each)
    "tests/api/test_api_play.py::test_four_players_play_a_whole_server_dealt_deal_each_from_his_own_view",
    "tests/api/test_api_duplicates.py::test_a_match_filed_card_by_card_is_caught_when_its_record_is_imported_afterwards",
    "tests/audit/test_audit_rulings.py::test_voiding_the_last_deal_reopens_the_match_for_a_replacement_of_the_same_deal",
    "tests/audit/test_audit_standings.py::test_a_voided_deal_leaves_the_standings_once_its_replacement_is_played",
    "tests/scoring/test_scoring_evenings.py::test_swiss_seating_puts_the_evenings_leaders_together",
    "tests/scoring/test_scoring_evenings.py::test_a_late_arrival_is_seated_from_the_next_round",
    "tests/scoring/test_scoring_evenings.py::test_a_player_who_withdraws_is_not_seated_again",
    "tests/scoring/test_scoring_services.py::test_rulings_rescore_and_rerate_the_matches_they_change",
    # whole seasons rebuilt for each example (a property: `make test` runs it on all its examples)
    "tests/scoring/test_scoring_properties.py::test_incremental_recomputes_equal_a_full_rebuild",
    # runs mypyc and a C compiler on the solver (about 10 s)
    "tests/engine/test_engine_compiled.py::test_compiled_with_mypyc_the_search_gives_the_sources_answers_node_for_node",
    # exhaustive checks: the audit's time travel at each of a deal's 53 positions (other tests take a
    # few), and R33's points search against every tally of two takers (R33's cases stay fast)
    "tests/audit/test_audit_timetravel.py::test_every_event_of_a_sample_deal_shows_the_state_replay_gives_for_that_prefix",
    "tests/engine/test_engine_tally.py::test_the_points_search_agrees_with_enumerating_every_tally_of_two_takers",
)
SLOW_FILES = tuple(entry for entry in SLOW if "::" not in entry)
