/*
 * groupquota.h: HTCondor's hierarchical group quotas (docs/slot-weights.md ("HTCondor hierarchical
 * group quotas")) as the negotiator computes them at the start of a cycle (GroupEntry.cpp): quotas
 * assigned down the tree of dotted group names, each group's demand served from its quota, surplus
 * shared bottom-up among groups that accept it (by quota, then equally among groups with zero
 * quota) and, with whole slots, the fractional remainders handed out by round robin.
 */
#ifndef FS_GROUPQUOTA_H
#define FS_GROUPQUOTA_H

#include "fs_core.h"

/* The invented root group of every tree; a group may not take its name. */
#define FS_GQ_ROOT_NAME "<none>"

/* Groups nest at most this deep (a sharepath's depth). */
#define FS_GQ_DEPTH_MAX 1024

/* One configured group: GROUP_NAMES entry with its GROUP_QUOTA[_DYNAMIC]_<g> and knobs. */
typedef struct fs_gq_group
{
	const char *name; /* dotted: "group_physics.hep"; compared case-insensitively */
	size_t namelen;
	double quota;        /* GROUP_QUOTA_<g> (slots) or GROUP_QUOTA_DYNAMIC_<g> (a fraction) */
	bool dynamic;        /* quota is GROUP_QUOTA_DYNAMIC_<g> */
	bool accept_surplus; /* GROUP_ACCEPT_SURPLUS[_<g>] */
	bool autoregroup;    /* GROUP_AUTOREGROUP[_<g>] */
	double demand;       /* weighted running + idle jobs submitted against the group */
} fs_gq_group;

typedef struct fs_gq_options
{
	double pool;        /* the pool's (weighted) slots */
	double none_demand; /* demand of submitters outside every group, negotiated in <none> */
	/*
	 * NEGOTIATOR_USE_SLOT_WEIGHTS (HTCondor's default: true). False means whole slots: demand
	 * and pool are counts, each group's allocation is rounded down and the fractions gathered
	 * are handed out again one slot at a time by round robin.
	 */
	bool use_slot_weights;
	/*
	 * NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION (HTCondor's default: true). True: static quotas
	 * are never scaled down to fit the parent's, and a group with subgroups keeps its whole
	 * quota as its own (<none> keeps the pool less its children's, at least 0), so allocations
	 * may add up past the pool. False: static quotas past the parent's are scaled down and a
	 * group keeps what its children leave.
	 */
	bool allow_oversubscription;
} fs_gq_options;

/* One output row, in pre-order of the group tree (children in case-insensitive name order). */
typedef struct fs_gq_row
{
	size_t group;         /* index into the input, or SIZE_MAX for the root <none> */
	int depth;            /* 0 for <none> */
	double quota;         /* the group's own quota, after its children took theirs */
	double subtree_quota; /* the quota of the group with its subgroups */
	double requested;     /* the demand */
	double allocated;     /* the group's allocation for the cycle */
	double surplus;       /* max(0, allocated - quota): what it got beyond its own quota */
} fs_gq_row;

/*
 * Compute every group's quota and allocation. Errors (22023 unless noted): an empty name or
 * label, the name <none>, a name given twice (case-insensitively), a group whose parent is not
 * a group (HTCondor ignores such a group; here it is an error), a negative or non-finite quota,
 * a dynamic quota above 1, a negative or non-finite demand or pool, fractional demand or pool
 * with use_slot_weights false, groups nested past FS_GQ_DEPTH_MAX (54000). O(n log n).
 */
fs_status fs_group_quotas(const fs_gq_group *groups, size_t n, const fs_gq_options *opt,
                          const fs_allocator *a, fs_gq_row **out, size_t *nout, fs_error *err);

#endif
