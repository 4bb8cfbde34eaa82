# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# the BLM20 kernels compiled ahead of time (littlestone.pac._kernels_build); rebuilt when their source changes.
# A failed build (no C compiler, ...) prints one line and leaves the Numba JIT in use: it never fails the target.
KERNELS := $(VENV)/.kernels
KERNEL_SRC := src/littlestone/pac/_kernels.py src/littlestone/pac/_kernels_build.py src/littlestone/_aot.py

.PHONY: demo test test-slow lint bench clean venv mutation mutation-learners

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,dask]'
	touch $(STAMP)

$(KERNELS): $(STAMP) $(KERNEL_SRC)
	$(BIN)/python -m littlestone.pac._kernels_build || true
	touch $(KERNELS)

venv: $(KERNELS)

demo: $(KERNELS)
	$(BIN)/littlestone demo

test: $(KERNELS)
	$(BIN)/python -m pytest -n 2 -q

test-slow: $(KERNELS)
	$(BIN)/python -m pytest -n 2 -q -m slow

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# privacy-focused mutation testing (tools/mutate.py): long, not part of `make test`; report in mutation.json
MUTATION_TARGETS := src/littlestone/privacy src/littlestone/private_online src/littlestone/experts \
	src/littlestone/sanitizers src/littlestone/agnostic_online src/littlestone/pac
MUTATION_TESTS := tests/privacy tests/audit tests/private_online tests/experts tests/sanitizers \
	tests/agnostic_online tests/pac tests/ggkm21 tests/core
mutation: $(KERNELS)
	$(BIN)/python tools/mutate.py $(MUTATION_TARGETS) --tests $(MUTATION_TESTS) --jobs 2 \
		--justify tools/mutation_justified.json --out mutation.json

# the practical private online learners only, with the tests that reach them (issue 34 item 4; ~15 min at --jobs 1)
LEARNER_MODULES := $(addprefix src/littlestone/private_online/,list_at.py bisect_at.py points_at.py intervals_at.py segments.py)
mutation-learners: $(KERNELS)
	nice -n 10 $(BIN)/python tools/mutate.py $(LEARNER_MODULES) --tests tests/private_online --jobs 1 --timeout 300 \
		--justify tools/mutation_justified.json --out mutation_learners.json

bench: $(KERNELS)
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info src/littlestone/pac/_kernels_aot_*
