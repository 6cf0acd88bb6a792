/*
 * condor_json.h: HTCondor job ads as condor_history -json (an array of ads) and -jsonl (one ad
 * per line) print them, read as the ads of condor_history -l: each ad is written in the -l form
 * and read by the -l reader (load/condorhist), so both forms give the same rows.
 */
#ifndef FS_CONDOR_JSON_H
#define FS_CONDOR_JSON_H

#include "load/condorhist.h"
#include "load/json.h"

/* Which form a document is in, from its first byte that is not whitespace. */
typedef enum fs_ch_form
{
	FS_CH_LONG = 0, /* condor_history -l, history files */
	FS_CH_JSON,     /* -json: [ {ad}, {ad} ] */
	FS_CH_JSONL     /* -jsonl: {ad} per line */
} fs_ch_form;

int fs_ch_form_of(const char *doc, size_t len);

/*
 * One ad object as the lines condor_history -l prints for it: strings quoted (a quote escaped),
 * numbers and booleans as written, null as undefined, HTCondor's "/Expr(...)/" strings as the
 * expression, lists as { a, b } and nested ads as [ a = 1; b = 2 ]. Linear in the ad.
 */
fs_status fs_ch_ad_text(const fs_json *ad, fs_sb *out, fs_error *err);

/*
 * The next ad of a -json or -jsonl document, read as fs_ch_next reads one of -l (r->pos and
 * r->lineno move past it). A malformed JSON value ends a -json document (the error has ad 0); in
 * -jsonl it is the error of its line's ad, and the next call reads the next line.
 */
fs_status fs_ch_json_next(fs_ch_reader *r, fs_ch_ad *ad, bool *done, fs_error *err);

#endif
