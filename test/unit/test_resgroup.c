/* test_resgroup.c: unit tests of src/core/load/resgroup.c: the PBS resource_group reader. */
#include "unit.h"
#include "load/resgroup.h"
#include "types/sharepath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parsed
{
	fs_rg_entry *e;
	size_t n;
} parsed;

static parsed
parse(const char *doc)
{
	parsed p;
	fs_error err;

	if (!CHECK(fs_rg_parse(doc, strlen(doc), &unit_alloc, &p.e, &p.n, &err) == FS_OK))
		p.n = 0;
	return p;
}

static void
release(parsed *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->e[i].error);
	free(p->e);
}

/* Entry i is valid with this line, name, id, shares and path text. */
static void
check_ok(const parsed *p, size_t i, int line, const char *name, int id, double shares,
         const char *path)
{
	uint8_t *sp;
	size_t len;
	fs_error err;
	fs_sb sb;
	char nm[64];

	if (!CHECK(i < p->n))
		return;
	if (!CHECK(p->e[i].error == NULL))
	{
		printf("     line %d: %s\n", p->e[i].line, p->e[i].error);
		return;
	}
	CHECK(p->e[i].line == line);
	snprintf(nm, sizeof(nm), "%.*s", (int) p->e[i].namelen, p->e[i].name);
	CHECK_STR(nm, name);
	CHECK(p->e[i].id == id);
	CHECK_DBL(p->e[i].shares, shares, 0);
	if (!CHECK(fs_rg_path(p->e, i, &unit_alloc, 0, &sp, &len, &err) == FS_OK))
		return;
	fs_sb_init(&sb, &unit_alloc, 16);
	fs_sp_format(&sb, sp);
	CHECK_STR(sb.data, path);
	free(sb.data);
	free(sp);
}

/* Entry i is an error of this status, on this line, whose detail contains `needle`. */
static void
check_bad(const parsed *p, size_t i, int line, fs_status st, const char *needle)
{
	char want[64];
	fs_error err;

	if (!CHECK(i < p->n) || !CHECK(p->e[i].error != NULL))
		return;
	CHECK(p->e[i].line == line);
	fs_rg_error(&p->e[i], &err);
	CHECK(err.status == st);
	snprintf(want, sizeof(want), "invalid resource_group line %d: \"", line);
	CHECK(strncmp(err.message, want, strlen(want)) == 0);
	CHECK_STR(err.detail, p->e[i].error);
	if (!CHECK(strstr(err.detail, needle) != NULL))
		printf("     detail: %s\n", err.detail);
	CHECK(err.hint[0] != '\0');
}

