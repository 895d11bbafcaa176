# loom's commands.
#   make test      install what is missing, build into build/, run ctest then pytest
#   make demo      same setup, then run examples/tour.py
#   make docs      the documentation site (Sphinx, docs/site/) into build/docs/html; warnings
#                  are errors; `make test` builds it too
#   make gpu-test  on a machine with an NVIDIA GPU, offline: system python3, build-gpu/,
#                  every GPU test must run (LOOM_REQUIRE_GPU=1)
#   make bench     bench/transfer.py, bench/ops.py (loom vs NumPy, PyTorch, CuPy, JAX) and
#                  bench/kernels.py (CUDA C kernels: loom vs CuPy, Numba), bench/emulator.py
#                  (CUDA C kernels on the CPU: loom's emulator vs plain C++, Numba's simulator),
#                  bench/python_kernels.py (Python kernels: loom vs Numba, CuPy),
#                  bench/transforms.py (jit, vmap, grad: loom vs JAX, PyTorch),
#                  bench/fft.py (FFTs: loom vs NumPy on the CPU, CuPy and PyTorch on a GPU),
#                  bench/scipy_functions.py (loom.scipy: special, gaussian_filter, fftconvolve vs SciPy
#                  on the CPU, CuPy, PyTorch, JAX on a GPU),
#                  bench/graphs.py (20 small ops: eager vs loom.cuda_graph, PyTorch's and CuPy's graphs),
#                  bench/dask_cluster.py (dask.array over loom chunks: a 2-process local cluster vs 1 process);
#                  every table also as JSON/CSV, and charts by bench/plots.py, under docs/site/benchmarks
#   make asan-test the CPU build and both test suites under AddressSanitizer and
#                  UndefinedBehaviorSanitizer, in build-asan/ (slow; not part of CI)
#   make tsan-test the CPU build under ThreadSanitizer, in build-tsan/: ctest (but the
#                  emulator and user-kernel tests) and examples/nn_digits.py on cpu() (slow; not in CI)
#   make numba-suite  Numba-CUDA's own tests against loom.cuda (NUMBA_CUDA_DIR: a checkout of
#                  NVIDIA/numba-cuda; tools/numba_suite/; not part of make test)
#   make cupy-suite   CuPy's own tests (tests/cupy_tests) against loom as `cupy` (CUPY_DIR: a
#                  checkout of cupy/cupy; tools/cupy_suite/; not part of make test)
#   make cupyx-scipy-suite  CuPy's tests of cupyx.scipy (tests/cupyx_tests/scipy_tests: special,
#                  ndimage, signal, linalg, fft) against loom.scipy as `cupyx.scipy` (CUPY_DIR, as
#                  cupy-suite; tools/cupy_suite/run_scipy.sh; not part of make test)
#   make pycuda-suite  PyCUDA's own tests (test/test_driver.py, test_gpuarray.py, test_cumath.py)
#                  against loom.pycuda (PYCUDA_DIR: a checkout of inducer/pycuda; tools/pycuda_suite/)
#   make d2l-suite  the d2l book's PyTorch code, chapters 3-8 and 13, against loom (D2L_DIR: a
#                  checkout of d2l-ai/d2l-en; D2L_SUITE_MAX_EPOCHS/_BATCHES cap a quick run; tools/d2l_suite/)
#   make jax-docs-suite  JAX's documentation pages (quickstart, autodiff, custom derivatives,
#                  control flow) cell by cell against loom as `jax` (JAX_DIR: a checkout of
#                  jax-ml/jax; JAX_REF_PYTHON: a Python with real JAX; tools/jax_docs_suite/)
#   make gpu-memcheck  on the GPU machine: ctest and the GPU-heavy pytest files under
#                  compute-sanitizer --tool memcheck (log in build-gpu/memcheck.log)
#   make stubs     rewrite the type stubs (python/loom/*.pyi) from the built extension
#   make clean     build outputs; `make distclean` also drops .venv and .ccache
SHELL := /bin/bash
.DEFAULT_GOAL := test
.PHONY: test demo docs build stubs deps venv gpu-check gpu-build gpu-test gpu-memcheck asan-test tsan-test numba-suite cupy-suite cupyx-scipy-suite pycuda-suite jax-docs-suite d2l-suite bench gtest-src deps-debs gloo-debs clean distclean

