# One command each: `make test` and `make serve` set everything up on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SERVE_STAMP := $(VENV)/.installed-serve
CHROMIUM ?= /usr/bin/chromium
HOST ?= localhost
PORT ?= 5006
DB ?= raisus.sqlite

.PHONY: setup system-deps test test-fast serve bench lint clean

setup: $(STAMP)

# Serving needs the package alone; the tests add the test, notebook and benchmark extras.
$(SERVE_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(SERVE_STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,notebook,bench,lint]'
	$(PY) -m ipykernel install --prefix $(VENV) --name python3 >/dev/null
	touch $(STAMP)

# The browser tests drive Debian's Chromium (Playwright cannot download its own browser here),
# the score chart needs a CJK font to show Korean, the scale-out tests run a real Redis and nginx,
# and the lobby's QR codes are decoded by zbarimg (zbar-tools) in the browser tests.
SYSTEM_PACKAGES := chromium fonts-noto-cjk redis-server nginx zbar-tools
system-deps:
	@if [ ! -x $(CHROMIUM) ] || ! fc-list 2>/dev/null | grep -qi 'noto.*cjk' \
	    || ! command -v redis-server >/dev/null || ! [ -x /usr/sbin/nginx ] || ! command -v zbarimg >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SYSTEM_PACKAGES) >/dev/null; \
	  else \
	    echo "The tests need Debian's $(SYSTEM_PACKAGES): sudo apt-get install $(SYSTEM_PACKAGES)"; \
	  fi; \
	fi

# The browser tests check every page with axe-core, installed from npm at test time into .cache/
# (not committed); Debian's npm is installed only where no npm is (a Node.js of its own has one).
AXE := .cache/axe/node_modules/axe-core/axe.min.js
$(AXE):
	@command -v npm >/dev/null || { if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; \
	  else echo "The accessibility tests need npm: sudo apt-get install npm"; exit 1; fi; }
	npm install --no-save --no-audit --no-fund --silent --prefix .cache/axe axe-core@4

# On a failure the last line names the failed tests (pytest's cache of them), where a log's tail shows it.
test: setup system-deps $(AXE)
	@$(PY) -m pytest || { status=$$?; $(PY) -c 'import json, pathlib; \
	  p = pathlib.Path(".pytest_cache/v/cache/lastfailed"); \
	  print("failed:", " ".join(sorted(json.loads(p.read_text()))) if p.exists() else "(none recorded)")'; \
	  exit $$status; }

test-fast: setup
	$(PY) -m pytest -m "not browser and not notebook"

serve: $(SERVE_STAMP)
	$(PY) -m raisus_panel.cli serve --address $(HOST) --port $(PORT) --db $(DB)

# ruff over the package, tests, apps, benchmarks and notebooks, then mypy over the package (strict on
# rules/ and room/); both are configured in pyproject.toml, and CI (.ci/run) runs this before the tests.
lint: setup
	$(VENV)/bin/ruff check raisus_panel tests apps benchmarks notebooks
	$(VENV)/bin/mypy

bench: setup
	$(PY) benchmarks/bench_odds.py
	$(PY) benchmarks/bench_room.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis test-artifacts .cache
