/*
 * slots.c (glue): slot_weight, slot_weights and billing. The arithmetic is in src/core/share/slots.c.
 */
#include "fs_pg.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "types/resvec.h"
#include "share/slots.h"

/* the name argument at position n, read into its enum */
#define MODE_ARG(n)                                                                                \
	((fs_slot_mode) fs_pg_name_arg(PG_GETARG_TEXT_PP(n), fs_slot_mode_from_name,                   \
	                               "slot weight mode", "modes", FS_SLOT_MODES))

#define RV(v) ((const uint8_t *) VARDATA_ANY(v))

static double
weigh(const uint8_t *slot, const uint8_t *machine, text *cores, fs_slot_mode mode)
{
	double w;
	fs_error err;

	fs_pg_check(
	    fs_slot_weight(slot, machine, VARDATA_ANY(cores), VARSIZE_ANY_EXHDR(cores), mode, &w, &err),
	    &err);
	return w;
}

/* called once per job row: the mode is read once per call site */
PG_FUNCTION_INFO_V1(slot_weight);
Datum
slot_weight(PG_FUNCTION_ARGS)
{
	fs_slot_mode mode = (fs_slot_mode) fs_pg_name_arg_cached(
	    fcinfo, 3, fs_slot_mode_from_name, "slot weight mode", "modes", FS_SLOT_MODES);

	PG_RETURN_FLOAT8(weigh(RV(PG_GETARG_VARLENA_PP(0)), RV(PG_GETARG_VARLENA_PP(1)),
	                       PG_GETARG_TEXT_PP(2), mode));
}

/* slot_weights(machine, slots[], cores, mode): one row per slot, then the remainder */
PG_FUNCTION_INFO_V1(slot_weights);
Datum
slot_weights(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const uint8_t *machine = RV(PG_GETARG_VARLENA_PP(0));
	ArrayType *arr = PG_GETARG_ARRAYTYPE_P(1);
	text *cores = PG_GETARG_TEXT_PP(2);
	fs_slot_mode mode = MODE_ARG(3);
	int16 typlen;
	bool typbyval;
	char typalign;
	Datum *elems;
	bool *nulls;
	int n, i;
	const uint8_t **slots;
	uint8_t *rem;
	fs_error err;

	fs_pg_check_1d(arr, "slots");
	get_typlenbyvalalign(ARR_ELEMTYPE(arr), &typlen, &typbyval, &typalign);
	deconstruct_array(arr, ARR_ELEMTYPE(arr), typlen, typbyval, typalign, &elems, &nulls, &n);
	slots = palloc(sizeof(uint8_t *) * (n > 0 ? n : 1));
	for (i = 0; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (nulls[i])
			ereport(ERROR,
			        (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("slots[%d] is NULL", i + 1),
			         errhint("Leave out slots that do not exist.")));
		slots[i] = RV(PG_DETOAST_DATUM_PACKED(elems[i]));
	}
	InitMaterializedSRF(fcinfo, 0);
	for (i = 0; i <= n; i++)
	{
		Datum values[3];
		bool rnulls[3] = {false, false, false};

		CHECK_FOR_INTERRUPTS();
		if (i == n)
		{
			fs_pg_check(fs_slot_remainder(machine, slots, (size_t) n, &fs_pg_alloc, &rem, &err),
			            &err);
			values[1] = Float8GetDatum(weigh(rem, machine, cores, mode));
		}
		else
			values[1] = Float8GetDatum(weigh(slots[i], machine, cores, mode));
		values[0] = Int32GetDatum(i + 1);
		values[2] = BoolGetDatum(i == n);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, rnulls);
	}
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(resvec_billing);
Datum
resvec_billing(PG_FUNCTION_ARGS)
{
	text *weights = PG_GETARG_TEXT_PP(1);
	fs_billing_mode mode;
	double out;
	fs_error err;

	fs_pg_check(fs_billing_mode_of(PG_GETARG_BOOL(2), PG_GETARG_BOOL(3), &mode, &err), &err);
	fs_pg_check(fs_billing(RV(PG_GETARG_VARLENA_PP(0)), VARDATA_ANY(weights),
	                       VARSIZE_ANY_EXHDR(weights), mode, &out, &err),
	            &err);
	PG_RETURN_FLOAT8(out);
}