/* The constructed_edges block of shared/data/accounting/resource_group_samples.txt. */
static void
test_sample_edges(void)
{
	const char *doc =
	    "# constructed edge cases for parse_group(); comments may start after blanks\n"
	    "   # indented comment\n"
	    "* a '*' line is a comment too (skip_line() shares it with the holidays file)\n"
	    "\n"
	    "physics\t10\troot\t60\n"
	    "chem   20   root   40\n"
	    "alice 11 physics 50 7.5\n"
	    "bob\t12\tphysics\t50\n"
	    "physics 13 root 10\n"
	    "carol 14 nosuchgroup 10\n"
	    "dave 15 chem 10.5\n"
	    "erin 16 chem -5\n"
	    "frank 17 chem\n"
	    "unknown 18 root 10\n"
	    "guest 19 unknown 1\n"
	    "gina 21 chem 30\r\n"
	    "root 20 root 5\n"
	    "henry 22 root 5\n";
	parsed p = parse(doc);

	CHECK(p.n == 14);
	check_ok(&p, 0, 5, "physics", 10, 60, "physics");
	check_ok(&p, 1, 6, "chem", 20, 40, "chem");
	check_ok(&p, 2, 7, "alice", 11, 50, "physics.alice");
	CHECK(p.e[2].extra != NULL && p.e[2].extralen == 3 && memcmp(p.e[2].extra, "7.5", 3) == 0);
	check_ok(&p, 3, 8, "bob", 12, 50, "physics.bob");
	CHECK(p.e[3].extra == NULL);
	check_bad(&p, 4, 9, FS_ERR_VALUE, "Group \"physics\" is already defined on line 5");
	check_bad(&p, 5, 10, FS_ERR_VALUE,
	          "Parent group \"nosuchgroup\" is not defined in the file at character 10");
	check_bad(&p, 6, 11, FS_ERR_SYNTAX,
	          "The shares field \"10.5\" is not an integer at character 14");
	check_bad(&p, 7, 12, FS_ERR_VALUE, "The shares field \"-5\" is negative at character 14");
	check_bad(&p, 8, 13, FS_ERR_SYNTAX,
	          "A line needs four fields (name, id, parent, shares) and this one has 3");
	check_bad(&p, 9, 14, FS_ERR_VALUE, "Group \"unknown\" is predefined by PBS");
	check_ok(&p, 10, 15, "guest", 19, 1, "unknown.guest");
	check_bad(&p, 11, 16, FS_ERR_SYNTAX, "The shares field \"30\" ends in a carriage return");
	check_bad(&p, 12, 17, FS_ERR_VALUE,
	          "Group \"chem\" on line 6, which has children, already uses id 20");
	check_ok(&p, 13, 18, "henry", 22, 5, "henry");
	release(&p);
}

static void
test_order_and_limits(void)
{
	parsed p;
	char *doc;
	size_t i, pos;

	/* a parent defined below its child, a group that is its own parent, a bad parent line */
	p = parse("a 10 b 1\nb 11 root 1\nc 12 c 1\nd 13 root x\ne 14 d 1\n"
	          "f 1 root 1\ng 2147483648 root 1\nh 15 root 99999999999\n"
	          "i 16 TREEROOT 3\nTREEROOT 17 root 1\nroot 18 root 2\nj 19 root 1 usage 5  \n");
	CHECK(p.n == 12);
	check_bad(&p, 0, 1, FS_ERR_VALUE,
	          "Parent group \"b\" is defined only later, on line 2 at character 6");
	check_ok(&p, 1, 2, "b", 11, 1, "b");
	check_bad(&p, 2, 3, FS_ERR_VALUE, "Group \"c\" names itself as its parent");
	check_bad(&p, 3, 4, FS_ERR_SYNTAX, "The shares field \"x\" is not an integer");
	check_bad(&p, 4, 5, FS_ERR_VALUE,
	          "Parent group \"d\" is not defined (its line 4 has an error) at character 6");
	check_bad(&p, 5, 6, FS_ERR_VALUE,
	          "Id 1 is taken by the predefined group \"unknown\" at character 3");
	check_bad(&p, 6, 7, FS_ERR_VALUE, "The id field \"2147483648\" is out of range");
	check_bad(&p, 7, 8, FS_ERR_VALUE, "The shares field \"99999999999\" is out of range");
	check_ok(&p, 8, 9, "i", 16, 3, "i");
	check_bad(&p, 9, 10, FS_ERR_VALUE, "Group \"TREEROOT\" is predefined by PBS");
	/* PBS accepts a group named root; "root" as a parent still means the tree root */
	check_ok(&p, 10, 11, "root", 18, 2, "root");
	check_ok(&p, 11, 12, "j", 19, 1, "j");
	CHECK(p.e[11].extra && p.e[11].extralen == 7 && memcmp(p.e[11].extra, "usage 5", 7) == 0);
	release(&p);

	/* empty and comment-only documents give no entries; no final newline is fine */
	p = parse("");
	CHECK(p.n == 0 && p.e == NULL);
	p = parse("# only\n\n  \t\r\n*\n");
	CHECK(p.n == 0);
	p = parse("x 5 root 7");
	check_ok(&p, 0, 1, "x", 5, 7, "x");
	release(&p);
	p = parse("a.b@c 5 root +7\n");
	check_ok(&p, 0, 1, "a.b@c", 5, 7, "\"a.b@c\"");
	release(&p);

	/* a line longer than PBS reads */
	doc = malloc(400);
	memset(doc, 'n', 300);
	memcpy(doc + 300, " 5 root 1\n", 11);
	p = parse(doc);
	check_bad(&p, 0, 1, FS_ERR_SYNTAX, "more than the 254 bytes PBS reads of a line");
	release(&p);
	free(doc);

	/* a chain 1025 groups deep: the last one cannot be a sharepath */
	doc = malloc(1100 * 40);
	pos = 0;
	pos += (size_t) sprintf(doc + pos, "g0 100 root 1\n");
	for (i = 1; i <= 1024; i++)
		pos += (size_t) sprintf(doc + pos, "g%zu %zu g%zu 1\n", i, 100 + i, i - 1);
	p = parse(doc);
	CHECK(p.n == 1025);
	CHECK(p.e[1023].error == NULL && p.e[1023].depth == 1024);
	check_bad(&p, 1024, 1025, FS_ERR_VALUE, "nested 1025 levels deep");
	release(&p);
	free(doc);
}

