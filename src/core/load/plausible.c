/*
 * plausible.c: the checks of values no scheduler writes (see plausible.h), shared by the PBS and
 * sacct line loaders.
 */
#include "load/plausible.h"

#include <math.h>
#include <string.h>

bool
fs_load_far(double dur, double span)
{
	double gap = fabs(dur - span);

	return gap > FS_LOAD_FAR_S && gap > FS_LOAD_FAR_FRAC * fabs(span);
}

bool
fs_load_cut_duration(const char *s, size_t len)
{
	const char *c = memchr(s, ':', len);

	if (c == NULL || memchr(s, '.', len) != NULL || memchr(s, '-', len) != NULL)
		return false;
	return memchr(c + 1, ':', len - (size_t) (c + 1 - s)) == NULL;
}
