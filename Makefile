# Two commands set up everything: `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
GM     := $(VENV)/bin/graphmend
STAMP  := $(VENV)/.installed-stamp
JOBS   ?= 2

.PHONY: demo test lint bench bench-recorded corpus-check evidence realcells limits rule-index clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[verify,dev]'
	touch $(STAMP)

demo: $(STAMP)
	@echo "== graphmend check examples/ (exit 1 = findings, expected)"
	-$(GM) check examples/
	@echo
	@echo "== graphmend fix --diff examples/ (writes nothing)"
	-$(GM) fix --diff examples/
	@echo
	@echo "== graphmend fix --verify on a copy in demo-out/examples: each Cell of examples/pyproject.toml"
	@echo "   is compiled in GRAPH_MODE before and after, and compared with PyNative; a file whose proof"
	@echo "   fails is not written"
	rm -rf demo-out/examples && mkdir -p demo-out && cp -r examples demo-out/examples
	-cd demo-out/examples && ../../$(GM) fix --verify --no-cache .
	@echo
	@echo "== graphmend run --graph --fix: a script written for PyNative (tests/explain_cases/three_errors),"
	@echo "   run in GRAPH_MODE; each graph-mode error is explained and fixed, until it compiles (3 rounds)"
	rm -rf demo-out/run && mkdir -p demo-out && cp -r tests/explain_cases/three_errors demo-out/run
	-cd demo-out/run && $(abspath $(GM)) run --graph --fix -q -- $(abspath $(VENV))/bin/python train.py
	@echo
	@echo "== graphmend report examples/: the HTML migration report (findings, diffs, rule docs)"
	mkdir -p demo-out && $(GM) report examples/ -o demo-out/report.html --no-cache -q
	@echo "Report: $(CURDIR)/demo-out/report.html"

# Headless Chromium renders the HTML report in tests/test_report.py.
chromium:
	command -v chromium || (apt-get update && apt-get install -y --no-install-recommends chromium fonts-dejavu-core)

test: $(STAMP) chromium
	$(PY) -m pytest -n $(JOBS) -q --durations=25

lint: $(STAMP)
	$(VENV)/bin/ruff check codemods cli.py tests bench/*.py bench/limits/*.py
	$(VENV)/bin/ruff format --check codemods cli.py tests bench/*.py bench/limits/*.py

# Both fetch the six corpus wheels into bench/corpus/ first (pip download, pinned, sha256-checked).
# `make bench ARGS="--subset 300"` is a quick run; the whole corpus takes about an hour on 2 cores.
bench: $(STAMP)
	$(PY) bench/run.py $(ARGS)
	$(PY) bench/recorded_mindcv.py --repeat 5

# record and verify --recorded on mindcv against a bare forward pass and bare compiles (a few minutes)
bench-recorded: $(STAMP)
	$(PY) bench/recorded_mindcv.py --repeat 5

corpus-check: $(STAMP)
	$(PY) bench/corpus_check.py $(ARGS)

# Each rule's hostile Cell compiled before and after its fix, in GRAPH, STRICT, dynamic and export, with the
# verifier (MindSpore in child processes): docs/evidence.md, re-measured on a new release. A few minutes.
# --check: fails when a rule's BREAKS disagrees with what this MindSpore did (graphmend.evidence.disagreements).
evidence: $(STAMP)
	$(PY) -m graphmend.evidence --jobs $(JOBS) -o docs/evidence.md --check

# Real nn.Cells of seven MindSpore wheels (bench/realcells/cells.py) compiled before and after `graphmend fix`
# and `fix --unsafe-fixes` in every mode: bench/realcells/results.{md,json}. About 11 min on 2 shared cores.
realcells: $(STAMP)
	$(PY) -m pip install --quiet -e '.[verify,dev,realcells]'
	$(PY) bench/realcells/fetch.py
	$(PY) bench/realcells/run.py --jobs 2 $(ARGS)

# codemods/rules/index.json from the rule classes, after adding or changing a rule (tests/test_rule_index.py)
rule-index: $(STAMP)
	$(PY) -c 'from graphmend.rules import write_index; write_index()'

# Every row of MindSpore's documented static-graph limits (bench/limits/cases.py) measured in PyNative, GRAPH,
# STRICT, dynamic and export: docs/limits.json, docs/limits.md and the README limits table. A few minutes.
limits: $(STAMP)
	$(PY) bench/limits/run.py --jobs $(JOBS)

clean:
	rm -rf $(VENV) .graphmend_cache .pytest_cache
