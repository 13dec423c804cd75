# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-fast lint bench bench-league bench-load fuzz browser-deps messages clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 10), "Kartenliga needs Python 3.10 or newer"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.run-installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $(VENV)/.run-installed $@

run: $(VENV)/.run-installed
	DJANGO_DEBUG=1 $(BIN)/python manage.py migrate --noinput -v 0
	DJANGO_DEBUG=1 $(BIN)/python manage.py seed_demo --if-empty --base-url http://$(HOST):$(PORT)
	DJANGO_DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

# Browser tests drive Debian's Chromium; install it when we may (root with apt), else they skip.
browser-deps:
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Chromium for the browser tests"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
		|| echo "Could not install chromium: browser tests will be skipped"; \
	fi

test: $(VENV)/.dev-installed browser-deps
	$(BIN)/python -m pytest

# Everything but the browser walks and benchmarks (marked slow): a few minutes.
test-fast: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -m "not slow"

# Style and size: ruff (with complexity at most 15), no radon grade D or worse, no dead code
# vulture finds at 60 % (framework hooks listed in .ci/vulture_whitelist.py), modules up to
# 600 lines and functions up to 60 (.ci/sizes.py).
lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check scoring leagues kartenliga tests
	@out="$$($(BIN)/radon cc -s -n D scoring leagues kartenliga -e '*/migrations/*')"; \
		if [ -n "$$out" ]; then echo "radon grade D or worse:"; echo "$$out"; exit 1; fi
	$(BIN)/vulture --min-confidence 60 scoring leagues kartenliga .ci/vulture_whitelist.py --exclude '*/migrations/*'
	$(BIN)/python .ci/sizes.py

bench: $(VENV)/.dev-installed
	DJANGO_SECRET_KEY=bench-only-secret $(BIN)/python -m tests.bench.run --output bench-results.json

# Every page kind and write of three leagues (small, big, carrying) against gunicorn (2 workers,
# debug off), warm, fresh (right after a write) and cold (workers restarted, caches emptied), as
# multiples of the framework floor (GET /bench/floor/), with each row's budget; on a fresh
# PostgreSQL database when DATABASE_URL names one, else on a fresh SQLite file. A few minutes;
# BENCH_BIG=20x40x40 for the 20-season league (longer to build). Writes bench-league-results.json.
bench-league: $(VENV)/.dev-installed
	DJANGO_SECRET_KEY=bench-only-secret-bench-only-secret-bench-only $(BIN)/python -m tests.bench.league --output bench-league-results.json

# 50 clients at once for 30 s (readers of the evenings being written: sheet, standings, league
# page, public sheet; scorekeepers entering, retrying and correcting hands through the API), its
# throughput as a share of the same 50 fetching the framework floor, on gunicorn (2 sync
# workers, debug off) and a fresh database as bench-league; then checks every hand is stored
# exactly once. Writes bench-load-results.json.
bench-load: $(VENV)/.dev-installed
	DJANGO_SECRET_KEY=bench-only-secret-bench-only-secret-bench-only $(BIN)/python -m tests.bench.load --output bench-load-results.json

# schemathesis over the whole API schema against gunicorn (debug off) on a fresh SQLite
# database, and on a fresh PostgreSQL one too when DATABASE_URL names a PostgreSQL server;
# then every field of a real league export mutated and imported through the import page, each
# accepted file's league checked (its pages, export round trip, verify_replays), on the same
# databases. Not part of `make test`: about half an hour a database. FUZZ_MAX_EXAMPLES=...,
# FUZZ_IMPORT_RANDOM=... for a longer run; FUZZ_IMPORT_SHARE=K/N for every N-th mutation of the
# catalogue (CI runs a share a database, picked by the commit). Both always run; either failing
# fails the target.
fuzz: $(VENV)/.dev-installed
	$(BIN)/python -m tests.fuzz.run; status=$$?; \
	$(BIN)/python -m tests.fuzz.import_mutations || status=1; \
	exit $$status

messages: $(VENV)/.dev-installed
	DJANGO_DEBUG=1 $(BIN)/python manage.py makemessages -l de --ignore=.venv --ignore=tests
	DJANGO_DEBUG=1 $(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