JOBS ?= 2
GPU_JOBS ?= 16
GPU_CTEST_JOBS ?= 4
GPU_PYTEST_WORKERS ?= 8
CMAKE_ARGS ?=
BUILD_DIR := build
GPU_BUILD_DIR := build-gpu
VENV := .venv
VPY := $(VENV)/bin/python
# chromium: python/tests/test_dashboard.py screenshots the dashboard in it (about 20 s to install).
APT_PACKAGES := g++ cmake ninja-build ccache libgtest-dev libopenblas-dev libboost-context-dev libgloo-dev libfftw3-dev chromium

# ccache keeps its objects inside the checkout; BASEDIR makes paths relative, so a
# cache copied to another checkout still hits.
export CCACHE_DIR ?= $(CURDIR)/.ccache
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_MAXSIZE ?= 2G

# Runs pytest; exit 5 (nothing collected) is not a failure. Nothing may print after
# it: pytest's summary line is the last line of `make test`.
define run_pytest
rc=0; $(1) -m pytest python/tests $(2) || rc=$$?; [ $$rc -eq 5 ] && rc=0; exit $$rc
endef

# ---------------------------------------------------------------- CPU (dev, CI)

test: build docs
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)
	@$(call run_pytest,$(VPY))

demo: build
	$(VPY) examples/tour.py

# The site's tools go into their own folder (pinned in docs/site/requirements.txt, every
# dependency listed, so --no-deps), not into the development venv; autodoc imports the built
# package from python/. -E rereads every page: autodoc cannot tell that the extension changed.
DOCS_DEPS := $(BUILD_DIR)/docs-deps
DOCS_OUT := $(BUILD_DIR)/docs
$(DOCS_DEPS)/.requirements: docs/site/requirements.txt | venv
	@rm -rf $(DOCS_DEPS)
	@echo "docs: installing docs/site/requirements.txt into $(DOCS_DEPS)"
	@$(VPY) -m pip install -q --disable-pip-version-check --no-deps --target $(DOCS_DEPS) -r docs/site/requirements.txt
	@cp docs/site/requirements.txt $@

docs: build $(DOCS_DEPS)/.requirements
	PYTHONPATH=$(CURDIR)/$(DOCS_DEPS):$(CURDIR)/python $(VPY) -m sphinx -E -W --keep-going -q -b html \
	  -d $(DOCS_OUT)/doctrees docs/site $(DOCS_OUT)/html
	@echo "docs: $(DOCS_OUT)/html/index.html"

# Debian packages, installed only when missing, so a set-up machine never needs apt.
deps:
	@command -v dpkg >/dev/null || { echo "deps: no dpkg; install $(APT_PACKAGES) by hand"; exit 0; }; \
	missing=""; \
	for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	python3 -c 'import ensurepip, venv' 2>/dev/null || missing="$$missing python3-venv"; \
	python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
	  || missing="$$missing python3-dev"; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $$sudo apt-get update -qq && $$sudo apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

# The venv is (re)filled when requirements-dev.txt changes.
$(VENV)/.requirements: requirements-dev.txt | deps
	@test -x $(VPY) || { echo "venv: creating $(VENV)"; python3 -m venv $(VENV); }
	@echo "venv: installing requirements-dev.txt"
	@$(VPY) -m pip install -q --disable-pip-version-check -r requirements-dev.txt
	@cp requirements-dev.txt $@

