/*
 * fuzz_msic_share.c: libFuzzer harness for the two msic_share parsers. The SHARE_INFO_FILE
 * reader either fails with a line-numbered message or gives entries whose written form reads
 * back to entries that write the same text again and read back to themselves (the values the
 * original can write); the msic_queue_acc text either fails or gives a valid state whose
 * canonical text reads back to the same state and prints the same text.
 */
#include "msic/msic_share.h"
#include "fuzz_alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
free_file(fs_msic_share_file *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->entries[i].queue);
	free(f->entries);
}

static bool
same_entries(const fs_msic_share_file *a, const fs_msic_share_file *b)
{
	size_t i;

	if (a->n != b->n || a->weekday != b->weekday)
		return false;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->entries[i].queue, b->entries[i].queue) != 0 ||
		    a->entries[i].s.ndays != b->entries[i].s.ndays ||
		    memcmp(&a->entries[i].s.past_pct, &b->entries[i].s.past_pct, sizeof(double)) != 0 ||
		    memcmp(&a->entries[i].s.today_usage, &b->entries[i].s.today_usage, sizeof(double)) !=
		        0 ||
		    memcmp(&a->entries[i].s.today_max, &b->entries[i].s.today_max, sizeof(double)) != 0)
			return false;
	return true;
}

static void
check_file(const fs_msic_share_file *f)
{
	fs_msic_share_file f2, f3;
	fs_error err;
	fs_sb sb, sb2;
	size_t i;

	for (i = 0; i < f->n; i++)
	{
		fs_msic_share s = f->entries[i].s;
		double rank;

		if (fs_msic_share_check(&s, "entry", &err) != FS_OK)
			abort();
		/* charging, rolling over and ranking accepted values never fails silently */
		if (fs_msic_rank(&s, 10, FS_MSIC_RANK_SHARE, &rank, &err) == FS_OK && isnan(rank))
			abort();
		if (fs_msic_rollover(&s, &err) == FS_OK && fs_msic_share_check(&s, "rolled", &err) != FS_OK)
			abort();
	}
	fs_sb_init(&sb, &fz, 64);
	if (fs_msic_share_file_format(&sb, f->weekday, f->entries, f->n, &err) != FS_OK)
	{
		fprintf(stderr, "accepted entries do not write: %s\n", err.message);
		abort();
	}
	if (fs_msic_share_file_parse(sb.data, sb.len, &fz, &f2, &err) != FS_OK)
	{
		fprintf(stderr, "written file does not read: %s %s\n%s", err.message, err.detail, sb.data);
		abort();
	}
	fs_sb_init(&sb2, &fz, 64);
	if (fs_msic_share_file_format(&sb2, f2.weekday, f2.entries, f2.n, &err) != FS_OK)
		abort();
	if (sb.len != sb2.len || memcmp(sb.data, sb2.data, sb.len) != 0)
	{
		fprintf(stderr, "written text is not stable:\n%s---\n%s", sb.data, sb2.data);
		abort();
	}
	if (fs_msic_share_file_parse(sb2.data, sb2.len, &fz, &f3, &err) != FS_OK ||
	    !same_entries(&f2, &f3))
	{
		fprintf(stderr, "a value the original writes does not round-trip:\n%s", sb2.data);
		abort();
	}
	free_file(&f2);
	free_file(&f3);
	free(sb.data);
	free(sb2.data);
}

static void
check_acc(const fs_msic_acc *acc)
{
	fs_msic_acc back;
	fs_msic_share s;
	fs_error err;
	fs_sb sb, sb2;

	if (fs_msic_acc_check(acc, &err) != FS_OK)
		abort();
	fs_sb_init(&sb, &fz, 64);
	fs_msic_acc_format(&sb, acc);
	if (fs_msic_acc_parse(sb.data, sb.len, &fz, &back, &err) != FS_OK)
	{
		fprintf(stderr, "canonical text \"%s\" does not parse: %s %s\n", sb.data, err.message,
		        err.detail);
		abort();
	}
	if (back.n != acc->n || back.as_of != acc->as_of || back.as_of_day != acc->as_of_day ||
	    back.queue_len != acc->queue_len || memcmp(back.queue, acc->queue, acc->queue_len) != 0 ||
	    (acc->n && memcmp(back.days, acc->days, acc->n * sizeof(fs_msic_day)) != 0))
	{
		fprintf(stderr, "canonical text \"%s\" does not round-trip\n", sb.data);
		abort();
	}
	fs_sb_init(&sb2, &fz, 64);
	fs_msic_acc_format(&sb2, &back);
	if (sb.len != sb2.len || memcmp(sb.data, sb2.data, sb.len) != 0)
		abort();
	/* the final replay of a small state: a valid share or a clear error */
	if (acc->n > 0 && (int64_t) acc->as_of_day - acc->days[0].day < 4000 &&
	    fs_msic_acc_final(acc, &s, &err) == FS_OK &&
	    fs_msic_share_check(&s, "final", &err) != FS_OK)
		abort();
	free((void *) back.queue);
	free(back.days);
	free(sb.data);
	free(sb2.data);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_msic_share_file f;
	fs_msic_acc acc;
	fs_error err;

	if (fs_msic_share_file_parse((const char *) data, size, &fz, &f, &err) == FS_OK)
		check_file(&f);
	else if (err.status != FS_ERR_SYNTAX || err.message[0] == '\0' || err.detail[0] == '\0')
		abort();
	free_file(&f);
	if (fs_msic_acc_parse((const char *) data, size, &fz, &acc, &err) == FS_OK)
		check_acc(&acc);
	else if (err.status != FS_ERR_SYNTAX || err.message[0] == '\0')
		abort();
	free((void *) acc.queue);
	free(acc.days);
	return 0;
}
