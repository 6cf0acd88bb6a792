/* test_placement.c: unit tests of src/core/placement/ with the 36 vnodes of the PBS design page
 * PP-1018. */
#include "unit.h"
#include "placement/placement.h"
#include "types/resvec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The group and sort keys of a placement call, as one fs_pset_spec (a C99 compound literal). */
#define SPEC(keys, keylens, nkeys, sk, nsk, prime_time, only_explicit)                             \
	(&(fs_pset_spec){(keys), (keylens), (nkeys), (sk), (nsk), (prime_time), (only_explicit)})

/* PP-1018's vnode table: ncpus, mem, router, switch (labels as written, "sw4," included). */
static const struct
{
	const char *name, *res, *router, *sw;
} pp1018_vnodes[] = {
    {"vn10", "ncpus=4,mem=8gb", "rt1", "sw3"},
    {"vn11", "ncpus=2,mem=8gb", "rt1", "sw2"},
    {"vn12", "ncpus=8,mem=8gb", "rt1", "sw4,sw1"},
    {"vn13", "ncpus=2,mem=4gb", "rt1", "sw1"},
    {"vn14", "ncpus=8,mem=16gb", "rt1", "sw2"},
    {"vn15", "ncpus=4,mem=16gb", "rt1", "sw3,sw1"},
    {"vn16", "ncpus=8,mem=8gb", "rt1", "sw4,"},
    {"vn17", "ncpus=4,mem=4gb", "rt1", "sw3,sw4"},
    {"vn20", "ncpus=2,mem=4gb", "rt2", "sw4,sw3,sw2"},
    {"vn21", "ncpus=2,mem=8gb", "rt2", "sw3,sw1"},
    {"vn22", "ncpus=4,mem=8gb", "rt2", "sw2,sw4,sw1,sw3"},
    {"vn23", "ncpus=4,mem=4gb", "rt2", "sw4,sw3,sw1"},
    {"vn24", "ncpus=8,mem=8gb", "rt2", "sw4,sw2"},
    {"vn25", "ncpus=4,mem=4gb", "rt2", "sw1,sw2,sw3,sw4"},
    {"vn26", "ncpus=2,mem=2gb", "rt2", "sw4"},
    {"vn27", "ncpus=2,mem=4gb", "rt2", "sw2,sw3"},
    {"vn30", "ncpus=2,mem=2gb", "rt3", "sw1,sw2,sw4"},
    {"vn31", "ncpus=8,mem=8gb", "rt3", "sw3"},
    {"vn32", "ncpus=4,mem=4gb", "rt3", "sw4,sw2,sw3"},
    {"vn33", "ncpus=4,mem=4gb", "rt3", "sw4,sw3"},
    {"vn34", "ncpus=8,mem=16gb", "rt3", "sw4"},
    {"vn35", "ncpus=8,mem=8gb", "rt3", "sw2,sw1,sw4"},
    {"vn36", "ncpus=4,mem=8gb", "rt3", "sw3"},
    {"vn37", "ncpus=8,mem=16gb", "rt3", "sw1"},
    {"vn40", "ncpus=4,mem=8gb", "rt4", "sw2"},
    {"vn41", "ncpus=2,mem=2gb", "rt4", "sw2"},
    {"vn42", "ncpus=8,mem=16gb", "rt4", "sw4,sw3,sw2"},
    {"vn43", "ncpus=4,mem=4gb", "rt4", "sw3,sw4"},
    {"vn44", "ncpus=8,mem=8gb", "rt4", "sw1,sw2,sw3,sw4"},
    {"vn45", "ncpus=4,mem=4gb", "rt4", "sw4,sw2"},
    {"vn46", "ncpus=8,mem=8gb", "rt4", "sw1"},
    {"vn47", "ncpus=8,mem=8gb", "rt4", "sw4"},
    {"vn50", "ncpus=4,mem=8gb", "rt3,rt1", "sw4,sw1"},
    {"vn51", "ncpus=2,mem=2gb", "rt3,rt1", "sw2"},
    {"vn52", "ncpus=8,mem=16gb", "rt3,rt1", "sw2"},
    {"vn53", "ncpus=4,mem=4gb", "rt3,rt1", "sw1,sw4"},
};

/* Split "a,b" into labels of one key (PBS string_array). */
static size_t
split(const char *key, const char *values, fs_label *out, size_t at)
{
	const char *p = values;

	for (;;)
	{
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t) (comma - p) : strlen(p);

		out[at].key = key;
		out[at].keylen = strlen(key);
		out[at].value = p;
		out[at++].valuelen = len;
		if (!comma)
			return at;
		p = comma + 1;
	}
}

static fs_vpool *
seed_vpool(void)
{
	fs_vpool *p = fs_vpool_new(&unit_alloc);
	fs_error err;
	size_t i;

	for (i = 0; i < sizeof(pp1018_vnodes) / sizeof(pp1018_vnodes[0]); i++)
	{
		fs_label labels[16];
		size_t n = split("router", pp1018_vnodes[i].router, labels, 0);
		uint8_t *rv;
		size_t len;

		n = split("switch", pp1018_vnodes[i].sw, labels, n);
		fs_rv_parse(pp1018_vnodes[i].res, strlen(pp1018_vnodes[i].res), &unit_alloc, 0, &rv, &len,
		            &err);
		CHECK(fs_vpool_add(p, pp1018_vnodes[i].name, strlen(pp1018_vnodes[i].name), rv, NULL,
		                   labels, n, NULL, 0, &err) == FS_OK);
		free(rv);
	}
	CHECK(fs_vpool_prepare(p, &err) == FS_OK);
	return p;
}

static const char *const keys[] = {"router", "switch"};
static const size_t keylens[] = {6, 6};

static void
check_order(const fs_pset *sets, size_t n, int dims, const char *const *want, size_t nwant)
{
	size_t i, k = 0;
	bool ok = true;

	for (i = 0; i < n; i++)
	{
		if (dims && sets[i].dims != dims)
			continue;
		if (k >= nwant || strlen(want[k]) != sets[i].namelen ||
		    memcmp(want[k], sets[i].name, sets[i].namelen) != 0)
			ok = false;
		k++;
	}
	if (!CHECK(ok && k == nwant))
	{
		printf("     got:");
		for (i = 0; i < n; i++)
			if (!dims || sets[i].dims == dims)
				printf(" %.*s", (int) sets[i].namelen, sets[i].name);
		printf("\n");
	}
}

static double
amount(const uint8_t *rv, const char *name)
{
	fs_rv_item it;

	return fs_rv_get(rv, name, strlen(name), &it) ? it.amount : -1;
}

static void
test_pp1018(void)
{
	fs_vpool *pool = seed_vpool();
	fs_sort_key sk[8];
	size_t nsk = fs_sort_key_defaults(sk), n, i;
	fs_pset *sets;
	fs_error err;
	static const char *const current[] = {"rt2", "rt4", "rt1", "rt3", "sw1", "sw3", "sw2", "sw4"};
	static const char *const router_high[] = {
	    "rt4-sw1", "rt4-sw3", "rt4-sw2", "rt4-sw4", "rt3-sw3", "rt3-sw2", "rt3-sw1", "rt3-sw4",
	    "rt2-sw1", "rt2-sw3", "rt2-sw2", "rt2-sw4", "rt1-sw3", "rt1-sw2", "rt1-sw1", "rt1-sw4",
	    "rt4",     "rt3",     "rt2",     "rt1",     "sw1",     "sw3",     "sw2",     "sw4"};

	/* the seed's "current behaviour": the flat sets under the default keys */
	CHECK(fs_placement_sets(pool, SPEC(keys, keylens, 2, sk, nsk, false, false), &unit_alloc, &sets,
	                        &n, &err) == FS_OK);
	CHECK(n == 24);
	check_order(sets, n, 1, current, 8);
	fs_psets_free(sets, n, &unit_alloc);
	/* "router HIGH" and then the defaults: the 24 sets in the seed's last table */
	CHECK(fs_sort_key_parse("\"router HIGH\" all", 17, &sk[0], &err) == FS_OK);
	nsk = 1 + fs_sort_key_defaults(sk + 1);
	CHECK(fs_placement_sets(pool, SPEC(keys, keylens, 2, sk, nsk, false, false), &unit_alloc, &sets,
	                        &n, &err) == FS_OK);
	check_order(sets, n, 0, router_high, 24);
	/* the seed's totals */
	for (i = 0; i < n; i++)
	{
		if (sets[i].namelen == 3 && memcmp(sets[i].name, "sw4", 3) == 0)
		{
			CHECK(amount(sets[i].total, "ncpus") == 110 &&
			      amount(sets[i].total, "mem") == 136.0 * (1 << 30));
			CHECK(sets[i].nvnodes == 21);
		}
		if (sets[i].namelen == 7 && memcmp(sets[i].name, "rt1-sw1", 7) == 0)
		{
			CHECK(amount(sets[i].total, "ncpus") == 22 &&
			      amount(sets[i].total, "mem") == 40.0 * (1 << 30));
			CHECK(sets[i].nvnodes == 5);
		}
		if (sets[i].namelen == 3 && memcmp(sets[i].name, "rt1", 3) == 0)
			CHECK(amount(sets[i].total, "ncpus") == 58 && sets[i].nvnodes == 12);
	}
	fs_psets_free(sets, n, &unit_alloc);
	fs_vpool_free(pool);
}

