/*
 * slots.c: slot weights (HTCondor SLOT_WEIGHT charging memory beyond a core's fair slice as
 * extra cores, generalised to every resource) and SLURM's TRES billing (sum, MAX_TRES,
 * MAX_TRES_GRES). Linear in the vectors.
 */
#include "share/slots.h"

#include "types/resvec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int
fs_slot_mode_from_name(const char *name)
{
	if (strcmp(name, "sum") == 0)
		return FS_SLOT_SUM;
	if (strcmp(name, "max") == 0)
		return FS_SLOT_MAX;
	return -1;
}

static inline bool
name_is(const fs_rv_item *it, const char *name, size_t len)
{
	return it->namelen == len && fs_rv_name_cmp(it->name, len, name, len) == 0;
}

static fs_status
negative(fs_error *err, const char *whose, const fs_rv_item *it)
{
	fs_fail(err, FS_ERR_VALUE, "%s amount of \"%.*s\" is negative", whose, (int) it->namelen,
	        it->name);
	fs_error_hint(err, "Slots and machines hold amounts of 0 or more.");
	return FS_ERR_VALUE;
}

/* A machine resource's problem, reported after the slot's (as if the slot were checked first). */
static fs_status
machine_problem(fs_error *err, const fs_rv_item *m, bool claimed_but_none)
{
	if (!claimed_but_none)
		return negative(err, "machine", m);
	fs_fail(err, FS_ERR_VALUE, "the slot claims \"%.*s\" but the machine has none",
	        (int) m->namelen, m->name);
	return FS_ERR_VALUE;
}

/*
 * One walk over both vectors in name order (slot_weight runs once per job row): the slot's
 * resources are checked as they come (each must be the machine's, of the same kind, not
 * negative), and each machine resource adds its term. A problem with a machine resource is
 * kept until the walk ends, so that the slot's problems are reported first wherever they are.
 */
fs_status
fs_slot_weight(const uint8_t *slot, const uint8_t *machine, const char *cores, size_t coreslen,
               fs_slot_mode mode, double *out, fs_error *err)
{
	fs_rv_item it, m, bad;
	fs_rv_iter i, j;
	double C, c = 0, w;
	bool hs, hm, has_bad = false, bad_claimed = false;
	uint32_t k = 0;

	memset(&bad, 0, sizeof(bad));
	if (!fs_rv_get(machine, cores, coreslen, &m) || !(m.amount > 0))
	{
		fs_fail(err, FS_ERR_VALUE, "the machine has no \"%.*s\" to count cores by", (int) coreslen,
		        cores);
		fs_error_hint(err, "Give the machine's cores, for example cpus=64, or name the core "
		                   "resource with the cores argument.");
		return FS_ERR_VALUE;
	}
	C = m.amount;
	if (fs_rv_get(slot, cores, coreslen, &it))
		c = it.amount;
	w = c;
	fs_rv_iter_init(&i, slot);
	fs_rv_iter_init(&j, machine);
	hs = fs_rv_next(&i, &it);
	hm = fs_rv_next(&j, &m);
	/* both vectors are sorted by name: one merge pass meets each machine resource with the
	 * slot's amount of it, and finds a slot resource the machine lacks */
	while (hs || hm)
	{
		int cmp = !hs ? 1 : !hm ? -1 : fs_rv_name_cmp(it.name, it.namelen, m.name, m.namelen);
		double allowance, s = 0;

		FS_POLL(k);
		k++;
		if (cmp <= 0)
		{
			if (it.amount < 0)
				return negative(err, "slot", &it);
			if (cmp < 0)
			{
				fs_fail(err, FS_ERR_VALUE,
				        "slot resource \"%.*s\" is not a resource of the machine", (int) it.namelen,
				        it.name);
				fs_error_hint(err, "Give the machine's total of every resource a slot can claim.");
				return FS_ERR_VALUE;
			}
			if (m.kind != it.kind)
			{
				fs_fail(err, FS_ERR_KIND,
				        "slot and machine amounts of \"%.*s\" are of different "
				        "kinds",
				        (int) it.namelen, it.name);
				fs_error_detail(err, "The slot's is a %s and the machine's a %s.",
				                fs_kind_name(it.kind), fs_kind_name(m.kind));
				return FS_ERR_KIND;
			}
			s = it.amount;
			hs = fs_rv_next(&i, &it);
		}
		/* the machine resource m, of which the slot has s */
		if (m.amount < 0 && !has_bad)
		{
			has_bad = true;
			bad = m;
		}
		allowance = m.amount / C;
		if (has_bad || name_is(&m, cores, coreslen))
			;
		else if (allowance == 0)
		{
			if (s > 0)
			{
				has_bad = bad_claimed = true;
				bad = m;
			}
		}
		else if (mode == FS_SLOT_SUM)
			w += (s > allowance * c ? s - allowance * c : 0) / allowance;
		else if (s / allowance > w)
			w = s / allowance;
		hm = fs_rv_next(&j, &m);
	}
	if (has_bad)
		return machine_problem(err, &bad, bad_claimed);
	if (!isfinite(w))
	{
		fs_fail(err, FS_ERR_RANGE, "value out of range: the slot weight overflows");
		return FS_ERR_RANGE;
	}
	*out = w;
	return FS_OK;
}

