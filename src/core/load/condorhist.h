/*
 * condorhist.h: HTCondor job ClassAds as condor_history -l prints them (Name = value lines, a
 * blank line after each ad) or as the history file stores them (each ad followed by a
 * "*** Offset = ..." banner), read one ad at a time into typed attributes.
 */
#ifndef FS_CONDORHIST_H
#define FS_CONDORHIST_H

#include "fs_core.h"

#include <stdbool.h>

/* The attributes that get a typed column; matched case-insensitively, as ClassAds do. */
typedef enum fs_ch_col
{
	FS_CH_GLOBAL_JOB_ID = 0,
	FS_CH_OWNER,
	FS_CH_ACCOUNTING_GROUP,
	FS_CH_JOB_STATUS,
	FS_CH_REQUEST_CPUS,
	FS_CH_REQUEST_MEMORY,
	FS_CH_REQUEST_GPUS,
	FS_CH_REMOTE_WALL_CLOCK_TIME,
	FS_CH_CUMULATIVE_SLOT_TIME,
	FS_CH_COMPLETION_DATE,
	FS_CH_NCOLS
} fs_ch_col;

/* The attribute name of each column, as HTCondor spells it. */
extern const char *const fs_ch_col_names[FS_CH_NCOLS];

/*
 * One ad. Text and the path are in allocator memory (fs_ch_ad_free frees them); a column is
 * absent (has[c] false, pointer NULL) when the attribute is missing, undefined or an expression
 * that cannot be evaluated without a machine ad (the expression stays in json).
 */
typedef struct fs_ch_ad
{
	int32_t ad;         /* 1-based number of the ad in the document */
	int32_t line;       /* its first line */
	int32_t last_line;  /* its last line */
	int32_t error_line; /* the line an error names, 0 when none */
	char *json;         /* every attribute, typed, as a JSON object (NUL-terminated) */
	size_t jsonlen;
	char *anomalies; /* odd but readable things (a name set twice), NUL-terminated entries */
	size_t nanomalies;
	char *text[FS_CH_NCOLS]; /* GlobalJobId, Owner: decoded, NUL-terminated */
	size_t textlen[FS_CH_NCOLS];
	uint8_t *accounting_group; /* encoded sharepath, one label per dot-separated part */
	size_t accounting_group_len;
	bool has[FS_CH_NCOLS];   /* for the numeric columns */
	double num[FS_CH_NCOLS]; /* RequestMemory already in bytes; CompletionDate 0 is absent */
	/* CompletionDate exactly, as read from its text: seconds since 1970 (below 9224318016000,
	   where timestamptz ends) and microseconds (a real rounded half to even) */
	int64_t completion_s;
	int32_t completion_us;
} fs_ch_ad;

typedef struct fs_ch_reader
{
	const char *doc;
	size_t len;
	size_t pos;
	int32_t lineno; /* 1-based number of the line at pos */
	int32_t ads;
	const fs_allocator *a;
	int form;     /* fs_ch_form (load/condor_json.h): -l, -json or -jsonl */
	bool opened;  /* -json: the "[" is read */
	bool closing; /* -json: "]" follows the last ad read */
} fs_ch_reader;

void fs_ch_init(fs_ch_reader *r, const char *doc, size_t len, const fs_allocator *a);

/*
 * Read the next ad. *done is true (and FS_OK returned) when no ad is left. On an error the ad
 * still counts (ad->ad, line and last_line are set, nothing else), the reader has moved past it,
 * and the next call reads the following ad, so that bulk loads can go on.
 */
fs_status fs_ch_next(fs_ch_reader *r, fs_ch_ad *ad, bool *done, fs_error *err);

void fs_ch_ad_free(fs_ch_ad *ad, const fs_allocator *a);

#endif
