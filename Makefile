# The two promises of the README: `make demo` and `make test`, on a machine with only Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
OUT ?= out
GAMES ?= $(shell test -x $(BIN)/pnpforge && $(BIN)/pnpforge games --ids 2>/dev/null)

.PHONY: demo test lint format bench fuzz clean catalogs

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml $(BIN)/activate
	$(BIN)/pip install -q -e '.[test]'
	$(BIN)/python -m compileall -q src  # bytecode, as a regular install has: no compiling at each start
	touch $@

# The message catalogs (src/pnpforge/locale/*.po, kept by tools/catalogs.py) compiled for pnpforge to read
CATALOGS := $(patsubst %.po,%.mo,$(wildcard src/pnpforge/locale/*.po))
src/pnpforge/locale/%.mo: src/pnpforge/locale/%.po $(VENV)/.installed
	$(BIN)/python tools/catalogs.py compile $<

catalogs: $(VENV)/.installed  # after changing a marked message: new ids into every .po, then compile
	$(BIN)/python tools/catalogs.py update
	$(BIN)/python tools/catalogs.py compile

demo: $(VENV)/.installed $(CATALOGS)
	@mkdir -p $(OUT)
	$(BIN)/pnpforge build examples/tiny-quest -o $(OUT)
	@for g in $$($(BIN)/pnpforge games --ids); do $(BIN)/pnpforge build $$g -o $(OUT) || exit 1; done
	@echo "Built into $(OUT)/:"; ls -1 $(OUT)

test: $(VENV)/.installed $(CATALOGS)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy  # over src/, at the strictness in pyproject.toml [tool.mypy]
	$(BIN)/pytest

format: $(VENV)/.installed
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(VENV)/.installed $(CATALOGS)  # each figure beside its aim, then those over their aims
	@$(BIN)/python bench/run_all.py

# The long hostile-input campaign (tests/fuzz_campaign.py): prints cases, tracebacks, hangs, crashes,
# unlocated and internal errors; fails unless all but `cases` are 0. FUZZ_CASES=N for a shorter run.
FUZZ_CASES ?= 10500
fuzz: $(VENV)/.installed $(CATALOGS)
	$(BIN)/python tests/fuzz_campaign.py --cases $(FUZZ_CASES) --workers 2

clean:
	rm -rf $(OUT) .pytest_cache .mypy_cache build *.egg-info src/*.egg-info
