/*
 * unit.h: a minimal runner for the src/core unit tests (no server). Each test file test_NAME.c
 * exports test_NAME(); unit_main.c calls them all, from the list the Makefile writes from the file
 * names (build/unit_list.h), and prints "N passed, N failed" last.
 */
#ifndef FS_UNIT_H
#define FS_UNIT_H

#include "fs_core.h"

#include <stdbool.h>

extern const fs_allocator unit_alloc;

bool unit_check(bool ok, const char *what, const char *file, int line);
bool unit_check_str(const char *got, const char *want, const char *what, const char *file,
                    int line);
bool unit_check_dbl(double got, double want, double tol, const char *what, const char *file,
                    int line);

#define CHECK(cond)               unit_check((cond), #cond, __FILE__, __LINE__)
#define CHECK_STR(got, want)      unit_check_str((got), (want), #got, __FILE__, __LINE__)
#define CHECK_DBL(got, want, tol) unit_check_dbl((got), (want), (tol), #got, __FILE__, __LINE__)

/* Bytes from hex text (spaces ignored), for hand-written flat and binary forms. */
size_t unit_unhex(const char *hex, uint8_t *out);

/* The UTC clock of the MSIC tests (test_msic_config.c). */
struct fs_msic_clock;
extern const struct fs_msic_clock unit_utc_clock;

/* A deterministic generator for property tests. */
uint64_t unit_rand(uint64_t *state);


#endif
