# rulesite: `make site` builds the site, `make test` runs every test. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

AXE := tests/a11y/node_modules/axe-core/axe.min.js

.PHONY: setup validate site serve test test-js lint golden schema bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

validate: setup
	$(BIN)/rulesite validate

site: setup
	$(BIN)/rulesite build

serve: setup
	$(BIN)/rulesite serve

lint: setup
	$(BIN)/ruff check scripts tests
	$(BIN)/ruff format --check scripts tests

# axe-core for the accessibility tests, from the npm registry (pinned in the lock file).
$(AXE): tests/a11y/package-lock.json
	@if command -v npm >/dev/null; then cd tests/a11y && npm ci --no-audit --no-fund --silent; \
	else echo "npm not found: accessibility tests will be skipped"; fi

# TEST_WORKERS=auto: one worker per core. --dist loadfile, as tests/conftest.py schedules it
# (pytest_xdist_make_scheduler): each test file goes whole to one worker, so a file's
# module-scoped build is made once, except the files listed in SPLIT there, whose tests are
# handed out one by one (or by page kind) to whichever worker is free; the real site and the
# fixture project (session fixtures) are built once per run and copied by each worker. Whole
# files go out slowest first (by the last run's times), the split files' tests last, so no
# worker is left alone with a long file at the end; xdist's own order (most tests first) is off.
# pytest prints the time the suite took on its last line. Four workers on two cores: a browser
# test mostly waits (on Chromium's timers, page loads, the server), so more workers keep the cores
# busy (last session, 2 → 3 workers: 16 min 47 s → 13 min 34 s; this session, four browser files
# alone under other engineers' load: 260 s with 2 workers at load 5, 269 s with 4 at load 20;
# TEST_WORKERS=3 to compare again; 2026-12-04, nothing else running: 3 workers 520.8 s against
# 506.5 s with 4).
# PYTHONDONTWRITEBYTECODE emptied: on a machine that sets it (this one does), every worker and
# every Python the tests start would compile the project's modules again, and pytest would
# rewrite every test file's asserts again in each worker (collection: 6.5 -> 4.0 CPU s a
# process); __pycache__/ is ignored by git and by the build cache's code digest.
TEST_WORKERS ?= 4
test: setup lint $(AXE) test-js
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=15

# The page's scoring engine against the shared vectors, in Node's own test runner (no packages).
test-js:
	@if command -v node >/dev/null; then node --test tests/js/; \
	elif [ "$$CI" = true ]; then echo "node is missing under CI" >&2; exit 1; \
	else echo "node not found: JavaScript engine tests skipped (install nodejs)"; fi

# Refresh tests/golden/ from the current templates; review the diff like code.
golden: setup
	$(BIN)/python -m tests.golden

schema: setup
	$(BIN)/rulesite schema

bench: setup
	$(BIN)/python scripts/benchmark.py

clean:
	rm -rf site content/zh content/en .rulesite-*
