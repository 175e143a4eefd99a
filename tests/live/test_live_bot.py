"""games/cli/bot.py, the reference client behind `kierki play`: its HTTP plumbing against a scripted
local server, its decisions against a scripted API."""

import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from games.cli.bot import Api, ApiError, Bot, Policy, api_base, authorization

ROOT = Path(__file__).resolve().parents[2]
OLD_KEY = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"  # a key of the deprecated token endpoint: 40 hex digits


def test_the_bot_sends_oauth_and_personal_tokens_as_bearer_and_old_keys_as_token():
    assert authorization(OLD_KEY) == f"Token {OLD_KEY}"
    assert authorization("kpat_Zm9vYmFy") == "Bearer kpat_Zm9vYmFy"
    assert authorization("4YJD8ShDHM0QI1XhNUTJfhKTjuUebO") == "Bearer 4YJD8ShDHM0QI1XhNUTJfhKTjuUebO"  # OAuth


# --- HTTP: retries, backoff, idempotency -----------------------------------------------------------


class Scripted(BaseHTTPRequestHandler):
    """Answers each request with the next (status, headers, body) of ``server.script``."""

    def do_GET(self):
        self._answer()

    def do_POST(self):
        self._answer()

    def _answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.server.seen.append((self.command, self.path, dict(self.headers), self.rfile.read(length)))
        status, headers, body = self.server.script.pop(0)
        payload = json.dumps(body).encode()
        self.send_response(status)
        for name, value in {"Content-Type": "application/json", **headers}.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture
def scripted():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    server.script, server.seen = [], []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()


def api_for(server, delays: list) -> Api:
    return Api(f"http://127.0.0.1:{server.server_address[1]}", OLD_KEY, sleep=delays.append, retries=3)


def test_transient_answers_are_retried_with_growing_delays_and_the_same_idempotency_key(scripted):
    scripted.script = [(503, {}, {"code": "server_error"}), (502, {}, {}), (201, {"ETag": '"8"'}, {"version": 8})]
    delays = []

    body, headers = api_for(scripted, delays).post("matches/m/plays/", {"card": "QS"}, version=7)

    assert body == {"version": 8} and headers["ETag"] == '"8"'
    assert len(delays) == 2 and delays[1] > delays[0] > 0
    keys = {seen[2]["Idempotency-Key"] for seen in scripted.seen}
    assert len(scripted.seen) == 3 and len(keys) == 1
    old_key = f"Token {OLD_KEY}"
    assert all(seen[2]["If-Match"] == '"7"' and seen[2]["Authorization"] == old_key for seen in scripted.seen)
    assert json.loads(scripted.seen[0][3]) == {"card": "QS"}


def test_retry_after_is_honoured_and_a_request_still_running_is_retried(scripted):
    scripted.script = [
        (429, {"Retry-After": "4"}, {"code": "throttled"}),
        (409, {}, {"code": "idempotency_in_progress"}),
        (200, {}, {"ok": True}),
    ]
    delays = []

    body, _ = api_for(scripted, delays).get("ping/")

    assert body == {"ok": True} and delays[0] == 4.0 and len(delays) == 2


def test_final_answers_are_not_retried(scripted):
    scripted.script = [(404, {}, {"code": "not_found", "detail": "no match"}), (412, {}, {"code": "version_mismatch"})]
    delays = []
    api = api_for(scripted, delays)

    with pytest.raises(ApiError) as missing:
        api.get("matches/m/")
    with pytest.raises(ApiError) as stale:
        api.post("matches/m/plays/", {"card": "QS"}, version=3)

    assert (missing.value.status, missing.value.code) == (404, "not_found")
    assert (stale.value.status, stale.value.code) == (412, "version_mismatch")
    assert delays == []


def test_an_unreachable_server_is_retried_then_given_up():
    delays = []
    api = Api("http://127.0.0.1:9", "t", sleep=delays.append, retries=2, timeout=2)

    with pytest.raises(OSError):
        api.get("ping/")

    assert len(delays) == 2


