# fairsched: PGXS build. `make test` and `make demo` are the README's two commands; they set up
# everything (packages, build, install, a throwaway cluster) through scripts/.

EXTENSION   = fairsched
EXTVERSION  = 0.1.0
MODULE_big  = fairsched

CORE_OBJS   = src/core/fs_core.o src/core/resvec.o src/core/sharepath.o src/core/sharetree.o src/core/fairshare.o src/core/decay.o src/core/divide.o src/core/slots.o src/core/userprio.o src/core/placement.o src/core/placement_select.o src/core/sacct.o src/core/pbsacct.o src/core/resgroup.o src/core/condorhist.o src/core/msic_order.o src/core/msic_config.o src/core/msic_share.o
GLUE_OBJS   = src/pg/fs_pg.o src/pg/fs_expanded.o src/pg/resvec.o src/pg/sharepath.o src/pg/sharetree.o src/pg/fairshare.o src/pg/decay.o src/pg/divide.o src/pg/slots.o src/pg/userprio.o src/pg/placement.o src/pg/sacct.o src/pg/pbsacct.o src/pg/resgroup.o src/pg/condorhist.o src/pg/msic_order.o src/pg/msic_config.o src/pg/msic_share.o
OBJS        = $(CORE_OBJS) $(GLUE_OBJS)

# install-script pieces, in order
SQL_MODULES = fairsched resvec sharepath sharetree fairshare decay divide slots userprio placement sacct pbsacct resgroup condorhist msic msic_order msic_config msic_share
SQL_PIECES  = $(addprefix src/sql/,$(addsuffix .sql,$(SQL_MODULES)))
DATA_built  = $(EXTENSION)--$(EXTVERSION).sql

REGRESS      = extension resvec resvec_parallel sharepath sharetree sharetree_reference sharetree_parallel fairshare fairshare_reference decay divide slots placement sacct pbsacct resgroup condorhist msic_order msic_config msic_share
REGRESS_OPTS = --inputdir=.

PG_CPPFLAGS = -I$(srcdir)/src/core -I$(srcdir)/src/pg
# PostgreSQL 15 headers have inline functions with unused parameters; the core is built with
# the full -Wextra by the unit-test target
PG_CFLAGS   = -Wall -Wextra -Werror -Wno-unused-parameter
EXTRA_CLEAN = build results regression.diffs regression.out

PG_CONFIG ?= $(firstword $(wildcard /usr/lib/postgresql/15/bin/pg_config) pg_config)
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)

ifneq ($(wildcard $(PGXS)),)
include $(PGXS)
else
all:
	@echo "PostgreSQL server development files not found; run 'make test' or 'make demo'," >&2
	@echo "which install them, or: apt-get install postgresql-15 postgresql-server-dev-15" >&2
	@exit 1
endif

$(EXTENSION)--$(EXTVERSION).sql: $(SQL_PIECES)
	cat $^ > $@

# ---- the README's commands, and the pieces they are made of -----------------------------
.PHONY: test demo bench unit fuzz deps

test:
	@scripts/test.sh

demo:
	@scripts/demo.sh

bench:
	@scripts/bench.sh

# core unit tests, no server needed (scripts/test.sh also runs them under valgrind)
UNIT_SRCS = test/unit/unit_main.c test/unit/test_core.c test/unit/test_resvec.c test/unit/test_sharepath.c test/unit/test_sharetree.c test/unit/test_fairshare.c test/unit/test_decay.c test/unit/test_divide.c test/unit/test_slots.c test/unit/test_placement.c test/unit/test_sacct.c test/unit/test_pbsacct.c test/unit/test_resgroup.c test/unit/test_condorhist.c test/unit/test_msic_order.c test/unit/test_msic_config.c test/unit/test_msic_share.c
CORE_SRCS = $(CORE_OBJS:.o=.c)
UNIT_CFLAGS = -std=c99 -pedantic -g -O1 -Wall -Wextra -Werror -Isrc/core -Itest/unit

build/unit_tests: $(UNIT_SRCS) $(CORE_SRCS) $(wildcard src/core/*.h) test/unit/unit.h
	@mkdir -p build
	$(or $(UNIT_CC),cc) $(UNIT_CFLAGS) -o $@ $(UNIT_SRCS) $(CORE_SRCS) -lm

unit: build/unit_tests
	build/unit_tests

# libFuzzer harnesses, one per core parser
FUZZ_TARGETS = resvec sharepath sharetree placement select decay userprio slots divide sacct pbsacct resgroup condorhist msic_config msic_share
FUZZ_SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer $(FUZZ_SANITIZE) -Isrc/core -Itest/fuzz
# the core is compiled once for every harness (instrumented for coverage, not linked to a main)
FUZZ_CORE_OBJS = $(patsubst src/core/%.c,build/fuzzcore/%.o,$(CORE_SRCS))

build/fuzzcore/%.o: src/core/%.c $(wildcard src/core/*.h)
	@mkdir -p build/fuzzcore
	clang -g -O1 -fsanitize=fuzzer-no-link $(FUZZ_SANITIZE) -Isrc/core -c -o $@ $<

build/fuzz_%: test/fuzz/fuzz_%.c test/fuzz/fuzz_alloc.h $(FUZZ_CORE_OBJS)
	@mkdir -p build
	clang $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_CORE_OBJS) -lm
