# fairsched: PGXS build. `make test` and `make demo` are the README's two commands; they set up
# everything (packages, build, install, a throwaway cluster) through scripts/.

EXTENSION   = fairsched
EXTVERSION  = 0.2.0
MODULE_big  = fairsched

# objects, unit tests, fuzz harnesses and regression suites are found by name (order does not
# matter for them); the install script is concatenated in SQL_MODULES order (types first).
# src/core and src/pg each hold the base at the top and a folder per concern (docs/architecture.md):
# types, share, placement, load, msic.
CONCERNS    = types share placement load msic priority
CORE_OBJS   = $(patsubst %.c,%.o,$(sort $(wildcard src/core/*.c $(addprefix src/core/,$(addsuffix /*.c,$(CONCERNS))))))
GLUE_OBJS   = $(patsubst %.c,%.o,$(sort $(wildcard src/pg/*.c $(addprefix src/pg/,$(addsuffix /*.c,$(CONCERNS))))))
CORE_HDRS   = $(wildcard src/core/*.h $(addprefix src/core/,$(addsuffix /*.h,$(CONCERNS))))
GLUE_HDRS   = $(wildcard src/pg/*.h $(addprefix src/pg/,$(addsuffix /*.h,$(CONCERNS))))
OBJS        = $(CORE_OBJS) $(GLUE_OBJS)

# install-script pieces, in order
SQL_MODULES = fairsched resvec sharepath sharetree fairshare decay divide slots userprio placement sacct pbsacct resgroup condorhist loadlog msic msic_order msic_config msic_share msic_cycle groupquota priority slurm_priority scontrol slurm_history vector_hdrf
SQL_PIECES  = $(addprefix src/sql/,$(addsuffix .sql,$(SQL_MODULES)))
DATA_built  = $(EXTENSION)--$(EXTVERSION).sql
# released versions' full scripts (frozen) and the upgrade scripts from each to the next
DATA        = $(EXTENSION)--0.1.0.sql $(EXTENSION)--0.1.0--0.2.0.sql

# the extension suite creates the extension in a fresh database: it runs first
REGRESS      = extension $(filter-out extension,$(sort $(basename $(notdir $(wildcard sql/*.sql)))))
REGRESS_OPTS = --inputdir=.

# FS_EXTVERSION: the version PostgreSQL 18's magic block records (src/pg/fs_compat.h)
PG_CPPFLAGS = -I$(srcdir)/src/core -I$(srcdir)/src/pg -DFS_EXTVERSION='"$(EXTVERSION)"'
# PostgreSQL 15 headers have inline functions with unused parameters; the core is built with
# the full -Wextra by the unit-test target. Warnings are errors in `make test`, `make demo` and CI
# (they build with WERROR=1), not in a packager's plain `make`.
PG_CFLAGS   = -Wall -Wextra -Wno-unused-parameter $(if $(WERROR),-Werror)
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

# soft input errors (pg_input_is_valid, COPY ... ON_ERROR ignore): the suite runs on 17 and later
ifneq ($(shell test 0$(MAJORVERSION) -ge 17 && echo yes),yes)
REGRESS := $(filter-out input_soft,$(REGRESS))
endif

# PGXS does not track headers: every object depends on all of them (a few dozen small files)
$(OBJS): $(CORE_HDRS) $(GLUE_HDRS)

$(EXTENSION)--$(EXTVERSION).sql: $(SQL_PIECES)
	cat $^ > $@

# ---- the README's commands, and the pieces they are made of -----------------------------
.PHONY: test demo bench unit fuzz deps deb dist interop

# PG=17 or PG=18: against that PostgreSQL, built from Debian's source package (scripts/pg.sh;
# when the archive does not serve it, Debian's binary packages in a Debian root)
test:
	@PG=$(PG) scripts/test.sh

demo:
	@scripts/demo.sh

bench:
	@scripts/bench.sh

# the interop suite: a real SLURM 22.05 (Debian packages) against fairsched (test/interop/)
interop:
	@test/interop/slurm_test.sh

# the Debian package postgresql-15-fairsched (debian/, pg_buildext) into build/
deb:
	@scripts/deb.sh

# the PGXN release zip, from git archive of HEAD, into build/
dist:
	@scripts/dist.sh

# core unit tests, no server needed (scripts/test.sh also runs them under valgrind)
# each test/unit/test_NAME.c defines test_NAME(); the one list of them is the file names
UNIT_SRCS = $(sort $(wildcard test/unit/*.c))
UNIT_NAMES = $(patsubst test/unit/test_%.c,%,$(filter test/unit/test_%.c,$(UNIT_SRCS)))
CORE_SRCS = $(CORE_OBJS:.o=.c)
UNIT_CFLAGS = -std=c99 -pedantic -g -O1 -Wall -Wextra -Werror -Isrc/core -Itest/unit -Ibuild

build/unit_list.h: $(UNIT_SRCS)
	@mkdir -p build
	@printf 'UNIT_TEST(%s)\n' $(UNIT_NAMES) >$@

build/unit_tests: $(UNIT_SRCS) $(CORE_SRCS) $(CORE_HDRS) test/unit/unit.h build/unit_list.h
	@mkdir -p build
	$(or $(UNIT_CC),cc) $(UNIT_CFLAGS) -o $@ $(UNIT_SRCS) $(CORE_SRCS) -lm

# the same tests with undefined-behaviour checks (shifts, overflows, alignment), stopping at the first
build/unit_tests_ubsan: $(UNIT_SRCS) $(CORE_SRCS) $(CORE_HDRS) test/unit/unit.h build/unit_list.h
	@mkdir -p build
	$(or $(UNIT_CC),cc) $(UNIT_CFLAGS) -fsanitize=undefined -fno-sanitize-recover=all -o $@ $(UNIT_SRCS) $(CORE_SRCS) -lm

unit: build/unit_tests
	build/unit_tests

# libFuzzer harnesses, one per core parser
FUZZ_TARGETS = $(patsubst test/fuzz/fuzz_%.c,%,$(sort $(wildcard test/fuzz/fuzz_*.c)))
FUZZ_SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer $(FUZZ_SANITIZE) -Isrc/core -Itest/fuzz
# the core is compiled once for every harness (instrumented for coverage, not linked to a main)
FUZZ_CORE_OBJS = $(patsubst src/core/%.c,build/fuzzcore/%.o,$(CORE_SRCS))

build/fuzzcore/%.o: src/core/%.c $(CORE_HDRS)
	@mkdir -p $(dir $@)
	clang -g -O1 -fsanitize=fuzzer-no-link $(FUZZ_SANITIZE) -Isrc/core -c -o $@ $<

build/fuzz_%: test/fuzz/fuzz_%.c $(wildcard test/fuzz/*.h) $(FUZZ_CORE_OBJS)
	@mkdir -p build
	clang $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_CORE_OBJS) -lm

print-%:
	@echo '$*=$($*)'