static void
check_sk(const char *line, fs_status want, const char *needle)
{
	fs_sort_key k;
	fs_error err;
	fs_status st = fs_sort_key_parse(line, strlen(line), &k, &err);

	if (!CHECK(st == want) || (st != FS_OK && !CHECK(strstr(err.detail, needle) != NULL)))
		printf("     \"%s\": %s / %s\n", line, st ? err.message : "ok", st ? err.detail : "");
}

static void
test_sort_keys(void)
{
	fs_sort_key k;
	fs_error err;

	CHECK(fs_sort_key_parse("\"ncpus LOW unused\" prime", 24, &k, &err) == FS_OK);
	CHECK(strcmp(k.resource, "ncpus") == 0 && !k.high && k.amount == FS_AMOUNT_UNUSED &&
	      k.prime == FS_PRIME_PRIME);
	CHECK(fs_sort_key_parse("mem HIGH assigned non_prime", 27, &k, &err) == FS_OK);
	CHECK(k.high && k.amount == FS_AMOUNT_ASSIGNED && k.prime == FS_PRIME_NON_PRIME);
	CHECK(fs_sort_key_parse("mem high all", 12, &k, &err) == FS_OK);
	CHECK(k.high && k.amount == FS_AMOUNT_TOTAL && k.prime == FS_PRIME_ALL);
	check_sk("", FS_ERR_SYNTAX, "Expected a resource name at end of input");
	check_sk("ncpus", FS_ERR_SYNTAX, "Expected HIGH or LOW after the resource");
	check_sk("ncpus UP", FS_ERR_SYNTAX, "Expected HIGH or LOW at character 7");
	check_sk("\"ncpus LOW total", FS_ERR_SYNTAX, "Unterminated quote at character 1");
	check_sk("\"ncpus LOW free\"", FS_ERR_SYNTAX,
	         "Expected total, assigned or unused at character 12");
	check_sk("\"ncpus LOW\" sometimes", FS_ERR_SYNTAX,
	         "Expected all, prime or non_prime at character 13");
	check_sk("ncpus LOW total all extra", FS_ERR_SYNTAX, "Too many words at character 21");
	check_sk("ncpus LOW all total", FS_ERR_SYNTAX, "Expected total, assigned, unused");
	check_sk("\"ncpus LOW\" all x", FS_ERR_SYNTAX, "Unexpected text after the prime option");
	check_sk("ncpus \"LOW\"", FS_ERR_SYNTAX, "Unexpected quote at character 7");
}

static void
test_vpool_edges(void)
{
	fs_vpool *p = fs_vpool_new(&unit_alloc), *back;
	fs_label l[3] = {{"router", 6, "r1", 2}, {"router", 6, "", 0}, {"router", 6, "r1", 2}};
	uint8_t *flat;
	size_t size, cut;
	fs_error err;
	fs_pset *sets;
	size_t n;
	fs_sort_key sk[4];
	size_t nsk = fs_sort_key_defaults(sk);

	CHECK(fs_vpool_add(p, "a", 1, NULL, NULL, l, 3, NULL, 0, &err) == FS_OK);
	CHECK(fs_vpool_vnode(p, 0)->nlabels == 1); /* empty dropped, duplicate merged */
	CHECK(fs_vpool_add(p, "b", 1, NULL, NULL, NULL, 0, NULL, 0, &err) == FS_OK);
	CHECK(fs_vpool_prepare(p, &err) == FS_OK);
	/* b has no router: it joins router's empty-value set, unless only explicit values count */
	CHECK(fs_placement_sets(p, SPEC(keys, keylens, 1, sk, nsk, false, false), &unit_alloc, &sets,
	                        &n, &err) == FS_OK);
	CHECK(n == 2);
	fs_psets_free(sets, n, &unit_alloc);
	CHECK(fs_placement_sets(p, SPEC(keys, keylens, 1, sk, nsk, false, true), &unit_alloc, &sets, &n,
	                        &err) == FS_OK);
	CHECK(n == 1);
	fs_psets_free(sets, n, &unit_alloc);
	CHECK(fs_placement_sets(p, SPEC(keys, keylens, 0, sk, nsk, false, true), &unit_alloc, &sets, &n,
	                        &err) == FS_ERR_VALUE);
	size = fs_vpool_flat_size(p);
	flat = malloc(size);
	fs_vpool_flatten(p, flat);
	CHECK(fs_vpool_from_flat(&unit_alloc, flat, size, &back, &err) == FS_OK);
	CHECK(fs_vpool_count(back) == 2 && fs_vpool_flat_size(back) == size);
	fs_vpool_free(back);
	for (cut = 0; cut < size; cut++)
		if (!CHECK(fs_vpool_from_flat(&unit_alloc, flat, cut, &back, &err) != FS_OK))
			fs_vpool_free(back);
	free(flat);
	CHECK(fs_vpool_add(p, "a", 1, NULL, NULL, NULL, 0, NULL, 0, &err) == FS_OK);
	CHECK(fs_vpool_prepare(p, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "vnode \"a\" appears twice") != NULL);
	fs_vpool_free(p);
}

static uint8_t *
rv_of(const char *text)
{
	uint8_t *rv;
	size_t len;
	fs_error err;

	return fs_rv_parse(text, strlen(text), &unit_alloc, 0, &rv, &len, &err) == FS_OK ? rv : NULL;
}

/* Repeated or too many keys, too many sets, available minus assigned of different kinds. */
static void
test_limits(void)
{
	fs_vpool *p = fs_vpool_new(&unit_alloc);
	fs_label labels[6 * 10];
	char values[10][4];
	const char *keys[FS_PSET_KEYS_MAX + 1];
	size_t keylens[FS_PSET_KEYS_MAX + 1];
	static const char *names[6] = {"k1", "k2", "k3", "k4", "k5", "k6"};
	fs_sort_key sk[4];
	size_t nsk = fs_sort_key_defaults(sk), n, i, j;
	fs_pset *sets;
	fs_error err;
	uint8_t *avail = rv_of("mem=64gb"), *assigned = rv_of("mem=32");

	/* one vnode, six keys of ten values each: 10^6 combinations */
	for (i = 0; i < 6; i++)
		for (j = 0; j < 10; j++)
		{
			snprintf(values[j], sizeof(values[j]), "v%zu", j);
			labels[i * 10 + j].key = names[i];
			labels[i * 10 + j].keylen = 2;
			labels[i * 10 + j].value = values[j];
			labels[i * 10 + j].valuelen = strlen(values[j]);
		}
	CHECK(fs_vpool_add(p, "vn1", 3, NULL, NULL, labels, 60, NULL, 0, &err) == FS_OK);
	CHECK(fs_vpool_prepare(p, &err) == FS_OK);
	for (i = 0; i < 6; i++)
	{
		keys[i] = names[i];
		keylens[i] = 2;
	}
	CHECK(fs_placement_sets(p, SPEC(keys, keylens, 6, sk, nsk, false, false), &unit_alloc, &sets,
	                        &n, &err) == FS_ERR_LIMIT);
	CHECK(strstr(err.detail, "more than 100000 placement sets") != NULL);
	/* three keys: 1,000 combinations and 30 flat sets are fine */
	CHECK(fs_placement_sets(p, SPEC(keys, keylens, 3, sk, nsk, false, false), &unit_alloc, &sets,
	                        &n, &err) == FS_OK);
	CHECK(n == 1030);
	fs_psets_free(sets, n, &unit_alloc);
	keys[2] = "k1";
	CHECK(fs_placement_sets(p, SPEC(keys, keylens, 3, sk, nsk, false, false), &unit_alloc, &sets,
	                        &n, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "group key \"k1\" appears more than once") != NULL);
	CHECK(strstr(err.detail, "group_keys[1] and group_keys[3]") != NULL);
	for (i = 0; i <= FS_PSET_KEYS_MAX; i++)
	{
		keys[i] = values[i % 10]; /* distinct enough: only the count is checked first */
		keylens[i] = strlen(keys[i]);
	}
	CHECK(fs_placement_sets(p, SPEC(keys, keylens, FS_PSET_KEYS_MAX + 1, sk, nsk, false, false),
	                        &unit_alloc, &sets, &n, &err) == FS_ERR_LIMIT);
	fs_vpool_free(p);

	p = fs_vpool_new(&unit_alloc);
	CHECK(fs_vpool_add(p, "vn1", 3, avail, assigned, labels, 1, NULL, 0, &err) == FS_OK);
	CHECK(fs_vpool_prepare(p, &err) == FS_OK);
	CHECK(fs_placement_sets(p, SPEC(names, keylens, 1, sk, nsk, false, false), &unit_alloc, &sets,
	                        &n, &err) == FS_ERR_KIND);
	CHECK_STR(err.context,
	          "while subtracting the assigned from the available amounts of vnode \"vn1\"");
	fs_vpool_free(p);
	free(avail);
	free(assigned);
}