# The .pth puts python/ on the venv's sys.path: `.venv/bin/python -c "import loom"` works.
venv: $(VENV)/.requirements
	@$(VPY) -c 'import pathlib, sysconfig; p = pathlib.Path(sysconfig.get_paths()["purelib"], "loom-dev.pth"); t = "$(CURDIR)/python\n"; (p.exists() and p.read_text() == t) or p.write_text(t)'

$(BUILD_DIR)/build.ninja: | venv
	@# A tree configured with another generator cannot be switched to Ninja in place.
	@rm -rf $(BUILD_DIR)/CMakeCache.txt $(BUILD_DIR)/CMakeFiles
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DPython_EXECUTABLE=$(CURDIR)/$(VPY) $(CMAKE_ARGS)

build: venv $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS)

# nanobind's stubgen over the built extension (python/tests/test_stubs.py checks they match).
stubs: build
	$(VPY) tools/gen_stubs.py

# ---------------------------------------------------------------- GPU machine (offline)

GPU_GENERATOR = $(if $(shell command -v ninja 2>/dev/null),-G Ninja,)
# Debian's googletest sources copied into .gtest/ (`make gtest-src`) serve a machine
# that has no GoogleTest package.
GPU_GTEST = $(if $(wildcard .gtest/CMakeLists.txt),-DLOOM_GTEST_SOURCE=$(CURDIR)/.gtest,)
# Debian's Gloo and FFTW and the libraries they load, unpacked into .deps/ (`make deps-debs`),
# give cpu() collectives and FFTs to a machine without the packages; the GPU build and tests
# use them.
DEPS_LIBS = $(CURDIR)/.deps/usr/lib:$(CURDIR)/.deps/usr/lib/x86_64-linux-gnu:$(CURDIR)/.deps/lib/x86_64-linux-gnu
GPU_ENV = $(if $(wildcard .deps/usr/include/gloo .deps/usr/include/fftw3.h),LOOM_GLOO_ROOT=$(CURDIR)/.deps/usr LD_LIBRARY_PATH=$(DEPS_LIBS):$$LD_LIBRARY_PATH,)

gpu-check:
	@command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU' \
	  || { echo "gpu-test: no NVIDIA GPU is visible (nvidia-smi -L lists none)" >&2; exit 1; }
	@nvidia-smi -L

gpu-build: gpu-check
	@test -f $(GPU_BUILD_DIR)/build.ninja -o -f $(GPU_BUILD_DIR)/Makefile || \
	  $(GPU_ENV) cmake -S . -B $(GPU_BUILD_DIR) $(GPU_GENERATOR) -DCMAKE_BUILD_TYPE=Release -DLOOM_CUDA=ON \
	    -DPython_EXECUTABLE=$$(command -v python3) $(GPU_GTEST) $(CMAKE_ARGS)
	$(GPU_ENV) cmake --build $(GPU_BUILD_DIR) -j $(GPU_JOBS)

gpu-test: gpu-build
	cd $(GPU_BUILD_DIR) && $(GPU_ENV) LOOM_REQUIRE_GPU=1 ctest --output-on-failure -j $(GPU_CTEST_JOBS)
	@# Every GPU test of a new op compiles its kernels with NVRTC (single-threaded): spread
	@# the tests over processes when pytest-xdist is there (it is on the GPU machine).
	@export $(GPU_ENV) LOOM_REQUIRE_GPU=1 PYTHONPATH=$(CURDIR)/python; \
	  xd=""; python3 -c "import xdist" 2>/dev/null && xd="-n $(GPU_PYTEST_WORKERS)"; \
	  $(call run_pytest,python3,$$xd)

# compute-sanitizer follows pytest-xdist's workers (--target-processes all); every report
# goes to one log, and the summary lines of each process are printed at the end.
MEMCHECK_PYTEST ?= python/tests/test_raw_module.py python/tests/test_elementwise_kernel.py \
  python/tests/test_reduction_kernel.py python/tests/test_driver.py python/tests/test_stream.py \
  python/tests/test_array_transfer.py python/tests/test_memory.py python/tests/test_emulator.py \
  python/tests/test_elementwise.py python/tests/test_indexing.py python/tests/test_sorting.py
