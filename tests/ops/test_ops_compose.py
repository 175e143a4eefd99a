"""The production stack without Docker: the compose file and the Dockerfile have the shape the
docs/deployment.md promises, and every command they run works here, with the environment docker compose
would give it (.env.example filled in, the compose file's addresses pointed at this machine)."""

import os
import re
import urllib.error
import urllib.request

import pytest
from ops_helpers import (
    BROKER_DB,
    ROOT,
    Service,
    compose,
    documented,
    dotenv,
    free_port,
    interpolate,
    json_lines,
    local_command,
    production_env,
    redis_reachable,
    require_redis,
    run,
    wait_for,
)

LONG_RUNNING = ("postgres", "redis", "web", "live", "worker", "beat")
APP_SERVICES = ("migrate", "web", "live", "worker", "beat")
HOST = "kierki.example.org"  # DJANGO_ALLOWED_HOSTS of .env.example


# --- the files -----------------------------------------------------------------------------------


def test_the_compose_file_runs_postgres_16_redis_7_a_migrate_job_web_worker_and_beat():
    services = compose()["services"]

    assert set(services) == {"postgres", "redis", "migrate", "web", "live", "worker", "beat"}
    assert services["postgres"]["image"] == "postgres:16"
    assert services["redis"]["image"] == "redis:7"
    assert services["web"]["command"][:1] == ["gunicorn"] and "config.wsgi" in services["web"]["command"]
    assert _subcommand(services["worker"]["command"]) == "worker"
    assert _subcommand(services["beat"]["command"]) == "beat"
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--noinput"]


def _subcommand(argv: list[str]) -> str:
    assert argv[0] == "celery" and argv[argv.index("-A") + 1] == "config", argv
    return argv[argv.index("-A") + 2]


def test_every_long_running_service_has_a_healthcheck_and_restarts():
    services = compose()["services"]

    for name in LONG_RUNNING:
        check = services[name].get("healthcheck")
        assert check and check["test"][0] in {"CMD", "CMD-SHELL"}, name
        assert {"interval", "timeout", "retries"} <= check.keys(), name
        assert services[name]["restart"] == "unless-stopped", name
    assert services["migrate"]["restart"] == "no"


