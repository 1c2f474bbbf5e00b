# Catan Dice Game: build, test and benchmark targets. `make` alone lists them.
# Every working target depends on `setup`, so a fresh clone needs no manual step.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PY_STAMP := $(VENV)/.requirements.stamp
NPM_STAMP := tools/wasm/node_modules/.package-lock.stamp
PYTEST_ARGS ?=

.DEFAULT_GOAL := help
.PHONY: help setup mpy assets lint test bench sim play clean distclean

help: ## list the targets
	@echo "Targets:"
	@awk -F':.*## ' '/^[a-z]+:.*## / { printf "  make %-10s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)
	@echo "Variables: PYTEST_ARGS=\"-k name -x\" (make test), PYTHON=python3.11 (make setup)"

setup: $(PY_STAMP) $(NPM_STAMP) ## create .venv (requirements-dev.txt) and install the wasm port (npm ci)

$(PY_STAMP): requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

$(NPM_STAMP): tools/wasm/package.json tools/wasm/package-lock.json
	cd tools/wasm && npm ci --no-audit --no-fund --loglevel=error
	touch $@

mpy: setup ## compile lib/**/*.py into build/mpy/**/*.mpy with mpy-cross (incremental)
	$(PY) tools/build_mpy.py

assets: setup ## regenerate the font and sprite modules of lib/catan/ui from tools/assets/
	$(PY) tools/make_assets.py

lint: setup ## ruff over the whole tree (also part of make test)
	$(VENV)/bin/ruff check .

test: setup ## run host_tests with pytest: CPython tests and the scripts under real MicroPython
	@$(PY) -m pytest host_tests $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests: failing" >&2; exit 1; fi; \
	exit $$rc

bench: setup ## run tools/bench.py: print figures and merge them into build/bench.json
	$(PY) tools/bench.py

BOARD ?= pimoroni_display_pack

sim: setup ## play in a desktop window (BOARD=pimoroni_display_pack; see tools/sim.py --help)
	$(PY) tools/sim.py --board $(BOARD)

play: setup ## play in the terminal (python -m catan.console)
	PYTHONPATH=lib $(PY) -m catan.console

clean: ## remove build/ and caches (keeps .venv and node_modules)
	rm -rf build .pytest_cache host_tests/.pytest_cache .hypothesis
	find lib tools host_tests -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean ## also remove .venv and tools/wasm/node_modules
	rm -rf $(VENV) tools/wasm/node_modules
