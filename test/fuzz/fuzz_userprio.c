/*
 * fuzz_userprio.c: libFuzzer harness for the userprio_state text parser and binary decoder.
 * Any input either fails with a message or gives a state with finite numbers whose text reads
 * back to the same state and prints the same text, and whose binary form decodes to the same
 * state and encodes to the same bytes; combining and reading accepted states never leaves a
 * non-finite number or breaks the state's invariants, usage included (an overflow is an error).
 */
#include "types/decay.h"
#include "share/userprio.h"
#include "fuzz_alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool
finite_state(const fs_userprio *s)
{
	return isfinite(s->m) && isfinite(s->a) && isfinite(s->g) && isfinite(s->first_usage) &&
	       isfinite(s->usage) && isfinite(s->last_in_use);
}

static void
check_state(const fs_userprio *s)
{
	fs_userprio back;
	fs_error err;
	uint8_t bin[FS_USERPRIO_BINARY_LEN], bin2[FS_USERPRIO_BINARY_LEN];
	fs_sb sb, sb2;
	double v;

	if (!finite_state(s) || fs_userprio_check(s, &err) != FS_OK)
		abort();
	if (fs_userprio_value(s, &v, &err) == FS_OK ? !isfinite(v) : err.status != FS_ERR_RANGE)
		abort();
	fs_sb_init(&sb, &fz, 96);
	fs_userprio_format(&sb, s);
	if (fs_userprio_parse(sb.data, sb.len, &back, &err) != FS_OK)
	{
		fprintf(stderr, "canonical text \"%s\" does not parse: %s %s\n", sb.data, err.message,
		        err.detail);
		abort();
	}
	if (memcmp(&back, s, sizeof(back)) != 0)
	{
		fprintf(stderr, "canonical text \"%s\" does not round-trip\n", sb.data);
		abort();
	}
	fs_sb_init(&sb2, &fz, 96);
	fs_userprio_format(&sb2, &back);
	if (sb.len != sb2.len || memcmp(sb.data, sb2.data, sb.len) != 0)
		abort();
	fs_userprio_encode(s, bin);
	if (fs_userprio_decode(bin, sizeof(bin), &back, &err) != FS_OK ||
	    memcmp(&back, s, sizeof(back)) != 0)
		abort();
	fs_userprio_encode(&back, bin2);
	if (memcmp(bin, bin2, sizeof(bin)) != 0)
		abort();
	free(sb.data);
	free(sb2.data);
}

/* s then t (either order); a result must be a valid state, an error must leave s alone. */
static void
check_combine(const fs_userprio *s, const fs_userprio *t)
{
	fs_userprio c = *s;
	fs_error err;

	if (fs_userprio_combine(&c, t, &err) == FS_OK)
		check_state(&c);
	else if (memcmp(&c, s, sizeof(c)) != 0 || err.message[0] == '\0')
		abort();
	c = *s;
	if (fs_userprio_add(&c, t->first_usage, t->first_at, s->half_life, &err) == FS_OK)
		check_state(&c);
	else if (memcmp(&c, s, sizeof(c)) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fs_userprio s, t;
	fs_error err;
	uint8_t bin[FS_USERPRIO_BINARY_LEN] = {0};
	bool have_text = false;

	if (fs_userprio_parse((const char *) data, size, &s, &err) == FS_OK)
	{
		check_state(&s);
		check_combine(&s, &s);
		have_text = true;
	}
	else if (err.status != FS_ERR_SYNTAX || err.message[0] == '\0')
		abort();
	if (fs_userprio_decode(data, size, &t, &err) == FS_OK)
		check_state(&t);
	else if (err.status != FS_ERR_BINARY || err.message[0] == '\0')
		abort();
	memcpy(bin, data, size < sizeof(bin) ? size : sizeof(bin));
	bin[0] = FS_USERPRIO_BINARY_VERSION;
	if (fs_userprio_decode(bin, sizeof(bin), &t, &err) == FS_OK)
	{
		check_state(&t);
		if (have_text)
		{
			t.half_life = s.half_life;
			check_combine(&s, &t);
			check_combine(&t, &s);
		}
	}
	else if (err.status != FS_ERR_BINARY || err.detail[0] == '\0')
		abort();
	return 0;
}