fs_status
fs_slot_remainder(const uint8_t *machine, const uint8_t *const *slots, size_t n,
                  const fs_allocator *a, uint8_t **out, fs_error *err)
{
	fs_rv_iter i;
	fs_rv_item m;
	fs_rv_item *items;
	size_t k = 0, j, count = 0;
	uint8_t *rv;
	size_t len;
	fs_status st;

	items = a->alloc(a->ctx, sizeof(fs_rv_item) * (fs_rv_count(machine) + 1));
	fs_rv_iter_init(&i, machine);
	while (fs_rv_next(&i, &m))
	{
		double left = m.amount;

		for (j = 0; j < n; j++)
		{
			fs_rv_item s;

			FS_POLL(count++);
			if (fs_rv_get(slots[j], m.name, m.namelen, &s))
				left -= s.amount;
		}
		items[k] = m;
		items[k++].amount = left > 0 ? left : 0;
	}
	st = fs_rv_build(items, k, FS_ERR_VALUE, a, 0, &rv, &len, err);
	a->release(a->ctx, items);
	if (st == FS_OK)
		*out = rv;
	return st;
}

/* ---------------------------------------------------------------- billing */

typedef struct weight_item
{
	const char *name;
	size_t namelen;
	double weight;
	double unit; /* bytes per unit for sizes: per MB unless a suffix says otherwise */
} weight_item;

static fs_status
bad_weight(fs_error *err, const char *item, size_t len, const char *why)
{
	fs_fail(err, FS_ERR_SYNTAX, "invalid TRESBillingWeights item \"%.*s\"",
	        (int) (len > 200 ? 200 : len), item);
	fs_error_detail(err, "%s", why);
	fs_error_hint(err, "Write weights as TRES=number, with an optional size unit for memory, for "
	                   "example \"CPU=1.0,Mem=0.25G,GRES/gpu=2.0\".");
	return FS_ERR_SYNTAX;
}

/*
 * The TRES whose amounts are sizes, for which a weight may carry a unit: SLURM converts units
 * only for memory and burst buffers (base unit MB); we add the other byte-sized TRES.
 */
static bool
size_tres(const char *name, size_t len)
{
	return fs_span_ieq(name, len, "mem") || fs_span_ieq(name, len, "vmem") ||
	       fs_span_ieq(name, len, "fs/disk") || fs_span_ieq(name, len, "bb") ||
	       (len > 3 && fs_span_ieq(name, 3, "bb/"));
}

#define MAX_WEIGHTS 256

/*
 * Items separated by commas; empty items (",," or a trailing comma) are skipped, as SLURM's
 * strtok-based parser skips them.
 */
