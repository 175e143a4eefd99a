VENV  := .venv
PY    := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST  ?= 127.0.0.1
PORT  ?= 8000

.PHONY: install run test test-fast lint format docs bench messages compile-engine clean-engine

install: $(STAMP)

$(PY):
	python3 -m venv $(VENV)

# uv installs in seconds what pip takes most of a minute for (docs/dependencies.md); it is the one
# package pip installs. Running needs the runtime set only (RUN_STAMP); testing the dev extra (STAMP).
# Each reinstalls only when pyproject.toml is newer than its stamp.
UV := $(VENV)/bin/uv
RUN_STAMP := $(VENV)/.installed-run

$(UV): | $(PY)
	$(PY) -m pip install -q uv

$(STAMP): pyproject.toml | $(UV)
	$(UV) pip install --python $(PY) -e '.[dev]'
	touch $(STAMP)

$(RUN_STAMP): pyproject.toml | $(UV)
	$(UV) pip install --python $(PY) -e .
	touch $(RUN_STAMP)

# make run [PORT=8123] [HOST=0.0.0.0]: migrate, seed the demo (its tokens and URLs name this address),
# serve the ASGI application with uvicorn, reloading on code changes: the streams and long-polls
# work as in production (under WSGI, runserver, they cannot wait). It watches the project's own
# folders through watchfiles (inotify): left to itself uvicorn polled every .py file under the
# checkout, .venv's too, four times a second (half a core while idle, and a Ctrl-C waited for the scan).
SOURCES := accounts api config games locale printing scoring web webhooks
run: $(RUN_STAMP)
	@$(PY) manage.py migrate --verbosity 0
	@$(PY) manage.py seed_demo --url http://$(HOST):$(PORT)
	$(PY) -m uvicorn config.asgi:application --reload $(SOURCES:%=--reload-dir %) --host $(HOST) --port $(PORT)

test: $(STAMP)
	$(VENV)/bin/pytest

# Everything but the tests marked `slow` (servers, browsers, worker processes, fuzzing), with
# fewer hypothesis examples, on two processes (pytest-xdist) unless REDIS_URL is set: the workers
# would share one cache, and the throttle tests empty it. Bytecode is cached between runs even
# where the environment sets PYTHONDONTWRITEBYTECODE (each worker would compile the project and
# pytest would rewrite every test module again: a sixth of the run), and schemathesis' plugin,
# which only the slow fuzz tests use, is not loaded. Each test file goes whole to one worker
# (--dist loadfile): rows a module builds once (tests/support/once.py) are then built once, not
# once per worker that gets a test of it. docs/testing.md.
TEST_FAST_WORKERS ?= $(if $(REDIS_URL),0,2)

test-fast: $(STAMP)
	env -u PYTHONDONTWRITEBYTECODE HYPOTHESIS_PROFILE=fast $(VENV)/bin/pytest -m "not slow" -n $(TEST_FAST_WORKERS) \
		--dist loadfile -p no:schemathesis

# make compile-engine: the arbiter's search (games/engine/analysis.py, masks.py, takes_all.py)
# compiled with mypyc, about 12x faster (docs/analysis.md, "Compiled with mypyc"), same answers;
# optional: needs gcc and the Python headers, and is rebuilt by hand after one of them changes
# (the tests fail while it is stale). make clean-engine: back to pure Python.
compile-engine: $(STAMP)
	$(PY) -m pip install -q -e '.[dev,compile]'
	$(PY) -m games.engine.compiled build

clean-engine:
	$(PY) -m games.engine.compiled clean

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

docs: $(STAMP)
	$(VENV)/bin/mkdocs build --strict

bench: $(STAMP)
	@if [ -d benchmarks/data ]; then $(VENV)/bin/kierki bench benchmarks/data; \
	else echo "benchmarks/data not found: nothing to run"; fi

# The Polish catalogue: collect every message of the code (new ones come in untranslated, changed
# ones fuzzy: translate them in locale/pl/LC_MESSAGES/django.po), then compile the .mo that is
# committed beside it. Needs GNU gettext (apt-get install gettext). docs/i18n.md.
MAKEMESSAGES_IGNORE := --ignore '.venv/*' --ignore 'tests/*' --ignore 'benchmarks/*' --ignore 'docs/*' \
	--ignore 'staticfiles/*' --ignore 'build/*'

messages: $(STAMP)
	@command -v xgettext >/dev/null || { echo "make messages needs GNU gettext: apt-get install gettext"; exit 1; }
	$(PY) manage.py makemessages -l pl --no-location --no-obsolete $(MAKEMESSAGES_IGNORE)
	$(PY) manage.py compilemessages -l pl --ignore '.venv'