/* The vnodepool binary form: golden bytes derived by hand from the format in placement.c. */
static void
test_vpool_binary(void)
{
	static const char *golden = "01 00000001"
	                            " 0002 6e31"
	                            " 00000001 00 05 6e63707573 4010000000000000"
	                            " 00000000"
	                            " 0001 0002 7377 0001 61";
	fs_vpool *p = fs_vpool_new(&unit_alloc), *back;
	fs_label l[1] = {{"sw", 2, "a", 1}};
	uint8_t want[128], bad[128], *got;
	uint8_t *rv;
	size_t rvlen, n = unit_unhex(golden, want), size, i;
	fs_error err;

	CHECK(fs_rv_parse("ncpus=4", 7, &unit_alloc, 0, &rv, &rvlen, &err) == FS_OK);
	CHECK(fs_vpool_add(p, "n1", 2, rv, NULL, l, 1, NULL, 0, &err) == FS_OK);
	CHECK(fs_vpool_prepare(p, &err) == FS_OK);
	size = fs_vpool_binary_size(p);
	got = malloc(size);
	fs_vpool_to_binary(p, got);
	CHECK(size == n && memcmp(got, want, n) == 0);
	if (CHECK(fs_vpool_from_binary(&unit_alloc, want, n, &back, &err) == FS_OK))
	{
		CHECK(fs_vpool_count(back) == 1 && fs_vpool_vnode(back, 0)->nlabels == 1);
		CHECK(fs_rv_size(fs_vpool_vnode(back, 0)->avail) == rvlen &&
		      memcmp(fs_vpool_vnode(back, 0)->avail, rv, rvlen) == 0);
		fs_vpool_free(back);
	}
	for (i = 0; i < n; i++)
		if (!CHECK(fs_vpool_from_binary(&unit_alloc, want, i, &back, &err) == FS_ERR_BINARY))
			fs_vpool_free(back);
	memcpy(bad, want, n);
	bad[0] = 3;
	CHECK(fs_vpool_from_binary(&unit_alloc, bad, n, &back, &err) == FS_ERR_BINARY);
	CHECK(strstr(err.message, "unsupported binary format version 3") != NULL);
	bad[0] = 2; /* version 2 carries indirect resources after the labels: truncated here */
	CHECK(fs_vpool_from_binary(&unit_alloc, bad, n, &back, &err) == FS_ERR_BINARY);
	/* what the JSON text cannot say: a NUL in a name, a comma or edge space in a value */
	memcpy(bad, want, n);
	bad[8] = 0; /* "n1" -> "n\0" */
	CHECK(fs_vpool_from_binary(&unit_alloc, bad, n, &back, &err) == FS_ERR_BINARY);
	memcpy(bad, want, n);
	bad[n - 1] = ',';
	CHECK(fs_vpool_from_binary(&unit_alloc, bad, n, &back, &err) == FS_ERR_BINARY);
	CHECK(strstr(err.message, "a label the text form cannot express") != NULL);
	memcpy(bad, want, n);
	bad[n - 1] = ' ';
	CHECK(fs_vpool_from_binary(&unit_alloc, bad, n, &back, &err) == FS_ERR_BINARY);
	/* flipped bytes: refused, or read as a value that sends exactly those bytes */
	for (i = 0; i < n; i++)
	{
		memcpy(bad, want, n);
		bad[i] ^= 0x21;
		if (fs_vpool_from_binary(&unit_alloc, bad, n, &back, &err) == FS_OK)
		{
			uint8_t again[128];

			CHECK(fs_vpool_binary_size(back) == n);
			fs_vpool_to_binary(back, again);
			CHECK(memcmp(again, bad, n) == 0);
			fs_vpool_free(back);
		}
	}
	free(got);
	free(rv);
	fs_vpool_free(p);
}

/* ---------------------------------------------------------------- select and place specs */

static void
check_place(const char *text, fs_status want, int arr, int share, const char *group,
            const char *needle)
{
	fs_place pl;
	fs_error err;
	fs_status st = fs_place_parse(text, strlen(text), &pl, &err);

	if (!CHECK(st == want))
		printf("     \"%s\": %s\n", text, st ? err.message : "ok");
	else if (st == FS_OK)
		CHECK((int) pl.arrangement == arr && (int) pl.sharing == share &&
		      strcmp(pl.group, group) == 0 && pl.grouplen == strlen(group));
	else if (!CHECK(strstr(err.message, needle) != NULL || strstr(err.detail, needle) != NULL))
		printf("     \"%s\": %s / %s\n", text, err.message, err.detail);
}

static void
test_place_spec(void)
{
	check_place("free", FS_OK, FS_ARRANGE_FREE, FS_SHARE_DEFAULT, "", NULL);
	check_place("pack", FS_OK, FS_ARRANGE_PACK, FS_SHARE_DEFAULT, "", NULL);
	check_place("scatter:excl", FS_OK, FS_ARRANGE_SCATTER, FS_SHARE_EXCL, "", NULL);
	check_place("excl:vscatter", FS_OK, FS_ARRANGE_VSCATTER, FS_SHARE_EXCL, "", NULL);
	check_place("exclhost", FS_OK, FS_ARRANGE_FREE, FS_SHARE_EXCLHOST, "", NULL);
	check_place("pack:shared:group=switch", FS_OK, FS_ARRANGE_PACK, FS_SHARE_SHARED, "switch",
	            NULL);
	check_place("", FS_ERR_VALUE, 0, 0, "", "must not be empty");
	check_place("packs", FS_ERR_VALUE, 0, 0, "", "unknown place word \"packs\"");
	check_place("pack:Excl", FS_ERR_VALUE, 0, 0, "", "at character 6");
	check_place("pack:", FS_ERR_VALUE, 0, 0, "", "has an empty word");
	check_place("free:pack", FS_ERR_VALUE, 0, 0, "", "two arrangements, \"free\" and \"pack\"");
	check_place("excl:exclhost", FS_ERR_VALUE, 0, 0, "", "two sharing words");
	check_place("group=", FS_ERR_VALUE, 0, 0, "", "without a resource");
	check_place("group=a:group=a", FS_ERR_VALUE, 0, 0, "", "names a group twice");
}

/* A select spec as text: "count:request|match=value,... + ..." for compact checks. */
static void
check_select(const char *text, const char *defaults, fs_status want, const char *expect)
{
	fs_select *sel;
	fs_error err;
	uint8_t *dc = defaults ? rv_of(defaults) : NULL;
	fs_status st = fs_select_parse(text, strlen(text), dc, &unit_alloc, &sel, &err);
	fs_sb sb;
	size_t t, k;

	if (!CHECK(st == want))
	{
		printf("     \"%s\": %s / %s\n", text, st ? err.message : "ok", st ? err.detail : "");
		if (st == FS_OK)
			fs_select_free(sel, &unit_alloc);
		free(dc);
		return;
	}
	fs_sb_init(&sb, &unit_alloc, 64);
	if (st == FS_OK)
	{
		for (t = 0; t < sel->nterms; t++)
		{
			fs_sb_appendf(&sb, "%s%u:", t ? " + " : "", sel->terms[t].count);
			fs_rv_format(&sb, sel->terms[t].request);
			for (k = 0; k < sel->terms[t].nmatch; k++)
				fs_sb_appendf(&sb, "|%s=%s%s", sel->terms[t].match[k].res,
				              sel->terms[t].match[k].value,
				              sel->terms[t].match[k].boolean ? "(b)" : "");
		}
		fs_sb_appendf(&sb, " (%u)", sel->total);
		fs_select_free(sel, &unit_alloc);
		CHECK_STR(sb.data, expect);
	}
	else
	{
		/* the problem and its position, as the DETAIL shows them */
		if (!CHECK(strstr(err.detail, expect) != NULL || strstr(err.message, expect) != NULL))
			printf("     \"%s\": %s / %s\n", text, err.message, err.detail);
		CHECK(st != FS_ERR_SYNTAX ||
		      strncmp(err.message, "invalid input syntax for select spec", 36) == 0);
	}
	free(sb.data);
	free(dc);
}