def test_the_app_services_are_one_image_configured_from_dot_env_and_started_after_migrate():
    services = compose()["services"]

    for name in APP_SERVICES:
        assert services[name]["build"] == "." and services[name]["env_file"] == ".env", name
        environment = services[name]["environment"]
        assert {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL"} <= environment.keys(), name
    for name in ("web", "worker", "beat"):
        assert services[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}, name
        assert services[name]["depends_on"]["postgres"] == {"condition": "service_healthy"}, name
    assert services["migrate"]["depends_on"]["postgres"] == {"condition": "service_healthy"}


def test_data_lives_in_named_volumes():
    spec = compose()
    declared = set(spec["volumes"])
    used = {
        volume.split(":")[0]: volume.split(":")[1]
        for service in spec["services"].values()
        for volume in service.get("volumes", [])
    }

    assert used == {
        "pgdata": "/var/lib/postgresql/data",
        "redisdata": "/data",
        "beat-schedule": "/var/lib/kierki/beat",
        "checkpoints": "/var/lib/kierki/checkpoints",
    }
    assert set(used) == declared
    beat = spec["services"]["beat"]["command"]
    assert "--schedule=/var/lib/kierki/beat/celerybeat-schedule" in beat


def test_every_variable_the_compose_file_uses_is_in_the_env_example():
    text = (ROOT / "docker-compose.yml").read_text()
    used = set(re.findall(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)", text))

    assert used == {"POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"}
    assert used <= set(dotenv())
    with pytest.raises(ValueError, match="set POSTGRES_PASSWORD"):  # compose refuses to start without it
        interpolate(compose()["x-app"]["environment"]["DATABASE_URL"], dotenv())


def test_the_env_example_documents_every_variable_the_project_reads():
    read = _variables_read()
    table = (ROOT / "docs" / "configuration.md").read_text()
    in_table = set(re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \|", table, re.MULTILINE))

    assert read - documented() == set(), "add these to .env.example"
    assert read - in_table == set(), "add these to the table of docs/configuration.md"


def _variables_read() -> set[str]:
    names = set()
    for path in ("config/settings.py", "docker/gunicorn.conf.py", "docker/healthcheck.py"):
        source = (ROOT / path).read_text()
        names |= set(re.findall(r"""env_\w+\(\s*["']([A-Z][A-Z0-9_]*)["']""", source))
        names |= set(re.findall(r"""os\.environ(?:\.get)?[\(\[]\s*["']([A-Z][A-Z0-9_]*)["']""", source))
    return names - {"DJANGO_SETTINGS_MODULE"}


def test_the_dockerfile_builds_a_slim_python_311_image_run_by_a_non_root_user():
    dockerfile = (ROOT / "Dockerfile").read_text()
    instructions = [line.split(None, 1) for line in dockerfile.splitlines() if line and not line.startswith(("#", " "))]
    by_name = {}
    for name, *rest in instructions:
        by_name.setdefault(name, []).append(rest[0] if rest else "")

    assert by_name["FROM"] == ["python:3.11-slim"]
    assert by_name["USER"] == ["kierki"]
    assert "pip install --no-deps ." in dockerfile and "manage.py collectstatic --noinput" in dockerfile
    assert by_name["CMD"] == ['["gunicorn", "--config", "docker/gunicorn.conf.py", "config.wsgi"]']
    assert by_name["USER"] and dockerfile.index("USER kierki") > dockerfile.index("collectstatic")
    # the arbiter's search compiled (docs/analysis.md), the compiler removed in the same layer
    before, after = dockerfile.split("python -m games.engine.compiled build")
    assert "gcc" in before.rsplit("\nRUN", 1)[1] and "apt-get purge" in after.split("\n\n")[0]
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert {".git", ".venv", ".env", "db.sqlite3", "tests"} <= set(ignored)


# --- the commands, outside Docker ----------------------------------------------------------------


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """The image's build step (collectstatic) and the migrate job, done once: returns the
    environment and the folder standing in for the containers' disks."""
    tmp = tmp_path_factory.mktemp("stack")
    env = production_env(tmp)
    build = run([*local_command("python manage.py collectstatic --noinput", tmp)], env={**env, **_build_env(tmp)})
    assert build.returncode == 0, build.stderr
    migrate = run(local_command(compose()["services"]["migrate"]["command"], tmp), env)
    assert migrate.returncode == 0, migrate.stdout + migrate.stderr
    return env, tmp


def _build_env(tmp):
    """At build time the image has no .env: settings are the embedded defaults (DEBUG on)."""
    return {
        "DJANGO_DEBUG": "",
        "DJANGO_SECRET_KEY": "",
        "DATABASE_URL": f"sqlite:///{tmp / 'build.sqlite3'}",
        "CELERY_BROKER_URL": "",
        "REDIS_URL": "",
    }


def test_migrate_leaves_nothing_unapplied_and_check_deploy_is_clean(stack):
    env, tmp = stack

    check = run(local_command("python manage.py migrate --check", tmp), env)
    deploy = run(local_command("python manage.py check --deploy --fail-level WARNING", tmp), env)

    assert check.returncode == 0, check.stdout + check.stderr
    assert deploy.returncode == 0 and "no issues" in deploy.stdout, deploy.stdout + deploy.stderr


def test_collectstatic_at_build_gives_fingerprinted_files(stack):
    env, tmp = stack
    static = tmp / "staticfiles"

    assert (static / "staticfiles.json").is_file()
    assert (static / "admin" / "css" / "base.css").is_file()
    assert list((static / "admin" / "css").glob("base.*.css.gz"))


def test_gunicorn_accepts_the_web_command(stack):
    env, tmp = stack
    command = local_command(compose()["services"]["web"]["command"], tmp)

    result = run([command[0], "--check-config", *command[1:]], env)

    assert result.returncode == 0, result.stdout + result.stderr


def test_the_web_command_serves_probes_static_files_and_the_api_behind_tls(stack, tmp_path):
    env, tmp = stack
    port = free_port()
    env = {**env, "PORT": str(port), "WEB_CONCURRENCY": "1"}
    web = Service(local_command(compose()["services"]["web"]["command"], tmp), env, tmp_path / "web.log")
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _status(f"{base}/healthz") == 200, 60, "gunicorn to answer /healthz", web.log)

        ready = _get(f"{base}/readyz", {"X-Request-ID": "probe-1"})
        plain = _get(f"{base}/api/v1/", {"Host": HOST})
        behind_tls = _get(f"{base}/api/v1/", {"Host": HOST, "X-Forwarded-Proto": "https"})
        css = _get(f"{base}/static/admin/css/base.css", {"Host": HOST, "X-Forwarded-Proto": "https"})
        healthcheck = run(local_command(compose()["services"]["web"]["healthcheck"]["test"][1:], tmp), env)
    finally:
        code = web.stop()

    assert ready.status == (200 if redis_reachable() else 503) and ready.headers["X-Request-ID"] == "probe-1"
    assert plain.status == 301 and plain.headers["Location"] == f"https://{HOST}/api/v1/"
    assert behind_tls.status == 200 and "preload" in behind_tls.headers["Strict-Transport-Security"]
    assert css.status == 200 and css.headers["Content-Type"].startswith("text/css")
    assert healthcheck.returncode == 0, healthcheck.stderr
    assert code == 0
    lines = json_lines(web.output())  # every line gunicorn and the app wrote is JSON
    assert any(line["logger"] == "gunicorn.error" and "Listening at" in line["message"] for line in lines)
    assert any(
        line["logger"] == "kierki.request" and line["status"] == 200 and line["path"] == "/api/v1/" for line in lines
    )


class _Answer:
    def __init__(self, status, headers):
        self.status, self.headers = status, headers


def _get(url: str, headers: dict) -> _Answer:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, headers=headers), timeout=10) as response:
            return _Answer(response.status, response.headers)
    except urllib.error.HTTPError as error:
        return _Answer(error.code, error.headers)


