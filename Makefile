# The two commands: `make run` and `make test`. Both set themselves up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip --disable-pip-version-check -q

.PHONY: run test lint docs bench bench-peers clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -U pip setuptools wheel

# Re-install when the project's declared dependencies or its compiled parts change. The
# ``fast`` extra (numba): the compiled Connect Four solver, which takes over from the
# opening book in ``make run``. The install also compiles the chess kernels (Cython, C).
KERNELS := setup.py $(wildcard src/gamesearch/games/chess/kernels/*.pyx src/gamesearch/games/chess/kernels/*.pxi)

$(VENV)/.installed: pyproject.toml $(KERNELS) | $(BIN)/python
	$(PIP) install -e '.[fast,web,docs]'
	touch $@

$(VENV)/.installed-dev: pyproject.toml $(KERNELS) | $(BIN)/python
	$(PIP) install -e '.[dev]'
	touch $@

$(VENV)/.installed-bench: pyproject.toml $(KERNELS) | $(BIN)/python
	$(PIP) install -e '.[dev,bench]'
	touch $@

# The manual (docs/, mkdocs.yml): built strictly (a broken link, an unknown anchor or a page
# missing from the navigation fails), offline, into the folder the web app serves at /guide/
# (git-ignored). Rebuilt when a page, the configuration, a picture it shows or a docstring
# of the API reference changes.
GUIDE := src/gamesearch/interfaces/web/guide
DOCS_SOURCES := mkdocs.yml $(shell find docs -type f) \
	$(wildcard src/gamesearch/games/backgammon/data/*.png) \
	$(shell find src/gamesearch -name '*.py' -not -path '*/guide/*')
MKDOCS := NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

$(GUIDE)/index.html: $(DOCS_SOURCES) | $(BIN)/mkdocs
	$(MKDOCS) --site-dir $(GUIDE)

# MkDocs comes with the `docs` extra (in `make run`'s install) and the `dev` extra; a venv
# that has it (from either) is not installed again.
$(BIN)/mkdocs: | $(BIN)/python
	$(MAKE) $(VENV)/.installed

## make docs: build the manual (served by `make run` at /guide/)
docs: $(GUIDE)/index.html

## make run: the web app on http://127.0.0.1:8000/ (PORT=..., DB=results file or folder),
## with the manual at /guide/; terminal play stays `gamesearch play connect4`
PORT ?= 8000
DB ?=
run: $(VENV)/.installed $(GUIDE)/index.html
	$(BIN)/gamesearch web --host 127.0.0.1 --port $(PORT) $(if $(DB),--db $(DB))

# Debian packages the tests use, installed when missing: $(call apt_install,PACKAGE,WHAT SKIPS)
define apt_install
	@if command -v apt-get >/dev/null 2>&1; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get install -y -qq $(1) >/dev/null 2>&1 || \
	  { $$SUDO apt-get update -qq >/dev/null 2>&1 && $$SUDO apt-get install -y -qq $(1) >/dev/null 2>&1; } || \
	  echo "WARNING: could not install Debian's $(1): $(2) will be skipped"; \
	else echo "WARNING: no apt-get: $(1) not installed, $(2) will be skipped"; fi
endef

# Debian's Stockfish, the real UCI peer of the arena and chess tests.
STOCKFISH := /usr/games/stockfish
$(STOCKFISH):
	$(call apt_install,stockfish,the UCI tests)

# Debian's GNU Go, the GTP referee and opponent of the Go tests (in the games folder).
GNUGO := /usr/games/gnugo
$(GNUGO):
	$(call apt_install,gnugo,the GNU Go tests)

# Debian's Chromium, the real browser of the web app's tests (Playwright drives it; its own
# browser download is not used).
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	$(call apt_install,chromium,the browser tests)

# Debian's GNU Backgammon, the referee and opponent of the backgammon tests and match runner.
GNUBG := /usr/games/gnubg
$(GNUBG):
	$(call apt_install,gnubg,the gnubg external-player tests)

## make test: lint, type-check, the manual's strict build and the whole test suite
test: $(VENV)/.installed-dev | $(STOCKFISH) $(CHROMIUM) $(GNUBG) $(GNUGO)
	$(BIN)/ruff check src tests benchmarks referees
	$(BIN)/mypy
	$(MKDOCS) --site-dir $(GUIDE)
	$(BIN)/pytest -n 2 --durations=10

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check src tests benchmarks referees
	$(BIN)/mypy

## make bench: the peer benchmark (installs open_spiel, easyAI, aima3)
bench: $(VENV)/.installed-bench
	$(BIN)/python benchmarks/peers.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache $(GUIDE)
