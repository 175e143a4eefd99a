"""The deployment of the live endpoints: docker-compose.yml's `live` service runs the project
under uvicorn (ASGI) next to gunicorn's `web`; its command works here as it would in the image."""

import json
import os
import socket
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_the_live_service_is_uvicorn_serving_config_asgi_beside_web():
    services = compose()["services"]
    live = services["live"]

    assert live["command"][:2] == ["uvicorn", "config.asgi:application"]
    assert live["ports"] == ["127.0.0.1:8001:8000"] and services["web"]["ports"] == ["127.0.0.1:8000:8000"]
    assert live["healthcheck"]["test"] == ["CMD", "python", "docker/healthcheck.py", "web"]
    assert services["web"]["command"][0] == "gunicorn"
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert "uvicorn" in dependencies


def test_the_live_command_serves_probes_and_streams_with_json_logs(tmp_path):
    port = _free_port()
    command = list(compose()["services"]["live"]["command"])
    command[command.index("--host") + 1] = "127.0.0.1"
    command[command.index("--port") + 1] = str(port)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO", "DATABASE"))}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    log = (tmp_path / "live.log").open("w+")
    server = subprocess.Popen(
        [str(Path(sys.executable).with_name(command[0])), *command[1:]],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while _status(f"{base}/healthz") != 200:
            assert server.poll() is None and time.monotonic() < deadline, (tmp_path / "live.log").read_text()
            time.sleep(0.2)
        anonymous = _status(f"{base}/api/v1/me/stream/")
    finally:
        server.terminate()
        server.wait(20)

    assert anonymous == 401
    lines = [line for line in (tmp_path / "live.log").read_text().splitlines() if line.strip()]
    assert lines and all(json.loads(line)["level"] for line in lines), lines
    assert any("uvicorn" in json.loads(line)["logger"] for line in lines)


def _status(url: str) -> int | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
