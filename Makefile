VENV  := .venv
PY    := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test bench messages

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

# The Polish catalogue: collect every message of the code (new ones come in untranslated, changed
# ones fuzzy: translate them in locale/pl/LC_MESSAGES/django.po), then compile the .mo that is
# committed beside it. Needs GNU gettext (apt-get install gettext). docs/i18n.md.
MAKEMESSAGES_IGNORE := --ignore '.venv/*' --ignore 'tests/*' --ignore 'benchmarks/*' --ignore 'docs/*' \
	--ignore 'staticfiles/*' --ignore 'build/*'

messages: $(STAMP)
	@command -v xgettext >/dev/null || { echo "make messages needs GNU gettext: apt-get install gettext"; exit 1; }
	$(PY) manage.py makemessages -l pl --no-location --no-obsolete $(MAKEMESSAGES_IGNORE)
	$(PY) manage.py compilemessages -l pl --ignore '.venv'
