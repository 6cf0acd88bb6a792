/*
 * unit.h: a minimal runner for the src/core unit tests (no server). Each test file test_NAME.c
 * exports test_NAME(); unit_main.c calls them all, from the list the Makefile writes from the file
 * names (build/unit_list.h), and prints "N passed, N failed" last.
 */
#ifndef FS_UNIT_H
#define FS_UNIT_H

#include "fs_core.h"
#include "msic/msic_cycle.h"

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

/* The MSIC fixtures: the UTC clock (test_msic_prime.c); Tuesday 2026-12-01 10:00 UTC, a cycle's
 * settings over nq queues and hosts (three queue shares, 20 CPUs), and a job, as the cycle and
 * replay tests use them (test_msic_cycle.c). */
extern const fs_msic_clock unit_utc_clock;
fs_str unit_str(const char *s);
int64_t unit_msic_tuesday_10(void);
void unit_msic_setup(fs_msic_cycle_in *in, fs_str *bq, fs_str *bh, fs_msic_host *hosts,
                     fs_msic_queue *queues, int nq);
fs_msic_cjob unit_msic_job(const char *id, const char *owner, const char *queue, char state,
                           int ncpus, int wall_min, int used_min, const char *host);

/* A resource vector or share path read from a test's own text (exits when the text is bad: the
 * test, not the code, is wrong), and the text form of one (malloc'd). */
uint8_t *unit_rv(const char *text);
uint8_t *unit_sp(const char *text);
char *unit_rv_text(const uint8_t *rv);
char *unit_sp_text(const uint8_t *sp);

/* A piece of input as a C string (one of a few rotating buffers of 256 bytes), "(null)" when it
 * is absent. */
const char *unit_cstr(fs_str s);

/* The value of the column `key` of a sacct record's extra as a C string (one of unit_cstr's
 * buffers): "(null)" for a JSON null, "(absent)" when the record has no such column. */
struct fs_sacct_record;
const char *unit_sacct_extra(const struct fs_sacct_record *r, const char *key);

/* `head`, then `unit` n times, then `tail`, in a malloc'd NUL-terminated string. */
char *unit_repeated(const char *head, const char *unit, size_t n, const char *tail);

/* A deterministic generator for property tests. */
uint64_t unit_rand(uint64_t *state);

#endif