static fs_status
parse_weights(const char *s, size_t len, weight_item *items, size_t *n, fs_error *err)
{
	size_t i = 0, count = 0;

	*n = 0;
	while (i < len)
	{
		size_t start = i, end, eq, j;
		weight_item *w;
		double v;
		size_t used;

		FS_POLL(count++);
		while (i < len && s[i] != ',')
			i++;
		end = i;
		if (i < len)
			i++; /* past the comma */
		while (start < end && fs_is_space(s[start]))
			start++;
		while (end > start && fs_is_space(s[end - 1]))
			end--;
		if (start == end)
			continue;
		if (*n >= MAX_WEIGHTS)
		{
			fs_fail(err, FS_ERR_LIMIT, "TRESBillingWeights has more than %d items", MAX_WEIGHTS);
			return FS_ERR_LIMIT;
		}
		w = &items[*n];
		for (eq = start; eq < end && s[eq] != '='; eq++)
			;
		if (eq == end)
			return bad_weight(err, s + start, end - start,
			                  "Expected \"=\" between the TRES "
			                  "and its weight.");
		if (eq == start)
			return bad_weight(err, s + start, end - start, "The TRES name is missing.");
		w->name = s + start;
		w->namelen = eq - start;
		while (w->namelen > 0 && fs_is_space(w->name[w->namelen - 1]))
			w->namelen--;
		while (eq + 1 < end && fs_is_space(s[eq + 1]))
			eq++;
		used = fs_scan_number(s + eq + 1, end - eq - 1, &v);
		if (used == 0 || !isfinite(v) || v < 0)
			return bad_weight(err, s + start, end - start,
			                  "The weight must be a finite number of 0 or more.");
		w->weight = v;
		w->unit = 1048576.0; /* SLURM weighs memory per MB unless told otherwise */
		if (eq + 1 + used < end)
		{
			static const char units[] = "kmgtp";
			const char *u = s + eq + 1 + used;
			size_t ulen = end - (eq + 1 + used);
			const char *p = ulen >= 1 ? strchr(units, fs_ascii_lower(u[0])) : NULL;

			if (p == NULL || u[0] == '\0' || ulen > 2 || (ulen == 2 && fs_ascii_lower(u[1]) != 'b'))
				return bad_weight(err, s + start, end - start,
				                  "The unit after the weight must be one of K, M, G, T, P.");
			if (!size_tres(w->name, w->namelen))
			{
				fs_fail(err, FS_ERR_VALUE,
				        "TRESBillingWeights item \"%.*s\" has a unit, but \"%.*s\" is not a size",
				        (int) (end - start > 200 ? 200 : end - start), s + start,
				        (int) (w->namelen > 200 ? 200 : w->namelen), w->name);
				fs_error_detail(err, "A unit on a weight (K, M, G, T, P) applies only to "
				                     "memory-like sizes: Mem, VMem, FS/Disk and BB.");
				fs_error_hint(err, "Write the weight without a unit, for example \"%.*s=1.0\".",
				              (int) (w->namelen > 200 ? 200 : w->namelen), w->name);
				return FS_ERR_VALUE;
			}
			w->unit = ldexp(1.0, 10 * (int) (p - units + 1));
		}
		/* a scan: there are at most MAX_WEIGHTS items */
		for (j = 0; j < *n; j++)
			if (fs_casecmp(items[j].name, items[j].namelen, w->name, w->namelen) == 0)
				return bad_weight(err, s + start, end - start, "This TRES is weighted twice.");
		(*n)++;
	}
	return FS_OK;
}

static bool
node_level(const fs_rv_item *it)
{
	return fs_span_ieq(it->name, it->namelen, "cpu") || fs_span_ieq(it->name, it->namelen, "mem") ||
	       fs_span_ieq(it->name, it->namelen, "node") ||
	       (it->namelen > 5 && fs_span_ieq(it->name, 5, "gres/"));
}

static bool
gres(const fs_rv_item *it)
{
	return it->namelen > 5 && fs_span_ieq(it->name, 5, "gres/");
}

fs_status
fs_billing_mode_of(bool max_tres, bool max_tres_gres, fs_billing_mode *mode, fs_error *err)
{
	if (max_tres && max_tres_gres)
	{
		fs_fail(err, FS_ERR_VALUE, "max_tres and max_tres_gres cannot both be true");
		fs_error_detail(err, "MAX_TRES takes the largest weighted node-level TRES, GRES included; "
		                     "MAX_TRES_GRES adds the GRES to the largest of the others.");
		fs_error_hint(err, "Set the one of SLURM's PriorityFlags that the cluster uses.");
		return FS_ERR_VALUE;
	}
	*mode = max_tres        ? FS_BILLING_MAX_TRES
	        : max_tres_gres ? FS_BILLING_MAX_TRES_GRES
	                        : FS_BILLING_SUM;
	return FS_OK;
}

fs_status
fs_billing(const uint8_t *alloc, const char *weights, size_t len, fs_billing_mode mode, double *out,
           fs_error *err)
{
	weight_item items[MAX_WEIGHTS];
	size_t n = 0, j, count = 0;
	fs_rv_iter i;
	fs_rv_item it;
	double sum = 0, node_max = 0, global = 0;
	fs_status st;

	st = parse_weights(weights, len, items, &n, err);
	if (st != FS_OK)
		return st;
	fs_rv_iter_init(&i, alloc);
	while (fs_rv_next(&i, &it))
	{
		double v = 0;

		FS_POLL(count++);
		for (j = 0; j < n; j++)
		{
			if (fs_casecmp(items[j].name, items[j].namelen, it.name, it.namelen) == 0)
			{
				v = items[j].weight *
				    (it.kind == FS_KIND_SIZE ? it.amount / items[j].unit : it.amount);
				break;
			}
		}
		sum += v;
		/* MAX_TRES_GRES sums the GRES with the global TRES, off the maximum */
		if (node_level(&it) && !(mode == FS_BILLING_MAX_TRES_GRES && gres(&it)))
			node_max = v > node_max ? v : node_max;
		else
			global += v;
	}
	*out = mode == FS_BILLING_SUM ? sum : node_max + global;
	if (!isfinite(*out))
	{
		fs_fail(err, FS_ERR_RANGE, "value out of range: the billing overflows");
		return FS_ERR_RANGE;
	}
	return FS_OK;
}