static void
test_select_spec(void)
{
	check_select("2:ncpus=8:mem=16gb+1:ngpus=1", NULL, FS_OK, "2:mem=16gb,ncpus=8 + 1:ngpus=1 (3)");
	/* PBS's default_chunk fills what a chunk does not name, also a name given as a label */
	check_select("2:ncpus=8:mem=16gb+1:ngpus=1", "ncpus=1,mem=1gb", FS_OK,
	             "2:mem=16gb,ncpus=8 + 1:mem=1gb,ncpus=1,ngpus=1 (3)");
	check_select("1:ncpus=x", "ncpus=1", FS_OK, "1:|ncpus=x (1)");
	check_select("3", "ncpus=1", FS_OK, "3:ncpus=1 (3)");
	check_select("ncpus=2", NULL, FS_OK, "1:ncpus=2 (1)");
	check_select(":ncpus=2", NULL, FS_OK, "1:ncpus=2 (1)");
	check_select("2+3:ncpus=1", NULL, FS_OK, "2: + 3:ncpus=1 (5)");
	check_select("1:arch=linux:bigmem=True:host=\"n+1:x\"", NULL, FS_OK,
	             "1:|arch=linux|bigmem=True(b)|host=n+1:x (1)");
	/* ":" separates resources, so a duration cannot be written unquoted (PBS has none in chunks) */
	check_select("1:walltime=01:00", NULL, FS_ERR_SYNTAX, "Expected a resource name after");
	check_select("1:ngpus=0:mem=.5gb", NULL, FS_OK, "1:mem=512mb,ngpus=0 (1)");
	check_select("100000:ncpus=1", NULL, FS_OK, "100000:ncpus=1 (100000)");
	check_select("", NULL, FS_ERR_SYNTAX, "Expected a chunk at end of input");
	check_select("1:ncpus=1++1:ncpus=1", NULL, FS_ERR_SYNTAX, "Expected a chunk at character 11");
	check_select("1:ncpus=1+", NULL, FS_ERR_SYNTAX, "Expected a chunk after \"+\" at end");
	check_select("00:ncpus=1", NULL, FS_ERR_SYNTAX, "at least 1 at character 1");
	check_select("2x", NULL, FS_ERR_SYNTAX, "after the chunk count at character 2");
	check_select("2:", NULL, FS_ERR_SYNTAX, "Expected a resource name after \":\" at end");
	check_select("2:ncpus", NULL, FS_ERR_SYNTAX, "Expected \"=\" after resource name \"ncpus\"");
	check_select("2:ncpus=:mem=1", NULL, FS_ERR_SYNTAX,
	             "Expected a value after \"=\" at character 9");
	check_select("2:ncpus=1=2", NULL, FS_ERR_SYNTAX, "Unexpected \"=\" at character 10");
	check_select("2:ncpus=1 ", NULL, FS_ERR_SYNTAX, "Unexpected blank");
	check_select(" 2:ncpus=1", NULL, FS_ERR_SYNTAX, "Unexpected blank");
	check_select("2:a=\"x", NULL, FS_ERR_SYNTAX, "Unterminated quote at character 5");
	check_select("2:a=\"x\"y", NULL, FS_ERR_SYNTAX, "after the quoted value at character 8");
	check_select("2:a=x\"y\"", NULL, FS_ERR_SYNTAX, "Unexpected quote at character 6");
	check_select("1:ncpus=1:mem=1gb:ncpus=2", NULL, FS_ERR_SYNTAX,
	             "Resource \"ncpus\" appears twice in one chunk at character 19");
	check_select("1:mem=1zb", NULL, FS_ERR_SYNTAX, "Unknown unit \"zb\"");
	check_select("1:mem=-1gb", NULL, FS_ERR_SYNTAX, "negative at character 7");
	check_select("1:x=NaN", NULL, FS_ERR_RANGE, "not finite at character 5");
	check_select("1:x=1e999", NULL, FS_ERR_RANGE, "out of range at character 5");
	check_select("1:_x=2:x.y/z-w@q=3", NULL, FS_OK, "1:_x=2,x.y/z-w@q=3 (1)");
	check_select("1:a234567890123456789012345678901234567890123456789012345678901234=1", NULL,
	             FS_ERR_SYNTAX, "is 64 bytes long; at most 63");
	check_select("100001:ncpus=1", NULL, FS_ERR_LIMIT, "too many chunks");
	check_select("99999999999999999999999:ncpus=1", NULL, FS_ERR_LIMIT, "too many chunks");
	check_select("50000:a=1+50001:a=1", NULL, FS_ERR_LIMIT, "at least 100001 chunks");
}

/* A pool from rows: name, available (text, "@vnode" allowed), assigned, labels "k:v1,v2;k2:v". */
typedef struct row
{
	const char *name, *avail, *assigned, *labels;
} row;

static fs_vpool *
vpool_of(const row *rows, size_t n, fs_error *err)
{
	fs_vpool *p = fs_vpool_new(&unit_alloc);
	size_t i;

	for (i = 0; i < n; i++)
	{
		fs_label labels[16];
		size_t nl = 0;
		const char *l = rows[i].labels;
		uint8_t *avail, *assigned = rows[i].assigned ? rv_of(rows[i].assigned) : NULL;
		fs_indirect *ind;
		size_t nind;
		fs_status st;

		while (l && *l)
		{
			const char *colon = strchr(l, ':'), *end = strchr(l, ';');

			if (!end)
				end = l + strlen(l);
			labels[nl].key = l;
			labels[nl].keylen = (size_t) (colon - l);
			for (l = colon + 1;;)
			{
				const char *comma = memchr(l, ',', (size_t) (end - l));
				const char *stop = comma ? comma : end;

				labels[nl].key = labels[nl > 0 && labels[nl].key == NULL ? nl - 1 : nl].key;
				labels[nl].value = l;
				labels[nl].valuelen = (size_t) (stop - l);
				if (nl > 0 && labels[nl - 1].value + labels[nl - 1].valuelen + 1 == l)
				{
					labels[nl].key = labels[nl - 1].key;
					labels[nl].keylen = labels[nl - 1].keylen;
				}
				nl++;
				if (!comma)
					break;
				labels[nl].key = labels[nl - 1].key;
				labels[nl].keylen = labels[nl - 1].keylen;
				l = comma + 1;
			}
			l = *end ? end + 1 : end;
		}
		st = fs_vpool_parse_available(rows[i].avail, strlen(rows[i].avail), &unit_alloc, &avail,
		                              &ind, &nind, err);
		if (st == FS_OK)
			st = fs_vpool_add(p, rows[i].name, strlen(rows[i].name), avail, assigned, labels, nl,
			                  ind, nind, err);
		free(avail);
		free(ind);
		free(assigned);
		if (st != FS_OK)
		{
			fs_vpool_free(p);
			return NULL;
		}
	}
	if (fs_vpool_prepare(p, err) != FS_OK)
	{
		fs_vpool_free(p);
		return NULL;
	}
	return p;
}

/* place_select's answer as text: "set rank now|later: chunk@vnode(amounts) ...", or "none". */
static fs_status
placed(fs_vpool *p, const char *key, const char *sel_text, const char *place_text,
       const char *defaults, char *out, size_t cap, fs_error *err)
{
	fs_select *sel;
	fs_place pl;
	fs_chunk_placement cp;
	fs_sort_key sk[4];
	size_t nsk = fs_sort_key_defaults(sk), keylen = key ? strlen(key) : 0, i;
	uint8_t *dc = rv_of(defaults);
	fs_status st;
	fs_sb sb;

	st = fs_place_parse(place_text, strlen(place_text), &pl, err);
	if (st == FS_OK)
		st = fs_select_parse(sel_text, strlen(sel_text), dc, &unit_alloc, &sel, err);
	free(dc);
	if (st != FS_OK)
		return st;
	st = fs_place_select(p, SPEC(&key, &keylen, key ? 1 : 0, sk, nsk, false, false), sel, &pl,
	                     &unit_alloc, &cp, err);
	fs_select_free(sel, &unit_alloc);
	if (st != FS_OK)
		return st;
	fs_sb_init(&sb, &unit_alloc, 64);
	if (cp.set == SIZE_MAX)
		fs_sb_appendf(&sb, "none");
	else
		fs_sb_appendf(&sb, "%.*s %zu %s:", (int) cp.sets[cp.set].namelen, cp.sets[cp.set].name,
		              cp.set + 1, cp.now ? "now" : "later");
	for (i = 0; i < cp.npieces; i++)
	{
		const fs_vnode *v = fs_vpool_vnode(cp.resolved, cp.pieces[i].vnode);

		fs_sb_appendf(&sb, " %u@%.*s(", cp.pieces[i].chunk, (int) v->namelen, v->name);
		fs_rv_format(&sb, cp.pieces[i].amounts);
		fs_sb_append(&sb, ")", 1);
	}
	snprintf(out, cap, "%s", sb.data);
	free(sb.data);
	fs_chunk_placement_free(&cp, &unit_alloc);
	return FS_OK;
}

static void
check_placed(fs_vpool *p, const char *key, const char *sel, const char *place, const char *dc,
             const char *want)
{
	char got[1024];
	fs_error err;

	if (CHECK(placed(p, key, sel, place, dc, got, sizeof(got), &err) == FS_OK))
	{
		if (!CHECK_STR(got, want))
			printf("     %s / %s\n", sel, place);
	}
	else
		printf("     %s / %s: %s\n", sel, place, err.message);
}

/* PP-1018 (derivations in sql/placement.sql): scatter, free, pack and the order of the sets. */
static void
test_select_pp1018(void)
{
	fs_vpool *pool = seed_vpool();
	fs_sort_key sk[5];
	size_t nsk = fs_sort_key_defaults(sk);
	fs_select *sel;
	fs_place pl;
	fs_chunk_placement cp;
	fs_error err;

	CHECK(fs_select_parse("2:ncpus=8:mem=16gb", 18, NULL, &unit_alloc, &sel, &err) == FS_OK);
	CHECK(fs_place_parse("scatter", 7, &pl, &err) == FS_OK);
	CHECK(fs_place_select(pool, SPEC(keys, keylens, 2, sk, nsk, false, false), sel, &pl,
	                      &unit_alloc, &cp, &err) == FS_OK);
	CHECK(cp.set == 7 && cp.now && cp.npieces == 2 && cp.nsets == 24);
	if (cp.set == 7 && cp.npieces == 2)
	{
		CHECK(memcmp(cp.sets[7].name, "rt1-sw2", 7) == 0);
		CHECK(memcmp(fs_vpool_vnode(cp.resolved, cp.pieces[0].vnode)->name, "vn14", 4) == 0 &&
		      memcmp(fs_vpool_vnode(cp.resolved, cp.pieces[1].vnode)->name, "vn52", 4) == 0);
		CHECK(cp.pieces[0].chunk == 1 && cp.pieces[1].chunk == 2);
	}
	fs_chunk_placement_free(&cp, &unit_alloc);
	fs_select_free(sel, &unit_alloc);
	/* pack: no vnode holds 16 ncpus: no set */
	CHECK(fs_select_parse("2:ncpus=8:mem=16gb", 18, NULL, &unit_alloc, &sel, &err) == FS_OK);
	CHECK(fs_place_parse("pack", 4, &pl, &err) == FS_OK);
	CHECK(fs_place_select(pool, SPEC(keys, keylens, 2, sk, nsk, false, false), sel, &pl,
	                      &unit_alloc, &cp, &err) == FS_OK);
	CHECK(cp.set == SIZE_MAX && cp.npieces == 0);
	fs_chunk_placement_free(&cp, &unit_alloc);
	fs_select_free(sel, &unit_alloc);
	/* pack over the router sets (rt2, rt4, rt1, rt3): 8 ncpus and 16gb on one vnode; rt2's
	 * vn24 has 8gb; rt4's vn42 8/16gb */
	check_placed(pool, "router", "2:ncpus=4:mem=8gb", "pack", "ncpus=1",
	             "rt4 2 now: 1@vn42(mem=8gb,ncpus=4) 2@vn42(mem=8gb,ncpus=4)");
	check_placed(pool, "switch", "1:ncpus=2:mem=2gb", "free:group=router", "ncpus=1",
	             "rt2 1 now: 1@vn20(mem=2gb,ncpus=2)");
	fs_vpool_free(pool);
}