def test_the_server_url_may_name_the_api_root_or_not():
    assert api_base("http://h:8000") == api_base("http://h:8000/") == "http://h:8000/api/v1/"
    assert api_base("https://h/api/v1/") == "https://h/api/v1/"


# --- decisions ------------------------------------------------------------------------------------


class FakeApi:
    """The match as a script of states; records the commands; 412 for the first POST if asked.
    Its command answers carry no state (an older server): the bot then reads the next one."""

    def __init__(self, states, *, stale_first=False, dealing="server", poll_time=0.0):
        self.states, self.posts, self.stale_first, self.dealing = list(states), [], stale_first, dealing
        self.polls, self.poll_time = 0, poll_time

    def get(self, path, **query):
        if path.endswith("/state/"):
            if "wait" in query:  # the state's long-poll
                self.polls += 1
                time.sleep(self.poll_time)
            return self.states.pop(0), {}
        return {"id": "m", "dealing": self.dealing, "status": "finished", "totals": {}, "winners": []}, {}

    def post(self, path, body, *, version=None):
        self.posts.append((path.split("/")[-2], body, version))
        if self.stale_first:
            self.stale_first = False
            raise ApiError(412, {"code": "version_mismatch"})
        return {}, {}


def state(version, *, seat="S", to_play=None, legal=(), status="in_progress", deal=True, sale=None, next_deal=None):
    return {
        "status": status,
        "role": "player",
        "seat": seat,
        "version": version,
        "complete": False,
        "next_deal": next_deal,
        "deal": None
        if not deal
        else {
            "number": 1,
            "to_play": to_play,
            "legal_cards": list(legal),
            "lead_sale": sale or {"can_sell": False, "holder": "E", "offers": []},
        },
    }


FINISHED = state(99, status="finished")


def test_a_412_makes_the_bot_read_the_state_again_and_play_on_the_new_version():
    api = FakeApi(
        [state(7, to_play="S", legal=["KS", "2H", "9D"]), state(8, to_play="S", legal=["KS", "9D"]), FINISHED],
        stale_first=True,
    )

    Bot(api, "m", Policy(strategy="low")).run()

    assert api.posts == [("plays", {"card": "2H"}, 7), ("plays", {"card": "9D"}, 8)]


def test_north_deals_when_a_deal_is_due_and_the_others_wait():
    due = {"number": 2, "kind": "odgrywka", "dealer": "E", "leader": "S", "compensating": False}
    north, east = (FakeApi([state(5, seat=seat, deal=False, next_deal=due), FINISHED]) for seat in "NE")

    Bot(north, "m").run()
    Bot(east, "m").run()

    assert north.posts == [("deals", {}, 5)] and north.polls == 0
    assert east.posts == [] and east.polls == 1


def test_players_offer_for_the_lead_and_the_holder_accepts_the_best_offer():
    open_sale = {"can_sell": True, "holder": "W", "offers": []}
    offers = [
        {"seq": 12, "buyer": "N", "price": 1},
        {"seq": 13, "buyer": "E", "price": 3},
        {"seq": 14, "buyer": "S", "price": 3},
    ]
    buyer = FakeApi(
        [state(10, seat="S", to_play="W", sale=open_sale), state(11, seat="S", to_play="W", sale=open_sale), FINISHED]
    )
    holder = FakeApi([state(14, seat="W", to_play="W", legal=["2C"], sale={**open_sale, "offers": offers}), FINISHED])

    Bot(buyer, "m", Policy(offer_rate=1, max_price=3)).run()
    Bot(holder, "m", Policy(accept_rate=1, offer_wait=60)).run()  # all three offered: no need to wait

    assert [(kind, version) for kind, _, version in buyer.posts] == [("lead-offers", None)]
    assert 1 <= buyer.posts[0][1]["price"] <= 3
    assert holder.posts == [("lead-decision", {"offer": 13}, 14)]