/* A NUL byte ends a line for PBS (a C string): the line is refused, the next one still reads. */
static void
test_nul(void)
{
	static const char doc[] = "grp\0x 10 root 5\ngrp2 11 root 7\n";
	parsed p;
	fs_error err;

	if (!CHECK(fs_rg_parse(doc, sizeof(doc) - 1, &unit_alloc, &p.e, &p.n, &err) == FS_OK))
		return;
	CHECK(p.n == 2);
	CHECK(p.e[0].error != NULL && strstr(p.e[0].error, "NUL byte at character 4"));
	CHECK(p.e[1].error == NULL && p.e[1].id == 11);
	release(&p);
}

/*
 * 1000 nested groups with 120-byte names, 500 under the deepest and one under "unknown": each
 * path written from the parent chain equals the one built label by label with fs_sp_concat
 * (the entries keep no paths: memory linear in the file).
 */
static void
test_deep_paths(void)
{
	enum
	{
		depth = 1000,
		leaves = 500,
		width = 120
	};
	fs_sb doc;
	parsed p;
	uint8_t *want, *got, *next;
	size_t wantlen, i;
	fs_error err;
	int k;

	fs_sb_init(&doc, &unit_alloc, 1 << 19);
	for (k = 1; k <= depth; k++)
	{
		if (k == 1)
			fs_sb_appendf(&doc, "g%0*d %d root 1\n", width - 1, k, k + 10);
		else
			fs_sb_appendf(&doc, "g%0*d %d g%0*d 1\n", width - 1, k, k + 10, width - 1, k - 1);
	}
	for (k = 1; k <= leaves; k++)
		fs_sb_appendf(&doc, "u%0*d %d g%0*d 1\n", width - 1, k, k + 5000, width - 1, depth);
	fs_sb_appendf(&doc, "guest 9999 unknown 1\n");
	p = parse(doc.data); /* the entries point into the document */
	if (!CHECK(p.n == depth + leaves + 1))
	{
		release(&p);
		free(doc.data);
		return;
	}
	got = malloc(2 + (size_t) (depth + 1) * (1 + width));
	fs_sp_from_labels(NULL, NULL, 0, &unit_alloc, 0, &want, &wantlen, &err);
	for (i = 0; i < depth; i++)
	{
		fs_sp_concat(want, NULL, p.e[i].name, p.e[i].namelen, &unit_alloc, 0, &next, &wantlen,
		             &err);
		free(want);
		want = next;
		fs_rg_path_write(p.e, i, got);
		if (!CHECK(p.e[i].error == NULL && p.e[i].pathlen == wantlen &&
		           memcmp(got, want, wantlen) == 0))
			break;
	}
	for (i = depth; i < depth + leaves; i += 61)
	{
		fs_sp_concat(want, NULL, p.e[i].name, p.e[i].namelen, &unit_alloc, 0, &next, &wantlen,
		             &err);
		fs_rg_path_write(p.e, i, got);
		CHECK(p.e[i].pathlen == wantlen && memcmp(got, next, wantlen) == 0 &&
		      fs_sp_nlevel(got) == depth + 1);
		free(next);
	}
	check_ok(&p, depth + leaves, depth + leaves + 1, "guest", 9999, 1, "unknown.guest");
	free(want);
	free(got);
	release(&p);
	free(doc.data);
}

