# The two commands of the README: `make run` serves the site, `make test` runs the whole suite.
# Each sets itself up (a .venv with the pinned requirements) and is quick the second time.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# `make test` runs everything; PYTEST_ARGS narrows it (e.g. PYTEST_ARGS="tests/engine -x").
PYTEST_ARGS ?=
# The tests without a browser spread their files over this many processes (pytest-xdist; 0:
# one): one more than the cores, as some of them wait on servers and task workers of their own
# (2 cores, SQLite: 85 s with three, 95 s with two). The browser tests use E2E_WORKERS: each
# process has its own browser, server and task worker (two: about 1:50 here, and three are no
# faster, as the browsers then take both cores).
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
E2E_WORKERS ?= 2
# The browser tests `make test` runs: all of them. CI's pass with the embedded engines narrows
# it to those of the real-time path (E2E_MARK="e2e and engines"; see .ci/run).
E2E_MARK ?= e2e

.PHONY: run test lint format bench clean superuser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev: requirements-dev.txt $(VENV)/.runtime
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@

# Where the three processes of `make run` write their metrics for /metrics to add up
# (games/metrics.py): made before they start, its files of an earlier run removed (those of
# dead processes would be counted again).
PROMETHEUS_MULTIPROC_DIR ?= $(or $(TMPDIR),/tmp)/euchre-metrics-$(PORT)

# The server and two task workers (one for the computer's turns and clocks, one for the analysis
# of finished matches) together, from the Procfile; Ctrl-C stops all three. The workers' mails
# link to the address served here (SITE_URL, unless it is set; 0.0.0.0 read as this machine):
# honcho gives each process a PORT of its own, so the workers cannot tell the site's.
run: $(VENV)/.runtime
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py collectstatic --noinput -v0
	mkdir -p "$(PROMETHEUS_MULTIPROC_DIR)" && rm -f "$(PROMETHEUS_MULTIPROC_DIR)"/*.db
	DEBUG=$${DEBUG:-1} HOST=$(HOST) PATH="$(CURDIR)/$(BIN):$$PATH" \
		PROMETHEUS_MULTIPROC_DIR="$(PROMETHEUS_MULTIPROC_DIR)" \
		SITE_URL="$${SITE_URL:-http://$(patsubst 0.0.0.0,127.0.0.1,$(HOST)):$(PORT)}" \
		PUSH_RELAY_URL="http://$(patsubst 0.0.0.0,127.0.0.1,$(HOST)):$(PORT)" \
		$(BIN)/honcho --no-colour start --port $(PORT) web worker analyst

# An administrator for the local site (`make run`'s database): sets itself up like `make run`.
# SUPERUSER_ARGS=--noinput takes the name and password from DJANGO_SUPERUSER_USERNAME/_PASSWORD.
superuser: $(VENV)/.runtime
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py createsuperuser $(SUPERUSER_ARGS)

# Tests run with DEBUG off, as production does; they need a SECRET_KEY of their own.
# Browser tests (-m e2e) run in a pytest process of their own (see tests/e2e/conftest.py);
# Exit code 5 means PYTEST_ARGS selected no test for that process.
PYTEST := SECRET_KEY=$${SECRET_KEY:-test-only-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz} \
	$(BIN)/python -m pytest --dist loadfile --no-loadscope-reorder
test: $(VENV)/.dev
	$(PYTEST) -n $(PYTEST_WORKERS) -m "not e2e" $(PYTEST_ARGS) || [ $$? -eq 5 ]
	$(PYTEST) -n $(E2E_WORKERS) -m "$(E2E_MARK)" $(PYTEST_ARGS) || [ $$? -eq 5 ]

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache --no-logo

format: $(VENV)/.dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(VENV)/.runtime
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/bots.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis test-db.sqlite3
