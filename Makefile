# The two commands a newcomer needs: `make run` and `make test`. See README.md.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# Test processes: one per core (pytest-xdist); TEST_WORKERS=0 runs in this process.
TEST_WORKERS ?= auto
SITE_URL ?= http://127.0.0.1:$(PORT)
# Development: the benchmark, screenshots and Lighthouse commands (portal/devtools/) are installed.
DEVTOOLS ?= 1
export PORT SITE_URL DEVTOOLS

# The first Python >= 3.12 found: .python-version via pyenv, then PATH, then any pyenv install.
define find_python
for c in "$$(pyenv root 2>/dev/null)/versions/$$(cat .python-version 2>/dev/null)/bin/python" \
         "$$HOME/.pyenv/versions/$$(cat .python-version 2>/dev/null)/bin/python" \
         python3.14 python3.13 python3.12 python3 \
         $$(ls -d $$HOME/.pyenv/versions/3.1[2-9]*/bin/python 2>/dev/null); do \
  p=$$(command -v "$$c" 2>/dev/null) || continue; \
  "$$p" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo "$$p"; exit 0; }; \
done; exit 1
endef

.PHONY: lock run test lint install browser-check clean slurm slurm-stop agent bench faults pages-db lighthouse screenshots backup restore

# Locked with hashes (`make lock`): runtime.txt is what production installs, dev.txt adds the
# test and lint tools to it.
LOCKS := .ci/requirements
$(VENV)/.installed: $(LOCKS)/dev.txt pyproject.toml
	@if [ ! -x $(PY) ]; then \
	  python=$$($(find_python)) || { echo "error: no Python >= 3.12 found (tried .python-version, PATH and ~/.pyenv/versions); install one and retry." >&2; exit 1; }; \
	  echo "Creating $(VENV) with $$python"; \
	  "$$python" -m venv $(VENV); \
	fi
	$(PY) -m pip install --quiet --disable-pip-version-check --require-hashes -r $(LOCKS)/dev.txt
	@touch $@

install: $(VENV)/.installed

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py serve --port $(PORT)

# worksteal: a worker that finished its share takes tests from one still busy with slow modules.
test: install
	TESTING=1 $(PY) -m pytest -n $(TEST_WORKERS) $(if $(filter 0,$(TEST_WORKERS)),,--dist worksteal) $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	TESTING=1 $(PY) manage.py makemigrations --check --dry-run

# The benchmark (README "Speed"): gunicorn on PostgreSQL, every page against a floor page at
# the demo scale and at FACTOR times a busy program. It wipes BENCH_DATABASE_URL first.
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/portal_bench
FACTOR ?= 100
bench: install
	@mkdir -p var
	DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) manage.py bench --wipe --factor $(FACTOR) --out var/bench.md $(BENCH_ARGS)

# The fault suite (docs/security.md, "Faults"): gunicorn, PostgreSQL, Redis (broker and cache), a
# Celery worker and an SMTP sink under load, while PostgreSQL restarts, Redis stops and a worker is
# killed. It restarts the machine's PostgreSQL and stops its Redis: every other user feels it.
FAULTS_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/portal_faults
FAULTS_REDIS ?= redis://127.0.0.1:6379
faults: install
	psql "$(dir $(FAULTS_DATABASE_URL))postgres" -tAc "SELECT 1 FROM pg_database WHERE datname = '$(notdir $(FAULTS_DATABASE_URL))'" | grep -q 1 \
	  || psql "$(dir $(FAULTS_DATABASE_URL))postgres" -qc "CREATE DATABASE $(notdir $(FAULTS_DATABASE_URL))"
	DATABASE_URL=$(FAULTS_DATABASE_URL) CELERY_BROKER_URL=$(FAULTS_REDIS)/14 CACHE_URL=$(FAULTS_REDIS)/13 \
	  $(PY) manage.py faults $(FAULTS_ARGS)

# The database is the portal's only state (docs/deployment.md, "Backups"). `make backup` writes
# var/backups/portal-<UTC time>.dump (PostgreSQL) or .sqlite3 (the embedded default), or BACKUP=file;
# `make restore BACKUP=file` replaces the database's content with it (stop the server first).
backup: install
	$(PY) manage.py backup $(if $(BACKUP),--out "$(BACKUP)")

restore: install
	@test -n "$(BACKUP)" || { echo "usage: make restore BACKUP=var/backups/portal-<time>.dump" >&2; exit 2; }
	$(PY) manage.py restore "$(BACKUP)"

# The Slurm agent as one file an operator copies to a cluster's login node (docs/runs.md, "The agent").
AGENT_PYZ ?= var/e31-slurm-agent.pyz
agent:
	python3 -m jobs.slurm_agent.build $(AGENT_PYZ)

# A four-node Slurm cluster on this machine (root): each slurmd in its own network and hostname
# namespace, one slurmctld, slurmdbd and munge, fake GPUs (README "Slurm cluster").
slurm:
	bash .ci/slurm-up

slurm-stop:
	bash .ci/slurm-up --down

# Rewrites both locks from pyproject.toml, keeping every version already locked (uv in var/).
lock: install
	test -x var/lock-tools/bin/uv || { $(PY) -m venv var/lock-tools && var/lock-tools/bin/pip install --quiet uv; }
	var/lock-tools/bin/uv pip compile pyproject.toml --generate-hashes --no-annotate --no-header \
	  --python-version 3.12 -c $(LOCKS)/runtime.txt --quiet -o $(LOCKS)/runtime.txt
	var/lock-tools/bin/uv pip compile pyproject.toml --extra dev --generate-hashes --no-annotate --no-header \
	  --python-version 3.12 -c $(LOCKS)/dev.txt --quiet -o $(LOCKS)/dev.txt

clean:
	rm -rf $(VENV) var

# The people's side, measured and shown (see README "Accessibility, Lighthouse, screenshots").
# Both serve a fresh demo database under var/pages/ from the command's own process.
PAGES_ENV := env -u DATABASE_URL -u CELERY_BROKER_URL VAR_DIR=var/pages
pages-db: install
	rm -rf var/pages && mkdir -p var/pages
	$(PAGES_ENV) $(PY) manage.py migrate --noinput --verbosity 0
	$(PAGES_ENV) $(PY) manage.py load_demo
	$(PAGES_ENV) $(PY) manage.py collectstatic --noinput --verbosity 0

# Lighthouse from npm (the only npm package; not needed by `make test`), Debian's Chromium.
lighthouse: pages-db
	npm install --prefix var/node --no-audit --no-fund --loglevel=error lighthouse@12
	$(PAGES_ENV) $(PY) manage.py lighthouse --lighthouse var/node/node_modules/.bin/lighthouse

screenshots: pages-db
	$(PAGES_ENV) $(PY) manage.py screenshots --out docs/screenshots
