/*
 * fuzz_msic_config.c: libFuzzer harness for the MSIC configuration and holidays parsers. Any
 * input either fails with a syntax error and a message, or gives settings whose formatted file
 * parses back to the same formatted file; holidays come back sorted, distinct and in 1..366; the
 * prime seconds of a run never exceed the run.
 */
#include "fuzz_alloc.h"
#include "msic/msic_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
utc_to_local(void *ctx, int64_t t, int64_t *y, int64_t *m, int64_t *d)
{
	int64_t day = INT64_C(86400000000);

	(void) ctx;
	fs_civil_from_days(t >= 0 ? t / day : -((-t + day - 1) / day), y, m, d);
}

static int64_t
utc_from_local(void *ctx, int64_t y, int64_t m, int64_t d, int64_t sod)
{
	(void) ctx;
	return fs_days_from_civil(y, m, d) * INT64_C(86400000000) + sod;
}

static void
check_config(const fs_msic_config *cfg, const int *days, size_t ndays)
{
	fs_msic_config back;
	fs_error err;
	fs_sb a, b;
	int64_t prime, dur = (cfg->max_wait_time % (86400 * 40)) * INT64_C(1000000);
	int64_t start = (cfg->prime_start % 86400) * INT64_C(1000000);
	int64_t end = (cfg->prime_end % 86400) * INT64_C(1000000);
	static const fs_msic_clock clock = {utc_to_local, utc_from_local, NULL};

	if (cfg->n_submit != 1 || cfg->n_batch == 0)
		abort();
	fs_sb_init(&a, &fz, 256);
	fs_msic_config_format(&a, cfg);
	if (fs_msic_config_parse(a.data, a.len, NULL, &back, &fz, &err) != FS_OK)
	{
		fprintf(stderr, "formatted file does not parse: %s %s\n%s", err.message, err.detail,
		        a.data);
		abort();
	}
	fs_sb_init(&b, &fz, 256);
	fs_msic_config_format(&b, &back);
	if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
	{
		fprintf(stderr, "round trip differs:\n%s---\n%s", a.data, b.data);
		abort();
	}
	if (fs_msic_prime_us(&clock, INT64_C(1700000000000000), dur, start, end, days, ndays, &prime,
	                     &err) != FS_OK ||
	    prime < 0 || prime > dur)
		abort();
	free(a.data);
	free(b.data);
	fs_msic_config_free(&back, &fz);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_msic_config cfg;
	fs_error err;
	int *days = NULL;
	size_t ndays = 0, i;
	const char *text = (const char *) data;

	/* the holidays file */
	if (fs_msic_holidays_parse(text, size, &days, &ndays, &fz, &err) == FS_OK)
	{
		for (i = 0; i < ndays; i++)
			if (days[i] < 1 || days[i] > 366 || (i > 0 && days[i] <= days[i - 1]))
				abort();
	}
	else if (err.status != FS_ERR_SYNTAX || err.message[0] == '\0')
		abort();
	/* the configuration file, with and without a local host */
	if (fs_msic_config_parse(text, size, (size & 1) ? "Local.Host" : NULL, &cfg, &fz, &err) ==
	    FS_OK)
	{
		check_config(&cfg, days, ndays);
		fs_msic_config_free(&cfg, &fz);
	}
	else if (err.status != FS_ERR_SYNTAX || err.message[0] == '\0')
		abort();
	free(days);
	return 0;
}
