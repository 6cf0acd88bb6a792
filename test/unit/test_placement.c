/* test_placement.c: unit tests of src/core/placement.c with seed 003's 36 vnodes. */
#include "unit.h"
#include "placement.h"
#include "resvec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Seed 003's vnode table: ncpus, mem, router, switch (labels as written, "sw4," included). */
static const struct
{
	const char *name, *res, *router, *sw;
} seed003[] = {
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

static fs_pool *
seed_pool(void)
{
	fs_pool *p = fs_pool_new(&unit_alloc);
	fs_error err;
	size_t i;

	for (i = 0; i < sizeof(seed003) / sizeof(seed003[0]); i++)
	{
		fs_label labels[16];
		size_t n = split("router", seed003[i].router, labels, 0);
		uint8_t *rv;
		size_t len;

		n = split("switch", seed003[i].sw, labels, n);
		fs_rv_parse(seed003[i].res, strlen(seed003[i].res), &unit_alloc, 0, &rv, &len, &err);
		CHECK(fs_pool_add(p, seed003[i].name, strlen(seed003[i].name), rv, NULL, labels, n, NULL, 0, &err) ==
		      FS_OK);
		free(rv);
	}
	CHECK(fs_pool_prepare(p, &err) == FS_OK);
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
test_seed003(void)
{
	fs_pool *pool = seed_pool();
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
	CHECK(fs_placement_sets(pool, keys, keylens, 2, sk, nsk, false, false, &unit_alloc, &sets, &n,
	                        &err) == FS_OK);
	CHECK(n == 24);
	check_order(sets, n, 1, current, 8);
	fs_psets_free(sets, n, &unit_alloc);
	/* "router HIGH" and then the defaults: the 24 sets in the seed's last table */
	CHECK(fs_sort_key_parse("\"router HIGH\" all", 17, &sk[0], &err) == FS_OK);
	nsk = 1 + fs_sort_key_defaults(sk + 1);
	CHECK(fs_placement_sets(pool, keys, keylens, 2, sk, nsk, false, false, &unit_alloc, &sets, &n,
	                        &err) == FS_OK);
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
	fs_pool_free(pool);
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
test_pool_edges(void)
{
	fs_pool *p = fs_pool_new(&unit_alloc), *back;
	fs_label l[3] = {{"router", 6, "r1", 2}, {"router", 6, "", 0}, {"router", 6, "r1", 2}};
	uint8_t *flat;
	size_t size, cut;
	fs_error err;
	fs_pset *sets;
	size_t n;
	fs_sort_key sk[4];
	size_t nsk = fs_sort_key_defaults(sk);

	CHECK(fs_pool_add(p, "a", 1, NULL, NULL, l, 3, NULL, 0, &err) == FS_OK);
	CHECK(fs_pool_vnode(p, 0)->nlabels == 1); /* empty dropped, duplicate merged */
	CHECK(fs_pool_add(p, "b", 1, NULL, NULL, NULL, 0, NULL, 0, &err) == FS_OK);
	CHECK(fs_pool_prepare(p, &err) == FS_OK);
	/* b has no router: it joins router's empty-value set, unless only explicit values count */
	CHECK(fs_placement_sets(p, keys, keylens, 1, sk, nsk, false, false, &unit_alloc, &sets, &n,
	                        &err) == FS_OK);
	CHECK(n == 2);
	fs_psets_free(sets, n, &unit_alloc);
	CHECK(fs_placement_sets(p, keys, keylens, 1, sk, nsk, false, true, &unit_alloc, &sets, &n,
	                        &err) == FS_OK);
	CHECK(n == 1);
	fs_psets_free(sets, n, &unit_alloc);
	CHECK(fs_placement_sets(p, keys, keylens, 0, sk, nsk, false, true, &unit_alloc, &sets, &n,
	                        &err) == FS_ERR_VALUE);
	size = fs_pool_flat_size(p);
	flat = malloc(size);
	fs_pool_flatten(p, flat);
	CHECK(fs_pool_from_flat(&unit_alloc, flat, size, &back, &err) == FS_OK);
	CHECK(fs_pool_count(back) == 2 && fs_pool_flat_size(back) == size);
	fs_pool_free(back);
	for (cut = 0; cut < size; cut++)
		if (!CHECK(fs_pool_from_flat(&unit_alloc, flat, cut, &back, &err) != FS_OK))
			fs_pool_free(back);
	free(flat);
	CHECK(fs_pool_add(p, "a", 1, NULL, NULL, NULL, 0, NULL, 0, &err) == FS_OK);
	CHECK(fs_pool_prepare(p, &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "vnode \"a\" appears twice") != NULL);
	fs_pool_free(p);
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
	fs_pool *p = fs_pool_new(&unit_alloc);
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
	CHECK(fs_pool_add(p, "vn1", 3, NULL, NULL, labels, 60, NULL, 0, &err) == FS_OK);
	CHECK(fs_pool_prepare(p, &err) == FS_OK);
	for (i = 0; i < 6; i++)
	{
		keys[i] = names[i];
		keylens[i] = 2;
	}
	CHECK(fs_placement_sets(p, keys, keylens, 6, sk, nsk, false, false, &unit_alloc, &sets, &n,
	                        &err) == FS_ERR_LIMIT);
	CHECK(strstr(err.detail, "more than 100000 placement sets") != NULL);
	/* three keys: 1,000 combinations and 30 flat sets are fine */
	CHECK(fs_placement_sets(p, keys, keylens, 3, sk, nsk, false, false, &unit_alloc, &sets, &n,
	                        &err) == FS_OK);
	CHECK(n == 1030);
	fs_psets_free(sets, n, &unit_alloc);
	keys[2] = "k1";
	CHECK(fs_placement_sets(p, keys, keylens, 3, sk, nsk, false, false, &unit_alloc, &sets, &n,
	                        &err) == FS_ERR_VALUE);
	CHECK(strstr(err.message, "group key \"k1\" appears more than once") != NULL);
	CHECK(strstr(err.detail, "group_keys[1] and group_keys[3]") != NULL);
	for (i = 0; i <= FS_PSET_KEYS_MAX; i++)
	{
		keys[i] = values[i % 10]; /* distinct enough: only the count is checked first */
		keylens[i] = strlen(keys[i]);
	}
	CHECK(fs_placement_sets(p, keys, keylens, FS_PSET_KEYS_MAX + 1, sk, nsk, false, false,
	                        &unit_alloc, &sets, &n, &err) == FS_ERR_LIMIT);
	fs_pool_free(p);

	p = fs_pool_new(&unit_alloc);
	CHECK(fs_pool_add(p, "vn1", 3, avail, assigned, labels, 1, NULL, 0, &err) == FS_OK);
	CHECK(fs_pool_prepare(p, &err) == FS_OK);
	CHECK(fs_placement_sets(p, names, keylens, 1, sk, nsk, false, false, &unit_alloc, &sets, &n,
	                        &err) == FS_ERR_KIND);
	CHECK(strstr(err.message, "on vnode \"vn1\"") != NULL);
	fs_pool_free(p);
	free(avail);
	free(assigned);
}

/* The vnodepool binary form: golden bytes derived by hand from the format in placement.c. */
static void
test_pool_binary(void)
{
	static const char *golden = "01 00000001"
	                            " 0002 6e31"
	                            " 00000001 00 05 6e63707573 4010000000000000"
	                            " 00000000"
	                            " 0001 0002 7377 0001 61";
	fs_pool *p = fs_pool_new(&unit_alloc), *back;
	fs_label l[1] = {{"sw", 2, "a", 1}};
	uint8_t want[128], bad[128], *got;
	uint8_t *rv;
	size_t rvlen, n = unit_unhex(golden, want), size, i;
	fs_error err;

	CHECK(fs_rv_parse("ncpus=4", 7, &unit_alloc, 0, &rv, &rvlen, &err) == FS_OK);
	CHECK(fs_pool_add(p, "n1", 2, rv, NULL, l, 1, NULL, 0, &err) == FS_OK);
	CHECK(fs_pool_prepare(p, &err) == FS_OK);
	size = fs_pool_binary_size(p);
	got = malloc(size);
	fs_pool_to_binary(p, got);
	CHECK(size == n && memcmp(got, want, n) == 0);
	if (CHECK(fs_pool_from_binary(&unit_alloc, want, n, &back, &err) == FS_OK))
	{
		CHECK(fs_pool_count(back) == 1 && fs_pool_vnode(back, 0)->nlabels == 1);
		CHECK(fs_rv_size(fs_pool_vnode(back, 0)->avail) == rvlen &&
		      memcmp(fs_pool_vnode(back, 0)->avail, rv, rvlen) == 0);
		fs_pool_free(back);
	}
	for (i = 0; i < n; i++)
		if (!CHECK(fs_pool_from_binary(&unit_alloc, want, i, &back, &err) == FS_ERR_BINARY))
			fs_pool_free(back);
	memcpy(bad, want, n);
	bad[0] = 3;
	CHECK(fs_pool_from_binary(&unit_alloc, bad, n, &back, &err) == FS_ERR_BINARY);
	CHECK(strstr(err.message, "unsupported binary format version 3") != NULL);
	bad[0] = 2; /* version 2 carries indirect resources after the labels: truncated here */
	CHECK(fs_pool_from_binary(&unit_alloc, bad, n, &back, &err) == FS_ERR_BINARY);
	/* what the JSON text cannot say: a NUL in a name, a comma or edge space in a value */
	memcpy(bad, want, n);
	bad[8] = 0; /* "n1" -> "n\0" */
	CHECK(fs_pool_from_binary(&unit_alloc, bad, n, &back, &err) == FS_ERR_BINARY);
	memcpy(bad, want, n);
	bad[n - 1] = ',';
	CHECK(fs_pool_from_binary(&unit_alloc, bad, n, &back, &err) == FS_ERR_BINARY);
	CHECK(strstr(err.message, "a label the text form cannot express") != NULL);
	memcpy(bad, want, n);
	bad[n - 1] = ' ';
	CHECK(fs_pool_from_binary(&unit_alloc, bad, n, &back, &err) == FS_ERR_BINARY);
	/* flipped bytes: refused, or read as a value that sends exactly those bytes */
	for (i = 0; i < n; i++)
	{
		memcpy(bad, want, n);
		bad[i] ^= 0x21;
		if (fs_pool_from_binary(&unit_alloc, bad, n, &back, &err) == FS_OK)
		{
			uint8_t again[128];

			CHECK(fs_pool_binary_size(back) == n);
			fs_pool_to_binary(back, again);
			CHECK(memcmp(again, bad, n) == 0);
			fs_pool_free(back);
		}
	}
	free(got);
	free(rv);
	fs_pool_free(p);
}

void
test_placement(void)
{
	test_seed003();
	test_sort_keys();
	test_pool_edges();
	test_limits();
	test_pool_binary();
}