/*
 * Ids: leaves may share one (PBS reads an id only as the resource group of an entity's
 * children); an id shared with an entity that has children is refused, whichever line is first.
 */
static void
test_shared_ids(void)
{
	parsed p;

	/* a site script's shape: every user id 502 under root */
	p = parse("alice 502 root 10\nbob 502 root 10\ncarol 502 root 10\n");
	CHECK(p.n == 3);
	check_ok(&p, 0, 1, "alice", 502, 10, "alice");
	check_ok(&p, 1, 2, "bob", 502, 10, "bob");
	check_ok(&p, 2, 3, "carol", 502, 10, "carol");
	CHECK(!p.e[0].has_children && !p.e[2].has_children);
	release(&p);

	/*
	 * leaves x, y share 7 (one under a group); group g (id 7) has children after the leaves;
	 * group h's id is a leaf's from above; leaf z takes group k's id; m and n are groups
	 * sharing 40; a later leaf shares the refused g's id with the leaves again.
	 */
	p = parse("x 7 root 1\n"
	          "k 30 root 1\n"
	          "y 7 k 1\n"
	          "g 7 root 1\n"
	          "gc 31 g 1\n"
	          "h 30 root 1\n"
	          "hc 32 h 1\n"
	          "z 30 root 1\n"
	          "m 40 root 1\n"
	          "n 40 root 1\n"
	          "mc 41 m 1\n"
	          "nc 42 n 1\n"
	          "w 7 root 2\n");
	CHECK(p.n == 13);
	check_ok(&p, 0, 1, "x", 7, 1, "x");
	check_ok(&p, 1, 2, "k", 30, 1, "k");
	CHECK(p.e[1].has_children && !p.e[0].has_children);
	check_ok(&p, 2, 3, "y", 7, 1, "k.y");
	check_bad(&p, 3, 4, FS_ERR_VALUE,
	          "This group has children, and \"x\" on line 1 already uses its id 7 at character 3");
	check_bad(&p, 4, 5, FS_ERR_VALUE,
	          "Parent group \"g\" is not defined (its line 4 has an error)");
	check_bad(&p, 5, 6, FS_ERR_VALUE,
	          "This group has children, and \"k\" on line 2 already uses its id 30");
	check_bad(&p, 6, 7, FS_ERR_VALUE, "Parent group \"h\" is not defined");
	check_bad(&p, 7, 8, FS_ERR_VALUE,
	          "Group \"k\" on line 2, which has children, already uses id 30");
	check_ok(&p, 8, 9, "m", 40, 1, "m");
	check_bad(&p, 9, 10, FS_ERR_VALUE,
	          "This group has children, and \"m\" on line 9 already uses its id 40");
	check_ok(&p, 10, 11, "mc", 41, 1, "m.mc");
	check_ok(&p, 12, 13, "w", 7, 2, "w");
	release(&p);

	/* a line that names itself as its parent does not give itself children */
	p = parse("s 8 root 1\nt 8 t 1\nu 8 root 1\n");
	check_ok(&p, 0, 1, "s", 8, 1, "s");
	check_bad(&p, 1, 2, FS_ERR_VALUE, "names itself as its parent");
	check_ok(&p, 2, 3, "u", 8, 1, "u");
	release(&p);
}

void
test_resgroup(void)
{
	test_sample_edges();
	test_order_and_limits();
	test_shared_ids();
	test_nul();
	test_deep_paths();
}
