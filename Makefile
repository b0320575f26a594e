# Two commands do all the setup: `make serve` and `make test`. Each (re)creates .venv
# when pyproject.toml is newer than the last install; so do `make docs`, which serves
# the documentation site on DOCS_PORT, and `make site`, which builds it into site/.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 5000
DATA ?= ./var
DOCS_PORT ?= 8000

.PHONY: serve test docs site venv clean

$(STAMP): pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[dev,compare,cluster]'
	touch $(STAMP)

venv: $(STAMP)

serve: $(STAMP)
	$(VENV)/bin/chessdom serve --host $(HOST) --port $(PORT) --data $(DATA)

# --dist worksteal: an idle worker takes queued tests from the busy one, so the long tail of
# slow tests ends together (one run each: 594 s at 2da6de1, 638 s at 50c0336 with the default).
test: $(STAMP)
	bash scripts/ensure_browser.sh
	$(VENV)/bin/python -m pytest -n 2 --dist worksteal -q

docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs serve --dev-addr $(HOST):$(DOCS_PORT)

# NO_MKDOCS_2_WARNING: mkdocs-material otherwise prints a banner about MkDocs 2 first.
site: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

clean:
	rm -rf $(VENV) var site .pytest_cache .hypothesis