def _status(url: str) -> int | None:
    try:
        return _get(url, {}).status
    except OSError:
        return None


@pytest.mark.parametrize(
    "argv",
    [
        "celery -A config report",
        "celery -A config inspect --help",
        "celery -A config worker --help",
        "celery -A config beat --help",
    ],
)
def test_the_celery_commands_load_the_app(stack, argv):
    env, tmp = stack

    result = run(local_command(argv, tmp), env)

    assert result.returncode == 0, result.stdout + result.stderr


def test_the_worker_command_runs_tasks_logs_json_and_passes_its_healthcheck(stack, tmp_path):
    require_redis()
    env, tmp = stack
    import redis

    redis.Redis.from_url(env["CELERY_BROKER_URL"]).flushdb()
    service = compose()["services"]["worker"]
    worker = Service(local_command(service["command"], tmp), env, tmp_path / "worker.log")
    try:
        wait_for(lambda: "ready." in worker.output(), 60, "the worker to be ready", worker.log)
        healthcheck = run(local_command(service["healthcheck"]["test"][1:], tmp), env)
        sent = run([*local_command("python -c", tmp), _SEND_A_TASK], env)
        assert sent.returncode == 0, sent.stderr
        wait_for(lambda: "succeeded" in worker.output(), 30, "the task to run", worker.log)
    finally:
        worker.stop()
        redis.Redis.from_url(env["CELERY_BROKER_URL"]).flushdb()

    assert healthcheck.returncode == 0, healthcheck.stderr
    lines = json_lines("\n".join(line for line in worker.output().splitlines() if line.startswith("{")))
    done = [line for line in lines if "succeeded" in line["message"]]
    assert done and done[0]["request_id"] == "req-from-web" and done[0]["task_name"] == "celery.accumulate"
    output = worker.output()
    if os.geteuid() == 0:  # Celery's multi-line warning about running as root first (the image runs as kierki)
        output = output[output.index("\n{") + 1 :]
    assert not [
        line
        for line in output.splitlines()
        if line.strip()
        and not line.startswith("{")
        and not re.fullmatch(r"worker: \w+ shutdown \(MainProcess\)", line.strip())
    ]