def test_the_holder_waits_for_offers_then_keeps_or_plays():
    open_sale = {"can_sell": True, "holder": "W", "offers": []}
    one_offer = {**open_sale, "offers": [{"seq": 12, "buyer": "N", "price": 2}]}
    waiting = FakeApi(
        [
            state(11, seat="W", to_play="W", legal=["2C"], sale=one_offer),
            state(11, seat="W", to_play="W", legal=["2C"], sale=one_offer),
            FINISHED,
        ],
        poll_time=0.3,
    )
    alone = FakeApi([state(11, seat="W", to_play="W", legal=["2C"], sale=open_sale), FINISHED])

    Bot(waiting, "m", Policy(accept_rate=0, offer_wait=0.2)).run()
    Bot(alone, "m", Policy(offer_wait=0)).run()

    assert waiting.polls == 1 and waiting.posts == [("lead-decision", {"keep": True}, 11)]
    assert alone.posts == [("plays", {"card": "2C"}, 11)]


def test_the_bot_takes_the_state_from_a_commands_answer_and_reads_nothing_more():
    after_play = state(8, to_play="S", legal=["9D"])  # he won the trick: on turn again

    class Answering(FakeApi):
        def post(self, path, body, *, version=None):
            super().post(path, body, version=version)
            return {"version": version + 1, "state": after_play if version == 7 else FINISHED}, {}

    api = Answering([state(7, to_play="S", legal=["KS", "2H"])])

    Bot(api, "m", Policy(strategy="low")).run()

    assert api.posts == [("plays", {"card": "2H"}, 7), ("plays", {"card": "9D"}, 8)]
    assert api.states == [] and api.polls == 0


def test_the_bot_takes_its_next_move_from_a_commands_answer_when_it_came():
    class Answering(FakeApi):
        def post(self, path, body, *, version=None):
            super().post(path, body, version=version)
            assert path.endswith("?wait=25")
            after = state(version + 1, to_play="W")  # the others' turn...
            move = state(version + 4, to_play="S", legal=["9D"]) if version == 7 else FINISHED  # ...then his
            return {"version": version + 1, "state": after, "next_move": move}, {}

    api = Answering([state(7, to_play="S", legal=["KS", "2H"])])

    Bot(api, "m", Policy(strategy="low")).run()

    assert api.posts == [("plays", {"card": "2H"}, 7), ("plays", {"card": "9D"}, 11)]
    assert api.polls == 0


def test_a_token_that_is_not_a_seated_players_is_refused():
    from games.cli.bot import BotError

    with pytest.raises(BotError, match="scorer"):
        Bot(FakeApi([{**state(3), "role": "scorer"}]), "m").run()


def test_the_bot_and_kierki_play_import_no_django(tmp_path):
    blocker = tmp_path / "django"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('django must not be imported')\n")
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    code = "import games.cli.bot, games.cli.main; games.cli.main.main(['play', '--help'])"

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)

    assert done.returncode == 0, done.stderr
    assert "--strategy {random,low,high}" in done.stdout


def test_kierki_play_exits_1_when_the_server_refuses_it_and_2_without_a_token(scripted, capsys, monkeypatch):
    from games.cli import main as cli

    scripted.script = [(404, {}, {"code": "not_found", "detail": "No match m."})]
    monkeypatch.delenv("KIERKI_TOKEN", raising=False)
    server = f"http://127.0.0.1:{scripted.server_address[1]}"

    refused = cli.main(["play", "--server", server, "--token", "t", "--match", "m", "--quiet"])
    no_token = cli.main(["play", "--server", server, "--match", "m"])

    assert (refused, no_token) == (1, 2)
    assert "HTTP 404 not_found: No match m." in capsys.readouterr().err
    assert scripted.seen[0][1] == "/api/v1/matches/m/"