static const row job_rows[] = {
    {"a1", "ncpus=8,mem=16gb", NULL, "rack:r1"},
    {"a2", "ncpus=8,mem=16gb", "ncpus=4", "rack:r1"},
    {"b1", "ncpus=16,mem=64gb,ngpus=2", NULL, "rack:r2"},
    {"b2", "ncpus=16,mem=64gb", NULL, "rack:r2"},
};

static const row host_rows[] = {
    {"m1[0]", "ncpus=4,mem=8gb", NULL, "host:m1"},
    {"m1[1]", "ncpus=4,mem=8gb", "ncpus=1", "host:m1"},
    {"m2", "ncpus=6,mem=32gb", NULL, NULL},
};

static const row shared_rows[] = {
    {"h1", "ncpus=8,scratch=100gb", "scratch=20gb", "switch:sw1"},
    {"h1[0]", "ncpus=4,scratch=@h1", "ncpus=1,scratch=10gb", "switch:@h1;host:h1"},
    {"h1[1]", "ncpus=4,scratch=@h1", NULL, "switch:sw3;host:h1"},
    {"h2", "ncpus=8,scratch=50gb", NULL, "switch:sw2"},
};

static void
test_select_rules(void)
{
	fs_error err;
	fs_vpool *p = vpool_of(job_rows, 4, &err);
	char got[256];

	/* first fit, in select order, no look-ahead (sql/placement.sql has the derivations) */
	check_placed(p, "rack", "2:ncpus=8:mem=16gb+1:ngpus=1", "free", "ncpus=1", "none");
	check_placed(p, "rack", "2:ncpus=8:mem=16gb+1:ngpus=1", "free", "",
	             "r2 2 now: 1@b1(mem=16gb,ncpus=8) 2@b1(mem=16gb,ncpus=8) 3@b1(ngpus=1)");
	check_placed(p, "rack", "1:ncpus=8+1:ngpus=1", "scatter", "ncpus=1", "none");
	check_placed(p, "rack", "1:ngpus=1+1:ncpus=8", "scatter", "ncpus=1",
	             "r2 2 now: 1@b1(ncpus=1,ngpus=1) 2@b2(ncpus=8)");
	check_placed(p, NULL, "3:ncpus=4", "free", "",
	             "all 1 now: 1@a1(ncpus=4) 2@a1(ncpus=4) 3@a2(ncpus=4)");
	check_placed(p, NULL, "3:ncpus=4", "excl", "",
	             "all 1 now: 1@a1(ncpus=4) 2@a1(ncpus=4) 3@b1(ncpus=4)");
	check_placed(p, "rack", "2:ncpus=8:rack=r1", "free", "",
	             "r1 1 later: 1@a1(ncpus=8) 2@a2(ncpus=8)");
	check_placed(p, "rack", "1:rack=r3", "free", "", "none");
	/* a chunk of another kind than the vnodes' */
	CHECK(placed(p, NULL, "1:mem=4", "free", "", got, sizeof(got), &err) == FS_ERR_KIND);
	CHECK_STR(err.context, "while comparing the select spec with placement set \"all\"");
	fs_vpool_free(p);

	p = vpool_of(host_rows, 3, &err);
	/* split across one host's vnodes; vscatter never splits; exclhost and excl */
	check_placed(p, NULL, "1:ncpus=7:mem=8gb", "free", "",
	             "all 1 now: 1@m1[0](mem=8gb,ncpus=4) 1@m1[1](ncpus=3)");
	check_placed(p, NULL, "1:ncpus=8:mem=8gb", "pack", "",
	             "all 1 later: 1@m1[0](mem=8gb,ncpus=4) 1@m1[1](ncpus=4)");
	check_placed(p, NULL, "1:ncpus=8", "vscatter", "", "none");
	check_placed(p, NULL, "1:ncpus=2", "excl", "", "all 1 now: 1@m1[0](ncpus=2)");
	check_placed(p, NULL, "1:ncpus=2", "exclhost", "", "all 1 now: 1@m2(ncpus=2)");
	check_placed(p, NULL, "1:ncpus=2", "exclhost", "", "all 1 now: 1@m2(ncpus=2)");
	check_placed(p, NULL, "3:ncpus=1", "scatter", "", "none");
	check_placed(p, NULL, "3:ncpus=1", "vscatter", "",
	             "all 1 now: 1@m1[0](ncpus=1) 2@m1[1](ncpus=1) 3@m2(ncpus=1)");
	check_placed(p, NULL, "2:ncpus=3", "scatter", "", "all 1 now: 1@m1[0](ncpus=3) 2@m2(ncpus=3)");
	/* a host with one busy vnode still splits over what is free: 4 + 3 */
	check_placed(p, NULL, "1:ncpus=8", "free", "",
	             "all 1 later: 1@m1[0](ncpus=4) 1@m1[1](ncpus=4)");
	check_placed(p, NULL, "1:ncpus=2:host=m2", "free", "", "all 1 now: 1@m2(ncpus=2)");
	check_placed(p, NULL, "1:ncpus=1:vnode=m1[1]", "free", "", "all 1 now: 1@m1[1](ncpus=1)");
	fs_vpool_free(p);

	p = vpool_of(shared_rows, 4, &err);
	check_placed(p, "switch", "1:ncpus=11:scratch=60gb", "free", "",
	             "sw1 3 now: 1@h1(ncpus=8,scratch=60gb) 1@h1[0](ncpus=3)");
	check_placed(p, "switch", "2:scratch=40gb", "free", "",
	             "sw3 1 later: 1@h1[1](scratch=40gb) 2@h1[1](scratch=40gb)");
	check_placed(p, NULL, "3:scratch=40gb", "free", "",
	             "all 1 later: 1@h1(scratch=40gb) 2@h1(scratch=40gb) 3@h2(scratch=40gb)");
	check_placed(p, NULL, "2:scratch=35gb", "free", "",
	             "all 1 now: 1@h1(scratch=35gb) 2@h1(scratch=35gb)");
	fs_vpool_free(p);
}

/* Indirect resources: text, resolution, totals once per set, and every refusal. */
static void
check_resolve(const row *rows, size_t n, const char *needle)
{
	fs_error err;
	fs_vpool *p = vpool_of(rows, n, &err);
	const fs_vpool *view;

	if (!CHECK(p != NULL))
		return;
	if (CHECK(fs_vpool_resolve(p, &view, &err) == FS_ERR_VALUE))
	{
		if (!CHECK(strstr(err.message, needle) != NULL))
			printf("     %s\n", err.message);
	}
	fs_vpool_free(p);
}