# A producer as the web process is one: inside a request with id req-from-web, queue a task.
_SEND_A_TASK = """
import os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from config.celery import app
from config.logging import request_id_var
request_id_var.set("req-from-web")
app.send_task("celery.accumulate", args=(1, 2))
"""


def test_the_beat_command_keeps_its_schedule_in_the_volume_and_passes_its_healthcheck(stack, tmp_path):
    require_redis()
    env, tmp = stack
    service = compose()["services"]["beat"]
    (tmp / "var-lib-kierki" / "beat").mkdir(parents=True, exist_ok=True)
    beat = Service(local_command(service["command"], tmp), env, tmp_path / "beat.log")
    try:
        wait_for(lambda: "beat: Starting" in beat.output(), 60, "beat to start", beat.log)
        healthcheck = run(local_command(service["healthcheck"]["test"][1:], tmp), env)
    finally:
        beat.stop()
    stopped = run(local_command(service["healthcheck"]["test"][1:], tmp), env)

    assert healthcheck.returncode == 0, healthcheck.stderr
    assert stopped.returncode == 1 and "no celery beat process" in stopped.stderr
    assert list((tmp / "var-lib-kierki" / "beat").glob("celerybeat-schedule*"))
    assert json_lines(beat.output())


def test_the_worker_healthcheck_fails_without_a_worker(stack):
    require_redis()
    env, tmp = stack
    healthcheck = compose()["services"]["worker"]["healthcheck"]["test"][1:]

    result = run(local_command(healthcheck, tmp), {**env, "HEALTHCHECK_TIMEOUT": "1"})

    assert result.returncode == 1 and "did not answer" in result.stderr
    assert f"/{BROKER_DB}" in env["CELERY_BROKER_URL"]


def test_the_live_command_serves_the_probes_and_the_api_under_uvicorn(stack, tmp_path):
    env, tmp = stack
    port = free_port()
    service = compose()["services"]["live"]
    command = local_command(service["command"], tmp)
    command[command.index("--port") + 1] = str(port)  # the container's 8000, here a free port
    live = Service(command, {**env, "PORT": str(port)}, tmp_path / "live.log")
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _status(f"{base}/healthz") == 200, 60, "uvicorn to answer /healthz", live.log)
        ready = _get(f"{base}/readyz", {"X-Request-ID": "probe-2"})
        api = _get(f"{base}/api/v1/", {"Host": HOST, "X-Forwarded-Proto": "https", "X-Request-ID": "live-1"})
        healthcheck = run(local_command(service["healthcheck"]["test"][1:], tmp), {**env, "PORT": str(port)})
    finally:
        live.stop()

    assert ready.status == (200 if redis_reachable() else 503) and ready.headers["X-Request-ID"] == "probe-2"
    assert api.status == 200 and api.headers["X-Request-ID"] == "live-1"
    assert healthcheck.returncode == 0, healthcheck.stderr
    lines = json_lines(live.output())  # uvicorn's lines and the app's, all JSON
    assert any(line["logger"].startswith("uvicorn") for line in lines)
    assert any(line["logger"] == "kierki.request" and line["request_id"] == "live-1" for line in lines)
