/*
 * test_sacctmgr.c: unit tests of src/core/load/sacctmgr.c: a dump and a listing read as share-tree
 * paths, and a deep tree whose paths are written only when asked for.
 */
#include "unit.h"

#include "load/sacctmgr.h"
#include "types/sharepath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The path of rows[i] as text, written by fs_sacctmgr_assoc_path (sb must be freed). */
static void
assoc_path_text(const fs_assoc_row *rows, size_t i, fs_sb *sb)
{
	uint8_t *sp = malloc(rows[i].pathlen);

	fs_sacctmgr_assoc_path(rows, i, sp);
	CHECK(fs_sp_size(sp) == rows[i].pathlen && fs_sp_nlevel(sp) == rows[i].depth);
	fs_sb_init(sb, &unit_alloc, 16);
	fs_sp_format(sb, sp);
	free(sp);
}

static void
test_assoc(void)
{
	static const char dump[] = "Cluster - 'tux':Fairshare=1:QOS='normal'\n"
	                           "Parent - 'root'\n"
	                           "Account - 'science':Description='a:b':Fairshare=50\n"
	                           "Parent - 'science'\n"
	                           "Account - 'shared':Fairshare=2147483647\n"
	                           "Parent - 'shared'\n"
	                           "User - 'brian':DefaultAccount='shared':Fairshare=7\n";
	static const char list[] = "Cluster|Account|User|Partition|Share|ParentName\n"
	                           "tux|root|||1|\n"
	                           "tux|A|||40|root\n"
	                           "tux|B|||parent|A\n"
	                           "tux|B|u1||3|\n";
	static const char flat[] = "Account|User|Share\nroot||1\nbio||1\nbio_1||1\nbio_1|fsu3|1\n";
	static const char tree[] = "Account|User|Share\nroot||1\n bio||1\n  bio_1||1\n  bio_1|fsu3|1\n";
	fs_assoc_row *rows;
	size_t n;
	fs_error err;
	fs_sb sb;

	if (CHECK(fs_sacctmgr_assoc(dump, strlen(dump), &unit_alloc, &rows, &n, &err) == FS_OK))
	{
		CHECK(n == 4);
		assoc_path_text(rows, 3, &sb);
		CHECK_STR(sb.data, "science.shared.brian");
		CHECK(rows[2].from_parent && !rows[2].has_shares);
		CHECK(rows[3].has_shares && rows[3].shares == 7 && rows[3].line == 7);
		CHECK_STR(unit_cstr(rows[3].account), "shared");
		CHECK(rows[0].depth == 0 && rows[0].pathlen == 2);
		unit_alloc.release(NULL, sb.data);
		fs_sacctmgr_assoc_free(rows, n, &unit_alloc);
	}
	if (CHECK(fs_sacctmgr_assoc(list, strlen(list), &unit_alloc, &rows, &n, &err) == FS_OK))
	{
		CHECK(n == 4);
		assoc_path_text(rows, 3, &sb);
		CHECK_STR(sb.data, "A.B.u1");
		CHECK(rows[2].from_parent);
		unit_alloc.release(NULL, sb.data);
		fs_sacctmgr_assoc_free(rows, n, &unit_alloc);
	}
	CHECK(fs_sacctmgr_assoc("Parent - 'x'\n", 13, &unit_alloc, &rows, &n, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.message, "invalid sacctmgr association data at line 1: \"Parent - 'x'\"");
	/* with neither ParentName nor the tree option's indentation an account's parent is unknown;
	 * indented, the same accounts nest */
	CHECK(fs_sacctmgr_assoc(flat, strlen(flat), &unit_alloc, &rows, &n, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.message, "invalid sacctmgr association data at line 3: \"bio||1\"");
	if (CHECK(fs_sacctmgr_assoc(tree, strlen(tree), &unit_alloc, &rows, &n, &err) == FS_OK))
	{
		CHECK(n == 4);
		assoc_path_text(rows, 3, &sb);
		CHECK_STR(sb.data, "bio.bio_1.fsu3");
		unit_alloc.release(NULL, sb.data);
		fs_sacctmgr_assoc_free(rows, n, &unit_alloc);
	}
}

/* "<prefix><i zero-padded to width>" into buf. */
static void
padded_name(char *buf, size_t cap, const char *prefix, int i, int width)
{
	snprintf(buf, cap, "%s%0*d", prefix, width, i);
}

/*
 * A deep dump: `depth` nested accounts with 250-byte names, then `users` users under the
 * deepest. The rows keep only their labels (linear memory); every written path equals the one
 * built label by label with fs_sp_concat from its parent's, and a 1025th level is refused with
 * sharepath's depth message.
 */
static void
test_assoc_deep(void)
{
	enum
	{
		depth = 1000,
		users = 2000,
		width = 250
	};
	fs_sb doc;
	char name[width + 1], prev[width + 1];
	fs_assoc_row *rows;
	size_t n, i;
	fs_error err;
	uint8_t *want = NULL, *got;
	size_t wantlen;
	int k;

	fs_sb_init(&doc, &unit_alloc, 1 << 20);
	fs_sb_appendf(&doc, "Cluster - 'c'\n");
	snprintf(prev, sizeof(prev), "root");
	for (k = 1; k <= depth; k++)
	{
		padded_name(name, sizeof(name), "a", k, width - 1);
		fs_sb_appendf(&doc, "Parent - '%s'\nAccount - '%s':Fairshare=%d\n", prev, name, k);
		memcpy(prev, name, sizeof(name));
	}
	fs_sb_appendf(&doc, "Parent - '%s'\n", prev);
	for (k = 1; k <= users; k++)
	{
		padded_name(name, sizeof(name), "u", k, width - 1);
		fs_sb_appendf(&doc, "User - '%s'\n", name);
	}
	if (CHECK(fs_sacctmgr_assoc(doc.data, doc.len, &unit_alloc, &rows, &n, &err) == FS_OK))
	{
		CHECK(n == 1 + depth + users);
		CHECK(rows[n - 1].depth == depth + 1 && rows[n - 1].parent == depth);
		CHECK(rows[n - 1].pathlen == 2 + (size_t) (depth + 1) * (1 + width));
		got = malloc(rows[n - 1].pathlen);
		/* the path of each account from its parent's, as the rows stored them before */
		fs_sp_from_labels(NULL, NULL, 0, &unit_alloc, 0, &want, &wantlen, &err);
		for (i = 1; i <= depth; i++)
		{
			uint8_t *next;

			fs_sp_concat(want, NULL, rows[i].label.s, rows[i].label.len, &unit_alloc, 0, &next,
			             &wantlen, &err);
			free(want);
			want = next;
			fs_sacctmgr_assoc_path(rows, i, got);
			if (!CHECK(wantlen == rows[i].pathlen && memcmp(want, got, wantlen) == 0))
				break;
		}
		for (i = depth + 1; i < n; i += users / 7)
		{
			uint8_t *user;

			fs_sp_concat(want, NULL, rows[i].user.s, rows[i].user.len, &unit_alloc, 0, &user,
			             &wantlen, &err);
			fs_sacctmgr_assoc_path(rows, i, got);
			CHECK(wantlen == rows[i].pathlen && memcmp(user, got, wantlen) == 0);
			free(user);
		}
		free(want);
		free(got);
		fs_sacctmgr_assoc_free(rows, n, &unit_alloc);
	}
	free(doc.data);

	/* 1025 levels: one more than a sharepath holds */
	fs_sb_init(&doc, &unit_alloc, 1 << 16);
	fs_sb_appendf(&doc, "Cluster - 'c'\nParent - 'root'\n");
	for (k = 1; k <= 1025; k++)
		fs_sb_appendf(&doc, "Account - 'a%d'\nParent - 'a%d'\n", k, k);
	CHECK(fs_sacctmgr_assoc(doc.data, doc.len, &unit_alloc, &rows, &n, &err) == FS_ERR_SYNTAX);
	CHECK_STR(err.detail, "Sharepath would have 1025 labels.");
	CHECK(strstr(err.message, "at line 2051:") != NULL);
	free(doc.data);
}

/*
 * A user's per-partition associations are siblings under the account, as in Slurm (sshare prints
 * each as its own line): "user" for the partition-less one, "user@partition" for the others.
 */
static void
test_assoc_partitions(void)
{
	static const char list[] = "Cluster|Account|User|Partition|Share|ParentName\n"
	                           "brc|root|||1|\n"
	                           "brc|fc_p|||1|root\n"
	                           "brc|fc_p|pac|savio3_gpu|1|\n"
	                           "brc|fc_p|pac|savio3|2|\n"
	                           "brc|fc_p|pac||3|\n";
	static const char dump[] = "Cluster - 'tux':Fairshare=1\n"
	                           "Parent - 'root'\n"
	                           "Account - 'a':Fairshare=5\n"
	                           "Parent - 'a'\n"
	                           "User - 'u':Partition='gpu':Fairshare=2\n"
	                           "User - 'u':Fairshare=1\n";
	static const char *want[] = {"fc_p.pac@savio3_gpu", "fc_p.pac@savio3", "fc_p.pac"};
	char *longdoc;
	fs_assoc_row *rows;
	size_t n, i;
	fs_error err;
	fs_sb sb;

	if (CHECK(fs_sacctmgr_assoc(list, strlen(list), &unit_alloc, &rows, &n, &err) == FS_OK) &&
	    CHECK(n == 5))
	{
		for (i = 0; i < 3; i++)
		{
			assoc_path_text(rows, 2 + i, &sb);
			CHECK_STR(sb.data, want[i]);
			CHECK(rows[2 + i].parent == 1 && rows[2 + i].depth == 2);
			CHECK(rows[2 + i].shares == (double) (i + 1));
			unit_alloc.release(NULL, sb.data);
		}
		CHECK_STR(unit_cstr(rows[2].partition), "savio3_gpu");
		CHECK_STR(unit_cstr(rows[2].user), "pac");
		fs_sacctmgr_assoc_free(rows, n, &unit_alloc);
	}
	if (CHECK(fs_sacctmgr_assoc(dump, strlen(dump), &unit_alloc, &rows, &n, &err) == FS_OK) &&
	    CHECK(n == 4))
	{
		assoc_path_text(rows, 2, &sb);
		CHECK_STR(sb.data, "a.u@gpu");
		unit_alloc.release(NULL, sb.data);
		assoc_path_text(rows, 3, &sb);
		CHECK_STR(sb.data, "a.u");
		unit_alloc.release(NULL, sb.data);
		fs_sacctmgr_assoc_free(rows, n, &unit_alloc);
	}
	/* user and partition of 128 bytes each: the joined label (257 bytes) is too long */
	longdoc = malloc(1024);
	snprintf(longdoc, 1024,
	         "Cluster|Account|User|Partition|Share|ParentName\nc|root|||1|\n"
	         "c|a|||1|root\nc|a|%0128d|%0128d|1|\n",
	         1, 2);
	CHECK(fs_sacctmgr_assoc(longdoc, strlen(longdoc), &unit_alloc, &rows, &n, &err) ==
	      FS_ERR_SYNTAX);
	CHECK(strstr(err.message, "line 4") != NULL);
	if (!CHECK(strstr(err.detail, "257 bytes long; at most 255") != NULL))
		printf("     %s / %s\n", err.message, err.detail);
	free(longdoc);
}

void
test_sacctmgr(void)
{
	test_assoc_partitions();
	test_assoc();
	test_assoc_deep();
}