static void
test_indirect(void)
{
	fs_error err;
	fs_vpool *p = vpool_of(shared_rows, 4, &err), *back;
	const fs_vpool *view;
	fs_pset *sets;
	size_t n, i, size;
	fs_sort_key sk[4];
	size_t nsk = fs_sort_key_defaults(sk);
	const char *key = "switch";
	size_t keylen = 6;
	uint8_t *flat, *bin;
	fs_sb sb;
	static const row bad_unknown[] = {{"a", "x=@zz", NULL, NULL}, {"c", "x=1", NULL, NULL}};
	static const row bad_self[] = {{"a", "x=@a", NULL, NULL}};
	static const row bad_chain[] = {
	    {"a", "x=@b", NULL, NULL}, {"b", "x=@c", NULL, NULL}, {"c", "x=1", NULL, NULL}};
	static const row bad_lacks[] = {{"a", "x=@c", NULL, NULL}, {"c", "y=1", NULL, NULL}};
	static const row bad_label_chain[] = {
	    {"a", "", NULL, "k:@b"}, {"b", "", NULL, "k:@c"}, {"c", "", NULL, "k:v"}};
	static const row bad_label_lacks[] = {{"a", "", NULL, "k:@b"}, {"b", "", NULL, "j:v"}};
	static const row bad_label_mixed[] = {{"a", "", NULL, "k:@b,z"}, {"b", "", NULL, "k:v"}};
	static const row bad_label_empty[] = {{"a", "", NULL, "k:@"}};
	static const row bad_kinds[] = {{"a", "x=@c", "x=1gb", NULL}, {"c", "x=10", "x=1", NULL}};

	if (!CHECK(p != NULL))
		return;
	/* the text form reads back */
	fs_sb_init(&sb, &unit_alloc, 64);
	fs_vpool_format_available(&sb, fs_vpool_vnode(p, 1));
	CHECK_STR(sb.data, "ncpus=4,scratch=@h1");
	free(sb.data);
	/* resolution: h1[0] takes switch sw1 from h1; h1 holds h1[0]'s 10gb of scratch too */
	CHECK(fs_vpool_resolve(p, &view, &err) == FS_OK && view != p);
	CHECK(fs_vpool_vnode(view, 1)->nlabels == 2 &&
	      memcmp(fs_vpool_vnode(view, 1)->labels[1].value, "sw1", 3) == 0);
	CHECK(amount(fs_vpool_vnode(view, 0)->assigned, "scratch") == 30.0 * (1 << 30));
	CHECK(amount(fs_vpool_vnode(view, 1)->assigned, "scratch") == -1);
	CHECK(amount(fs_vpool_vnode(view, 1)->assigned, "ncpus") == 1);
	CHECK(fs_vpool_vnode(view, 1)->targets[0] == 0);
	/* totals: the shared 100gb once per set, through h1[1] in sw3 */
	CHECK(fs_placement_sets(p, SPEC(&key, &keylen, 1, sk, nsk, false, false), &unit_alloc, &sets,
	                        &n, &err) == FS_OK);
	CHECK(n == 3);
	for (i = 0; i < n; i++)
	{
		if (memcmp(sets[i].name, "sw3", 3) == 0)
			CHECK(amount(sets[i].total, "scratch") == 100.0 * (1 << 30) &&
			      amount(sets[i].unused, "scratch") == 70.0 * (1 << 30) &&
			      amount(sets[i].total, "ncpus") == 4);
		if (memcmp(sets[i].name, "sw1", 3) == 0)
			CHECK(sets[i].nvnodes == 2 && amount(sets[i].total, "scratch") == 100.0 * (1 << 30) &&
			      amount(sets[i].assigned, "scratch") == 30.0 * (1 << 30) &&
			      amount(sets[i].total, "ncpus") == 12);
	}
	fs_psets_free(sets, n, &unit_alloc);
	/* flat and binary forms carry the pointers: version 2, and read back */
	size = fs_vpool_flat_size(p);
	flat = malloc(size);
	fs_vpool_flatten(p, flat);
	CHECK(flat[0] == 2);
	CHECK(fs_vpool_from_flat(&unit_alloc, flat, size, &back, &err) == FS_OK);
	if (back)
	{
		CHECK(fs_vpool_vnode(back, 2)->nindirect == 1 && fs_vpool_flat_size(back) == size);
		fs_vpool_free(back);
	}
	for (i = 0; i < size; i++)
		if (!CHECK(fs_vpool_from_flat(&unit_alloc, flat, i, &back, &err) != FS_OK))
			fs_vpool_free(back);
	free(flat);
	size = fs_vpool_binary_size(p);
	bin = malloc(size);
	fs_vpool_to_binary(p, bin);
	CHECK(bin[0] == 2);
	CHECK(fs_vpool_from_binary(&unit_alloc, bin, size, &back, &err) == FS_OK);
	if (back)
		fs_vpool_free(back);
	free(bin);
	fs_vpool_free(p);

	check_resolve(bad_unknown, 2, "from vnode \"zz\", which is not in the pool");
	check_resolve(bad_self, 1, "takes \"x\" from itself");
	check_resolve(bad_chain, 3, "from vnode \"b\", which takes it from vnode \"c\"");
	check_resolve(bad_lacks, 2, "from vnode \"c\", which has no \"x\"");
	check_resolve(bad_label_chain, 3,
	              "takes \"k\" from vnode \"b\", which takes it from vnode \"c\"");
	check_resolve(bad_label_lacks, 2, "which has no \"k\"");
	check_resolve(bad_label_mixed, 2, "mixes \"@b\" with other values");
	check_resolve(bad_label_empty, 1, "has \"@\" without a vnode name");
	p = vpool_of(bad_kinds, 2, &err);
	CHECK(p && fs_vpool_resolve(p, &view, &err) == FS_ERR_KIND);
	if (p)
		fs_vpool_free(p);
}

/* The golden binary form of a pool with one indirect resource (version 2, by hand). */
static void
test_indirect_binary(void)
{
	static const char *golden = "02 00000002"
	                            " 0001 61 00000000 00000000 0000 0001 01 78 0001 63"
	                            " 0001 63 00000001 00 01 78 4024000000000000 00000000 0000 0000";
	static const row rows[] = {{"a", "x=@c", NULL, NULL}, {"c", "x=10", NULL, NULL}};
	uint8_t want[128], *got;
	size_t n = unit_unhex(golden, want), size;
	fs_error err;
	fs_vpool *p = vpool_of(rows, 2, &err), *back;

	if (!CHECK(p != NULL))
		return;
	size = fs_vpool_binary_size(p);
	got = malloc(size);
	fs_vpool_to_binary(p, got);
	CHECK(size == n && memcmp(got, want, n) == 0);
	free(got);
	CHECK(fs_vpool_from_binary(&unit_alloc, want, n, &back, &err) == FS_OK);
	if (back)
		fs_vpool_free(back);
	/* a version 2 value without any indirect resource is not canonical */
	{
		static const char *v2plain = "02 00000001 0001 63 00000000 00000000 0000 0000";
		uint8_t b[64];
		size_t bn = unit_unhex(v2plain, b);

		CHECK(fs_vpool_from_binary(&unit_alloc, b, bn, &back, &err) == FS_ERR_BINARY);
		CHECK(strstr(err.message, "not canonical") != NULL);
	}
	fs_vpool_free(p);
}

static void
check_available(const char *text, fs_status want, const char *expect)
{
	uint8_t *rv;
	fs_indirect *ind;
	size_t nind;
	fs_error err;
	fs_status st =
	    fs_vpool_parse_available(text, strlen(text), &unit_alloc, &rv, &ind, &nind, &err);
	fs_vpool *p;

	if (!CHECK(st == want))
	{
		printf("     \"%s\": %s\n", text, st ? err.message : "ok");
		if (st == FS_OK)
		{
			free(rv);
			free(ind);
		}
		return;
	}
	if (st != FS_OK)
	{
		if (!CHECK(strstr(err.message, expect) != NULL || strstr(err.detail, expect) != NULL))
			printf("     \"%s\": %s / %s\n", text, err.message, err.detail);
		return;
	}
	p = fs_vpool_new(&unit_alloc);
	st = fs_vpool_add(p, "v", 1, rv, NULL, NULL, 0, ind, nind, &err);
	if (CHECK(st == FS_OK))
	{
		fs_sb sb;

		fs_sb_init(&sb, &unit_alloc, 32);
		fs_vpool_format_available(&sb, fs_vpool_vnode(p, 0));
		CHECK_STR(sb.data, expect);
		free(sb.data);
	}
	fs_vpool_free(p);
	free(rv);
	free(ind);
}

static void
test_available_text(void)
{
	check_available("ncpus=4,mem=8gb", FS_OK, "mem=8gb,ncpus=4");
	check_available("scratch=@n07", FS_OK, "scratch=@n07");
	check_available(" { x = @b , a=1, y=@c } ", FS_OK, "a=1,x=@b,y=@c");
	check_available("x=@b,y=@c,a=1", FS_OK, "a=1,x=@b,y=@c");
	check_available("a=1,x=@b,y=@c", FS_OK, "a=1,x=@b,y=@c");
	check_available("x=@b,a=1,y=@c,b=2", FS_OK, "a=1,b=2,x=@b,y=@c");
	check_available("x=@host[0]", FS_OK, "x=@host[0]");
	check_available("x=@", FS_ERR_SYNTAX, "Expected a vnode name after \"@\" at end of input");
	check_available("=@b", FS_ERR_SYNTAX, "Expected a resource name before \"=\" at character 1");
	/* the resvec's own errors keep their positions in the whole text */
	check_available("x=@b,ncpus=abc", FS_ERR_SYNTAX, "at character 12");
}

/* Label strings: items at commas, whitespace (the fs_is_space set) around each one dropped. */
static void
check_labels(const char *text, const char *want)
{
	fs_label *labels = NULL;
	size_t n = 0, cap = 0, i;
	char got[256] = "";

	fs_labels_append("k", 1, text, strlen(text), &unit_alloc, &labels, &n, &cap);
	for (i = 0; i < n; i++)
	{
		CHECK(labels[i].keylen == 1 && labels[i].key[0] == 'k');
		strcat(got, i ? "|" : "");
		strncat(got, labels[i].value, labels[i].valuelen);
	}
	if (!CHECK_STR(got, want))
		fprintf(stderr, "  labels of \"%s\"\n", text);
	free(labels);
}