MEMCHECK_GTEST ?= *
MEMCHECK = compute-sanitizer --tool memcheck --target-processes all --print-limit 50 \
  --log-file $(CURDIR)/$(GPU_BUILD_DIR)/memcheck.%p.log
gpu-memcheck: gpu-build
	rm -f $(GPU_BUILD_DIR)/memcheck.*.log
	cd $(GPU_BUILD_DIR) && LOOM_REQUIRE_GPU=1 LOOM_CACHE_DIR=$(CURDIR)/$(GPU_BUILD_DIR)/test-compile-cache \
	  $(MEMCHECK) ./loom_tests --gtest_brief=1 --gtest_filter='$(MEMCHECK_GTEST)' || true
	@export $(GPU_ENV) LOOM_REQUIRE_GPU=1 PYTHONPATH=$(CURDIR)/python; \
	  xd=""; python3 -c "import xdist" 2>/dev/null && xd="-n $(GPU_PYTEST_WORKERS)"; \
	  $(MEMCHECK) python3 -m pytest -q $$xd $(MEMCHECK_PYTEST) || true
	@cat $(GPU_BUILD_DIR)/memcheck.*.log > $(GPU_BUILD_DIR)/memcheck.log
	@echo "memcheck: $$(grep -c '^========= [A-Z]' $(GPU_BUILD_DIR)/memcheck.log) report lines; summaries:"
	@grep -h 'ERROR SUMMARY' $(GPU_BUILD_DIR)/memcheck.*.log | sort | uniq -c

gtest-src:
	rm -rf .gtest && cp -r /usr/src/googletest .gtest

# Run where apt works (the packages need not be installed); carry .deps/ to the GPU machine.
# gloo-debs is the target's old name.
DEPS_DEBS := libgloo0 libgloo-dev libhiredis0.14 libibverbs1 libnl-3-200 libnl-route-3-200 \
  libfftw3-dev libfftw3-single3 libfftw3-double3
deps-debs:
	rm -rf .deps .deps-download && mkdir -p .deps .deps-download
	cd .deps-download && apt-get download $(DEPS_DEBS)
	for f in .deps-download/*.deb; do dpkg -x $$f .deps; done
	rm -rf .deps-download
gloo-debs: deps-debs

# ---------------------------------------------------------------- sanitizers (not in CI)

ASAN_BUILD_DIR := build-asan
# The CPU backend and the kernel emulator only (LOOM_CUDA=OFF): the sanitizers run where
# there is no GPU, and the CUDA libraries are not instrumented anyway.
# The instrumented extension goes to its own package folder (the .py files linked in), so
# the normal build's python/loom stays as it is.
ASAN_PKG := $(CURDIR)/$(ASAN_BUILD_DIR)/python
# Python itself is not instrumented: the runtimes are preloaded. Leaks are not checked
# (CPython keeps objects until exit); UBSan stops at the first error so it cannot scroll by.
# Emulated kernels run on ucontext fibers, whose switches ASan intercepts; it cannot follow
# boost.context's (google/sanitizers#189: false stack-buffer-overflow reports).
ASAN_ENV = LOOM_EMULATOR_FIBERS=ucontext LD_PRELOAD="$$(g++ -print-file-name=libasan.so) $$(g++ -print-file-name=libubsan.so)" \
  ASAN_OPTIONS=detect_leaks=0:allow_user_segv_handler=1:detect_stack_use_after_return=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

asan-test: venv
	cmake -S . -B $(ASAN_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOOM_SANITIZE=ON -DLOOM_CUDA=OFF \
	  -DLOOM_PYTHON_OUTPUT_DIR=$(ASAN_PKG)/loom -DPython_EXECUTABLE=$(CURDIR)/$(VPY) $(CMAKE_ARGS)
	cmake --build $(ASAN_BUILD_DIR) -j $(JOBS)
	@# The pure-Python modules and subpackages (not the extension, which this build makes).
	@for f in python/loom/*.py python/loom/*/; do f=$${f%/}; [ "$${f##*/}" = __pycache__ ] || ln -sfn $(CURDIR)/$$f $(ASAN_PKG)/loom/; done
	cd $(ASAN_BUILD_DIR) && LOOM_EMULATOR_FIBERS=ucontext ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS)
	@export $(ASAN_ENV) PYTHONPATH=$(ASAN_PKG); $(call run_pytest,$(VPY),-p no:cacheprovider)

