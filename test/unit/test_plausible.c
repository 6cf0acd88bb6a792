/* test_plausible.c: unit tests of src/core/load/plausible.c: what "far" means between a wall-clock
 * duration and end - start, and which duration forms no scheduler writes. */
#include "unit.h"
#include "load/plausible.h"

#include <string.h>

static bool
cut(const char *s)
{
	return fs_load_cut_duration(s, strlen(s));
}

void
test_plausible(void)
{
	/* far: more than 600 s and more than 10% of end - start apart, either way */
	CHECK(!fs_load_far(1800, 1200));
	CHECK(fs_load_far(1801, 1200));
	CHECK(fs_load_far(599, 1200));
	CHECK(!fs_load_far(600, 1200));
	CHECK(!fs_load_far(9000, 10000));
	CHECK(fs_load_far(8999, 10000));
	CHECK(fs_load_far(11001, 10000));
	CHECK(!fs_load_far(999000, 1000000)); /* 1000 s, but 0.1% */
	CHECK(!fs_load_far(0, 0));
	CHECK(fs_load_far(81142, 0));
	/* cut forms: one colon, no dot (MM:SS.mmm is Slurm's TotalCPU) and no day dash */
	CHECK(cut("23:0"));
	CHECK(cut("1:30"));
	CHECK(cut(":"));
	CHECK(!cut("23:00:00"));
	CHECK(!cut("1:2:3"));
	CHECK(!cut("1380"));
	CHECK(!cut("01:53.961"));
	CHECK(!cut("2-03:04"));
	CHECK(!cut(""));
	CHECK(FS_LOAD_SIZE_MAX == 1152921504606846976.0 && FS_LOAD_WALL_MAX == 2147483647.0);
}
