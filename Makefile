# blk — the two commands of the quick start are `make run` and `make test`.
BUILD ?= build
JOBS ?= $(shell nproc)
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
CMAKE_FLAGS ?=

FUZZ_SECONDS ?= 600
FUZZ_BUILD ?= build-fuzz

.PHONY: deps configure build test run clean editors bench install fuzz

deps:
	bash scripts/install-deps.sh

configure:
	@if [ ! -f $(BUILD)/CMakeCache.txt ]; then \
	  cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS); \
	fi

build: deps configure
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

run: build
	bash scripts/run-samples.sh $(BUILD)

# The long fuzz runs (README.md, "Fuzzing"): each libFuzzer target, then the
# whole-pipeline differential fuzzer, FUZZ_SECONDS each. A finding fails the
# target, after every fuzzer has run.
fuzz: build
	bash scripts/install-fuzz-deps.sh
	@status=0; \
	bash scripts/fuzz.sh $(BUILD) $(FUZZ_BUILD) $(FUZZ_SECONDS) || status=1; \
	if [ -f fuzz/pipeline/fuzz.py ]; then \
	  python3 fuzz/pipeline/fuzz.py --blkc $(BUILD)/bin/blkc --time $(FUZZ_SECONDS) || status=1; \
	else \
	  echo "fuzz: fuzz/pipeline/fuzz.py is missing: pipeline fuzzer skipped"; \
	fi; \
	exit $$status

install: build
	cmake --install $(BUILD) --prefix $(or $(PREFIX),/usr/local)

editors:
	bash scripts/build-editors.sh

clean:
	rm -rf $(BUILD)