TSAN_BUILD_DIR := build-tsan
TSAN_PKG := $(CURDIR)/$(TSAN_BUILD_DIR)/python
# Races between the threads of CPU ops: the thread pool, allocators, caches. The emulator's
# fibers switch stacks in ways TSan does not follow (its tests are left out here; make
# asan-test covers them). Python is not instrumented: the runtime is preloaded, and a race
# report stops the process (halt_on_error) with both stacks. NN_DIGITS_RUNS repeats the example
# that once died with SIGSEGV on a 16-core machine (issue 40).
NN_DIGITS_RUNS ?= 3
TSAN_OPTS := halt_on_error=1:second_deadlock_stack=1:suppressions=$(CURDIR)/tools/tsan_suppressions.txt
TSAN_ENV = LD_PRELOAD="$$(g++ -print-file-name=libtsan.so)" TSAN_OPTIONS=$(TSAN_OPTS)
tsan-test: venv
	cmake -S . -B $(TSAN_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOOM_TSAN=ON -DLOOM_CUDA=OFF \
	  -DLOOM_PYTHON_OUTPUT_DIR=$(TSAN_PKG)/loom -DPython_EXECUTABLE=$(CURDIR)/$(VPY) $(CMAKE_ARGS)
	cmake --build $(TSAN_BUILD_DIR) -j $(JOBS)
	@for f in python/loom/*.py python/loom/*/; do f=$${f%/}; [ "$${f##*/}" = __pycache__ ] || ln -sfn $(CURDIR)/$$f $(TSAN_PKG)/loom/; done
	cd $(TSAN_BUILD_DIR) && TSAN_OPTIONS=$(TSAN_OPTS) \
	  ctest --output-on-failure -j $(JOBS) -E '^(CpuEmulator|Emulator|FaultGuard|ElementwiseKernel|ReductionKernel|KernelLaunch)'
	@for i in $$(seq $(NN_DIGITS_RUNS)); do \
	  export $(TSAN_ENV) PYTHONPATH=$(TSAN_PKG); $(VPY) examples/nn_digits.py || exit 1; done

# Numba-CUDA's test suite run against loom.cuda (docs/site/porting/numba_suite.md): fails on a
# failure that tools/numba_suite/known_failures.txt does not list, then prints the per-file
# counts, the pass rate and the causes. Runs on the default device (LOOM_DEVICE=cpu for cpu()).
numba-suite:
	@test -n "$(NUMBA_CUDA_DIR)" || { echo "numba-suite: set NUMBA_CUDA_DIR to a checkout of NVIDIA/numba-cuda" >&2; exit 2; }
	@ls python/loom/_loom*.so >/dev/null 2>&1 \
	  || { echo "numba-suite: build loom first (make build, or make gpu-build on a GPU machine)" >&2; exit 1; }
	@py=python3; [ -x $(VPY) ] && py=$(VPY); rc=0; \
	  NUMBA_CUDA_DIR=$(NUMBA_CUDA_DIR) PYTHON=$$py NUMBA_SUITE_XFAIL=1 tools/numba_suite/run.sh || rc=$$?; \
	  $$py tools/numba_suite/summarize.py build/numba_suite/report.jsonl --suite $(NUMBA_CUDA_DIR) \
	    --known tools/numba_suite/known_failures.txt; exit $$rc

# CuPy's test suite run against loom as `cupy` (docs/site/porting/cupy_suite.md): fails on a
# failure that tools/cupy_suite/known_failures.txt does not list, then prints the per-file and
# per-folder counts, the pass rate and the causes. Runs on the default device (LOOM_DEVICE=cpu
# for cpu()); JOBS=N runs N pytest-xdist workers (default 2).
cupy-suite:
	@test -n "$(CUPY_DIR)" || { echo "cupy-suite: set CUPY_DIR to a checkout of cupy/cupy" >&2; exit 2; }
	@ls python/loom/_loom*.so >/dev/null 2>&1 \
	  || { echo "cupy-suite: build loom first (make build, or make gpu-build on a GPU machine)" >&2; exit 1; }
	@py=python3; [ -x $(VPY) ] && py=$(VPY); rc=0; \
	  CUPY_DIR=$(CUPY_DIR) PYTHON=$$py CUPY_SUITE_XFAIL=1 JOBS=$(JOBS) tools/cupy_suite/run.sh || rc=$$?; \
	  $$py tools/cupy_suite/summarize.py build/cupy_suite/report.jsonl --suite $(CUPY_DIR) \
	    --known tools/cupy_suite/known_failures.txt; exit $$rc

# CuPy's tests of cupyx.scipy run against loom.scipy (docs/site/porting/cupyx_scipy_suite.md),
# as cupy-suite: fails on a failure that tools/cupy_suite/scipy_known_failures.txt does not
# list, then prints the counts, the pass rate and the causes.
cupyx-scipy-suite:
	@test -n "$(CUPY_DIR)" || { echo "cupyx-scipy-suite: set CUPY_DIR to a checkout of cupy/cupy" >&2; exit 2; }
	@ls python/loom/_loom*.so >/dev/null 2>&1 \
	  || { echo "cupyx-scipy-suite: build loom first (make build, or make gpu-build on a GPU machine)" >&2; exit 1; }
	@py=python3; [ -x $(VPY) ] && py=$(VPY); rc=0; \
	  CUPY_DIR=$(CUPY_DIR) PYTHON=$$py CUPYX_SCIPY_SUITE_XFAIL=1 JOBS=$(JOBS) tools/cupy_suite/run_scipy.sh || rc=$$?; \
	  $$py tools/cupy_suite/summarize_scipy.py build/cupyx_scipy_suite/report.jsonl --suite $(CUPY_DIR) \
	    --known tools/cupy_suite/scipy_known_failures.txt; exit $$rc

# PyCUDA's test suite run against loom.pycuda (docs/site/porting/pycuda_suite.md), as cupy-suite.
pycuda-suite:
	@test -n "$(PYCUDA_DIR)" || { echo "pycuda-suite: set PYCUDA_DIR to a checkout of inducer/pycuda" >&2; exit 2; }
	@ls python/loom/_loom*.so >/dev/null 2>&1 \
	  || { echo "pycuda-suite: build loom first (make build, or make gpu-build on a GPU machine)" >&2; exit 1; }
	@py=python3; [ -x $(VPY) ] && py=$(VPY); rc=0; \
	  PYCUDA_DIR=$(PYCUDA_DIR) PYTHON=$$py PYCUDA_SUITE_XFAIL=1 JOBS=$(JOBS) tools/pycuda_suite/run.sh || rc=$$?; \
	  $$py tools/pycuda_suite/summarize.py build/pycuda_suite/report.jsonl --suite $(PYCUDA_DIR) \
	    --known tools/pycuda_suite/known_failures.txt; exit $$rc

# JAX's documentation pages run against loom as `jax` (docs/site/porting/jax_docs_suite.md):
# prints the per-page counts and fails on a failing cell tools/jax_docs_suite/known_failures.txt
# does not list. JAX_REF_PYTHON (a Python with jax installed) makes the reference outputs.
jax-docs-suite:
	@test -n "$(JAX_DIR)" || { echo "jax-docs-suite: set JAX_DIR to a checkout of jax-ml/jax" >&2; exit 2; }
	@ls python/loom/_loom*.so >/dev/null 2>&1 \
	  || { echo "jax-docs-suite: build loom first (make build, or make gpu-build on a GPU machine)" >&2; exit 1; }
	@py=python3; [ -x $(VPY) ] && py=$(VPY); \
	  JAX_DIR=$(JAX_DIR) JAX_REF_PYTHON=$(JAX_REF_PYTHON) PYTHON=$$py tools/jax_docs_suite/run.sh

# The d2l book's PyTorch sections (chapters 3-8 and 13) run against loom through a torch shim
# (docs/site/porting/d2l_suite.md): prints the per-section table and fails on a failing cell
# tools/d2l_suite/known_failures.txt does not list. D2L_DATA: Fashion-MNIST's files, if at hand.
d2l-suite:
	@test -n "$(D2L_DIR)" || { echo "d2l-suite: set D2L_DIR to a checkout of d2l-ai/d2l-en" >&2; exit 2; }
	@ls python/loom/_loom*.so >/dev/null 2>&1 \
	  || { echo "d2l-suite: build loom first (make build, or make gpu-build on a GPU machine)" >&2; exit 1; }
	@py=python3; [ -x $(VPY) ] && py=$(VPY); \
	  D2L_DIR=$(D2L_DIR) PYTHON=$$py tools/d2l_suite/run.sh

# ---------------------------------------------------------------- misc

# The venv's python where there is one (dev machine), else python3 (GPU machine). Every
# table is also saved as data (bench/table.py) into BENCH_DATA; bench/plots.py then draws
# the charts and the results page that docs/site/benchmarks.md shows (commit them after a
# run on the GPU machine to publish its numbers).
BENCH_DATA := docs/site/benchmarks/data
bench:
	@ls python/loom/_loom*.so >/dev/null 2>&1 \
	  || { echo "bench: build loom first (make build, or make gpu-build on a GPU machine)" >&2; exit 1; }
	@rm -rf $(BENCH_DATA)
	@$(if $(GPU_ENV),export $(GPU_ENV);) export LOOM_BENCH_DATA=$(CURDIR)/$(BENCH_DATA); \
	  py=python3; [ -x $(VPY) ] && py=$(VPY); PYTHONPATH=$(CURDIR)/python $$py bench/transfer.py && PYTHONPATH=$(CURDIR)/python $$py bench/ops.py \
	  && PYTHONPATH=$(CURDIR)/python $$py bench/kernels.py && PYTHONPATH=$(CURDIR)/python $$py bench/emulator.py \
	  && PYTHONPATH=$(CURDIR)/python $$py bench/python_kernels.py && PYTHONPATH=$(CURDIR)/python $$py bench/transforms.py \
	  && PYTHONPATH=$(CURDIR)/python $$py bench/control_flow.py && PYTHONPATH=$(CURDIR)/python $$py bench/nn.py \
	  && PYTHONPATH=$(CURDIR)/python $$py bench/linalg.py && PYTHONPATH=$(CURDIR)/python $$py bench/fft.py \
	  && PYTHONPATH=$(CURDIR)/python $$py bench/scipy_functions.py \
	  && PYTHONPATH=$(CURDIR)/python $$py bench/data_parallel.py && PYTHONPATH=$(CURDIR)/python $$py bench/graphs.py \
	  && PYTHONPATH=$(CURDIR)/python $$py bench/dask_cluster.py \
	  && $$py bench/plots.py

clean:
	rm -rf $(BUILD_DIR) $(GPU_BUILD_DIR) $(ASAN_BUILD_DIR) python/loom/_loom*.so .pytest_cache .hypothesis
	@# test_packaging.py's builds (the wheels, the CMake package)
	rm -rf build-wheel build-wheel-cpu build-cmake-package
	find python examples bench -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) .ccache
