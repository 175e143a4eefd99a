VENV  := .venv
PY    := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test bench

install: $(STAMP)

$(PY):
	python3 -m venv $(VENV)

# Reinstall only when pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate
	$(PY) manage.py seed_demo
	$(PY) manage.py runserver 127.0.0.1:8000

test: $(STAMP)
	$(VENV)/bin/pytest

bench: $(STAMP)
	@if [ -d benchmarks/data ]; then $(VENV)/bin/kierki bench benchmarks/data; \
	else echo "benchmarks/data not found: nothing to run"; fi