static void
test_label_strings(void)
{
	fs_label *labels = NULL;
	size_t n = 0, cap = 0, i;
	fs_vpool *p;
	fs_error err;
	char many[64 * 2 + 1];

	check_labels("sw1", "sw1");
	check_labels(" sw1 , sw2 ", "sw1|sw2");
	check_labels("\tsw1\f,\vsw2\r\n", "sw1|sw2");
	check_labels("a b, c", "a b|c");
	/* empty items stay here; the pool drops them */
	check_labels("", "");
	check_labels(",a,, ,", "|a|||");
	/* appended to what is there, growing past the first capacity */
	memset(many, ',', sizeof(many) - 1);
	many[sizeof(many) - 1] = '\0';
	for (i = 0; i < sizeof(many) - 1; i += 2)
		many[i] = (char) ('a' + i / 2 % 26);
	fs_labels_append("rack", 4, "r1", 2, &unit_alloc, &labels, &n, &cap);
	fs_labels_append("sw", 2, many, strlen(many), &unit_alloc, &labels, &n, &cap);
	CHECK(n == 1 + 65);
	CHECK(labels[0].keylen == 4 && labels[0].valuelen == 2);
	CHECK(labels[1].keylen == 2 && labels[1].valuelen == 1 && labels[1].value[0] == 'a');
	CHECK(labels[65].valuelen == 0);
	p = fs_vpool_new(&unit_alloc);
	CHECK(fs_vpool_add(p, "v", 1, NULL, NULL, labels, n, NULL, 0, &err) == FS_OK);
	CHECK(fs_vpool_prepare(p, &err) == FS_OK);
	/* "r1" and 26 distinct letters; the empty last item is gone */
	CHECK(fs_vpool_vnode(p, 0)->nlabels == 1 + 26);
	fs_vpool_free(p);
	free(labels);
}

/* The input of a type: one primary message, the problem first in the detail. */
static void
test_input_errors(void)
{
	fs_error err;
	char long_text[300];

	fs_error_clear(&err);
	fs_fail(&err, FS_ERR_VALUE, "vnode \"%s\" appears twice in the pool", "a");
	fs_error_hint(&err, "Give each vnode once.");
	fs_error_context(&err, "in element %d", 2);
	CHECK(fs_error_as_input(&err, "vnodepool", "[{}]", 4) == FS_ERR_SYNTAX);
	CHECK(err.status == FS_ERR_SYNTAX);
	CHECK_STR(err.message, "invalid input syntax for type vnodepool: \"[{}]\"");
	CHECK_STR(err.detail, "Vnode \"a\" appears twice in the pool.");
	CHECK_STR(err.hint, "Give each vnode once.");
	CHECK_STR(err.context, "in element 2");
	fs_fail(&err, FS_ERR_SYNTAX, "invalid amount \"x\"");
	fs_error_detail(&err, "An amount is a number.");
	memset(long_text, 'j', sizeof(long_text));
	fs_error_as_input(&err, "vnodepool", long_text, sizeof(long_text));
	CHECK_STR(err.detail, "Invalid amount \"x\". An amount is a number.");
	/* the text is cut at 200 bytes */
	CHECK(strlen(err.message) == strlen("invalid input syntax for type vnodepool: \"\"") + 203);
	CHECK_STR(err.context, "");
	/* an inner value's input error keeps its problem, not a second primary message */
	fs_fail(&err, FS_ERR_SYNTAX, "invalid input syntax for type resvec: \"x=@b\"");
	fs_error_detail(&err, "Invalid amount \"@b\" for resource \"x\".");
	fs_error_context(&err, "in the \"assigned\" of vnode \"a\"");
	fs_error_as_input(&err, "vnodepool", "[{}]", 4);
	CHECK_STR(err.message, "invalid input syntax for type vnodepool: \"[{}]\"");
	CHECK_STR(err.detail, "Invalid amount \"@b\" for resource \"x\".");
	CHECK_STR(err.context, "in the \"assigned\" of vnode \"a\"");
}

/* place(): the first set whose unused amounts hold the request, else whose totals do. */
static void
test_place_first(void)
{
	fs_error err;
	fs_vpool *p = vpool_of(job_rows, 4, &err);
	fs_pset *sets;
	size_t n, pick;
	bool now;
	fs_sort_key sk[4];
	size_t nsk = fs_sort_key_defaults(sk);
	const char *key = "rack";
	size_t keylen = 4;
	uint8_t *r12 = rv_of("ncpus=12"), *r16 = rv_of("ncpus=16"), *r40 = rv_of("ncpus=40"),
	        *bad = rv_of("ncpus=1gb");

	CHECK(fs_placement_sets(p, SPEC(&key, &keylen, 1, sk, nsk, false, false), &unit_alloc, &sets,
	                        &n, &err) == FS_OK);
	CHECK(fs_place_first(sets, n, r12, &pick, &now, &err) == FS_OK && pick == 0 && now);
	/* r1 has 12 free: 16 goes to r2 now */
	CHECK(fs_place_first(sets, n, r16, &pick, &now, &err) == FS_OK && pick == 1 && now);
	CHECK(fs_place_first(sets, n, r40, &pick, &now, &err) == FS_OK && pick == SIZE_MAX);
	CHECK(fs_place_first(sets, n, bad, &pick, &now, &err) == FS_ERR_KIND);
	fs_psets_free(sets, n, &unit_alloc);
	free(r12);
	free(r16);
	free(r40);
	free(bad);
	fs_vpool_free(p);
}

/*
 * Properties on random pools and specs: every chunk is placed whole (its pieces add up to its
 * request), no vnode gives more than it has free (a shared amount once), pack keeps one host,
 * scatter one chunk per host, vscatter one per vnode, excl and exclhost avoid busy vnodes and
 * hosts, label requirements hold; and the answer is the same when asked twice.
 */
static void
test_select_properties(void)
{
	uint64_t seed = 20240613;
	int iter, bad = 0, now = 0, later = 0, none = 0, split = 0;

	for (iter = 0; iter < 600 && bad < 5; iter++)
	{
		char names[8][8], hostnames[8][8], avail[8][64], assigned[8][64], labels[8][32];
		row rows[8];
		double cpu[8], used[8], x_avail = 10, x_used = 0;
		int nv = 1 + (int) (unit_rand(&seed) % 8), hostof[8], i, t, nterms, count[3], need_cpu[3],
		    need_x[3], want_rack[3];
		bool points[8], busy[8];
		char sel_text[128], got[2048], again[2048];
		static const char *const places[] = {
		    "free",      "pack",          "scatter",      "vscatter",
		    "free:excl", "pack:exclhost", "scatter:excl", "vscatter:exclhost"};
		const char *place = places[unit_rand(&seed) % 8];
		fs_error err;
		fs_vpool *p;
		fs_select *sel;
		fs_place pl;
		fs_chunk_placement cp;
		fs_sort_key sk[4];
		size_t nsk = fs_sort_key_defaults(sk), keylen = 4, k;
		const char *key = "rack";
		bool use_key = unit_rand(&seed) % 2;
		double give_cpu[8] = {0}, give_x = 0;
		size_t len = 0;

		for (i = 0; i < nv; i++)
		{
			hostof[i] = (int) (unit_rand(&seed) % 4);
			snprintf(names[i], sizeof(names[i]), "v%d", i & 7);
			snprintf(hostnames[i], sizeof(hostnames[i]), "h%d", hostof[i] & 3);
			cpu[i] = (double) (unit_rand(&seed) % 9);
			used[i] = unit_rand(&seed) % 3 == 0 ? (double) (unit_rand(&seed) % 3) : 0;
			if (used[i] > cpu[i])
				used[i] = cpu[i];
			points[i] = i > 0 && unit_rand(&seed) % 2;
			if (i == 0)
				snprintf(avail[i], sizeof(avail[i]), "ncpus=%g,x=10", cpu[i]);
			else
				snprintf(avail[i], sizeof(avail[i]), "ncpus=%g%s", cpu[i],
				         points[i] ? ",x=@v0" : "");
			if (i == 0 && unit_rand(&seed) % 2)
				x_used = (double) (unit_rand(&seed) % 5);
			snprintf(assigned[i], sizeof(assigned[i]), "ncpus=%g,x=%g", used[i],
			         i == 0 ? x_used : 0);
			busy[i] = used[i] > 0 || (i == 0 && x_used > 0);
			snprintf(labels[i], sizeof(labels[i]), "rack:r%d;host:%s", (int) (unit_rand(&seed) % 2),
			         hostnames[i]);
			rows[i].name = names[i];
			rows[i].avail = avail[i];
			rows[i].assigned = assigned[i];
			rows[i].labels = labels[i];
		}
		nterms = 1 + (int) (unit_rand(&seed) % 3);
		for (t = 0; t < nterms; t++)
		{
			count[t] = 1 + (int) (unit_rand(&seed) % 3);
			need_cpu[t] = (int) (unit_rand(&seed) % 5);
			need_x[t] = unit_rand(&seed) % 3 == 0 ? (int) (unit_rand(&seed) % 6) : 0;
			want_rack[t] = unit_rand(&seed) % 4 == 0 ? (int) (unit_rand(&seed) % 2) : -1;
			len += (size_t) snprintf(sel_text + len, sizeof(sel_text) - len, "%s%d:ncpus=%d:x=%d",
			                         t ? "+" : "", count[t], need_cpu[t], need_x[t]);
			if (want_rack[t] >= 0)
				len += (size_t) snprintf(sel_text + len, sizeof(sel_text) - len, ":rack=r%d",
				                         want_rack[t]);
		}
		p = vpool_of(rows, (size_t) nv, &err);
		if (!CHECK(p != NULL))
		{
			bad++;
			continue;
		}
		CHECK(fs_place_parse(place, strlen(place), &pl, &err) == FS_OK);
		CHECK(fs_select_parse(sel_text, strlen(sel_text), NULL, &unit_alloc, &sel, &err) == FS_OK);
		if (!CHECK(fs_place_select(p, SPEC(&key, &keylen, use_key, sk, nsk, false, false), sel, &pl,
		                           &unit_alloc, &cp, &err) == FS_OK))
		{
			printf("     %s / %s: %s\n", sel_text, place, err.message);
			fs_select_free(sel, &unit_alloc);
			fs_vpool_free(p);
			bad++;
			continue;
		}
		now += cp.set != SIZE_MAX && cp.now;
		later += cp.set != SIZE_MAX && !cp.now;
		none += cp.set == SIZE_MAX;
		split += cp.npieces > sel->total;
		if (cp.set != SIZE_MAX)
		{
			uint32_t chunk;
			bool ok = true;
			int first_host = -1, chunk_host[16], chunk_vnode[16];

			for (chunk = 1; chunk <= sel->total && ok; chunk++)
			{
				int term = 0, base = 0, pieces = 0, host = -1;
				double got_cpu = 0, got_x = 0;

				while (base + count[term] < (int) chunk)
					base += count[term++];
				for (k = 0; k < cp.npieces; k++)
				{
					int v = (int) cp.pieces[k].vnode;

					if (cp.pieces[k].chunk != chunk)
						continue;
					pieces++;
					got_cpu += amount(cp.pieces[k].amounts, "ncpus") > 0
					               ? amount(cp.pieces[k].amounts, "ncpus")
					               : 0;
					got_x += amount(cp.pieces[k].amounts, "x") > 0
					             ? amount(cp.pieces[k].amounts, "x")
					             : 0;
					give_cpu[v] += amount(cp.pieces[k].amounts, "ncpus") > 0
					                   ? amount(cp.pieces[k].amounts, "ncpus")
					                   : 0;
					give_x += amount(cp.pieces[k].amounts, "x") > 0
					              ? amount(cp.pieces[k].amounts, "x")
					              : 0;
					if (host >= 0 && host != hostof[v])
						ok = false; /* a chunk stays on one host */
					host = hostof[v];
					chunk_vnode[chunk - 1] = v;
					if (want_rack[term] >= 0 && labels[v][6] - '0' != want_rack[term])
						ok = false;
					if (cp.now && strstr(place, "excl") && busy[v])
						ok = false;
					if (cp.now && strstr(place, "exclhost"))
					{
						int w;

						for (w = 0; w < nv; w++)
							if (hostof[w] == hostof[v] && busy[w])
								ok = false;
					}
				}
				ok = ok && pieces > 0 && got_cpu == need_cpu[term] && got_x == need_x[term];
				chunk_host[chunk - 1] = host;
				if (strncmp(place, "pack", 4) == 0)
				{
					if (first_host >= 0 && first_host != host)
						ok = false;
					first_host = host;
				}
				if (strncmp(place, "vscatter", 8) == 0 && pieces != 1)
					ok = false;
			}
			for (chunk = 0; chunk < sel->total && ok; chunk++)
			{
				uint32_t other;

				for (other = 0; other < chunk; other++)
				{
					if (strncmp(place, "scatter", 7) == 0 && chunk_host[other] == chunk_host[chunk])
						ok = false;
					if (strncmp(place, "vscatter", 8) == 0 &&
					    chunk_vnode[other] == chunk_vnode[chunk])
						ok = false;
				}
			}
			for (i = 0; i < nv && ok; i++)
				ok = give_cpu[i] <= (cp.now ? cpu[i] - used[i] : cpu[i]);
			ok = ok && give_x <= (cp.now ? x_avail - x_used : x_avail);
			if (!CHECK(ok))
			{
				printf("     %s / %s on %d vnodes: %s\n", sel_text, place, nv,
				       placed(p, use_key ? key : NULL, sel_text, place, "", got, sizeof(got),
				              &err) == FS_OK
				           ? got
				           : err.message);
				bad++;
			}
		}
		fs_chunk_placement_free(&cp, &unit_alloc);
		fs_select_free(sel, &unit_alloc);
		/* the same answer twice (the resolved pool is cached) */
		CHECK(placed(p, use_key ? key : NULL, sel_text, place, "", got, sizeof(got), &err) ==
		      FS_OK);
		CHECK(placed(p, use_key ? key : NULL, sel_text, place, "", again, sizeof(again), &err) ==
		      FS_OK);
		CHECK(strcmp(got, again) == 0);
		fs_vpool_free(p);
	}
	/* the cases are all there: placed now, only once free, not at all, split across vnodes */
	if (!CHECK(now > 100 && later > 20 && none > 50 && split > 10))
		printf("     now %d, later %d, none %d, split %d\n", now, later, none, split);
}

/* An allocator that counts the bytes held, and the most held at once. */
typedef struct peak_count
{
	size_t held, peak;
} peak_count;

static void *
peak_alloc(void *ctx, size_t size)
{
	peak_count *c = ctx;
	size_t *p = malloc(sizeof(size_t) + (size ? size : 1));

	p[0] = size;
	c->held += size;
	if (c->held > c->peak)
		c->peak = c->held;
	return p + 1;
}

static void
peak_free(void *ctx, void *ptr)
{
	peak_count *c = ctx;
	size_t *p = (size_t *) ptr - 1;

	c->held -= p[0];
	free(p);
}

/* Place sel_text on p with the counting allocator; the pieces' count, or -1 on an error. */
static long
place_counted(fs_vpool *p, const char *sel_text, peak_count *c, fs_chunk_placement *cp,
              const fs_allocator *a, fs_error *err)
{
	fs_select *sel;
	fs_place pl;
	fs_sort_key sk[4];
	size_t nsk = fs_sort_key_defaults(sk);
	uint8_t *dc = rv_of("ncpus=1");
	fs_status st;

	c->held = c->peak = 0;
	st = fs_place_parse("free", 4, &pl, err);
	if (st == FS_OK)
		st = fs_select_parse(sel_text, strlen(sel_text), dc, a, &sel, err);
	free(dc);
	if (st != FS_OK)
		return -1;
	st = fs_place_select(p, SPEC(NULL, NULL, 0, sk, nsk, false, false), sel, &pl, a, cp, err);
	fs_select_free(sel, a);
	return st == FS_OK ? (long) cp->npieces : -1;
}

/*
 * Scale: a split chunk resumes where the previous one stopped (10,000 chunks of ncpus=2 over
 * 20,000 vnodes of ncpus=1 on one host: each chunk on the next two vnodes), and memory stays in
 * proportion to the spec and the pool (20,000 terms naming a resource each, on 10 vnodes; every
 * term's amount of every resource took 3.2 GB).
 */
static void
test_select_scale(void)
{
	peak_count c = {0, 0};
	const fs_allocator a = {peak_alloc, peak_free, &c};
	fs_vpool *p = fs_vpool_new(&unit_alloc);
	uint8_t *one = rv_of("ncpus=1"), *many = rv_of("ncpus=2000");
	fs_label host = {"host", 4, "h1", 2};
	fs_chunk_placement cp;
	fs_sb sb;
	fs_error err;
	char name[16];
	size_t i;
	long n;
	bool in_turn = true, added = true;

	for (i = 0; i < 20000; i++)
	{
		snprintf(name, sizeof(name), "hv%05zu", i + 1);
		added = added &&
		        fs_vpool_add(p, name, strlen(name), one, NULL, &host, 1, NULL, 0, &err) == FS_OK;
	}
	CHECK(added);
	CHECK(fs_vpool_prepare(p, &err) == FS_OK);
	n = place_counted(p, "10000:ncpus=2", &c, &cp, &a, &err);
	if (CHECK(n == 20000))
		for (i = 0; i < cp.npieces; i++)
			in_turn = in_turn && cp.pieces[i].chunk == i / 2 + 1 && cp.pieces[i].vnode == i;
	CHECK(in_turn);
	if (n >= 0)
		fs_chunk_placement_free(&cp, &a);
	fs_vpool_free(p);

	p = fs_vpool_new(&unit_alloc);
	for (i = 0; i < 10; i++)
	{
		snprintf(name, sizeof(name), "t%zu", i + 1);
		added = added &&
		        fs_vpool_add(p, name, strlen(name), many, NULL, NULL, 0, NULL, 0, &err) == FS_OK;
	}
	CHECK(added);
	CHECK(fs_vpool_prepare(p, &err) == FS_OK);
	fs_sb_init(&sb, &unit_alloc, 1 << 16);
	for (i = 0; i < 20000; i++)
		fs_sb_appendf(&sb, "%s1:ncpus=1:r%zu=0", i ? "+" : "", i);
	n = place_counted(p, sb.data, &c, &cp, &a, &err);
	if (!CHECK(n == 20000))
		printf("     %s\n", n < 0 ? err.message : "too few pieces");
	/* the spec is 370 kB; its terms, their resources and the pieces take a few MB */
	if (!CHECK(c.peak < (size_t) 64 << 20))
		printf("     peak %zu bytes\n", c.peak);
	if (n >= 0)
		fs_chunk_placement_free(&cp, &a);
	free(sb.data);
	fs_vpool_free(p);
	free(one);
	free(many);
}

void
test_placement(void)
{
	test_pp1018();
	test_sort_keys();
	test_vpool_edges();
	test_limits();
	test_vpool_binary();
	test_place_spec();
	test_select_spec();
	test_select_pp1018();
	test_select_rules();
	test_indirect();
	test_indirect_binary();
	test_available_text();
	test_label_strings();
	test_input_errors();
	test_place_first();
	test_select_properties();
	test_select_scale();
}
