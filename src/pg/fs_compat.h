/*
 * fs_compat.h: every difference between the PostgreSQL major versions fairsched builds against
 * (15, 17, 18), in one place: the glue writes the newest form, and this header supplies it on the
 * older versions. No other file tests PG_VERSION_NUM.
 */
#ifndef FS_COMPAT_H
#define FS_COMPAT_H

#include "postgres.h"

#include "fmgr.h"
#include "nodes/nodes.h"

/* The varlena macros (VARDATA_ANY, VARSIZE_ANY_EXHDR, ...) have a header of their own on 16+. */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * Soft input errors (16+): an input function called with an ErrorSaveContext (pg_input_is_valid,
 * COPY ... ON_ERROR ignore) saves its error there with errsave and returns NULL. On 15 there is no
 * such context: errsave raises, as ereport(ERROR) does.
 */
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#else
#define errsave(context, ...)          ereport(ERROR, __VA_ARGS__)
#define SOFT_ERROR_OCCURRED(escontext) false
#endif

/* Call a core type's input function on s, with the caller's soft-error context (16+). */
static inline bool
fs_pg_direct_input(PGFunction fn, const char *s, Node *escontext, Datum *out)
{
#if PG_VERSION_NUM >= 160000
	return DirectInputFunctionCallSafe(fn, unconstify(char *, s), InvalidOid, -1, escontext, out);
#else
	*out = DirectFunctionCall1(fn, CStringGetDatum(s));
	return true;
#endif
}

/* The magic block: 18 records the module's name and version (pg_get_loaded_modules). */
#if PG_VERSION_NUM >= 180000
#define FS_PG_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "fairsched", .version = FS_EXTVERSION)
#else
#define FS_PG_MODULE_MAGIC PG_MODULE_MAGIC
#endif

/* A function that does not return: pg_noreturn (18) before the declaration, the attribute after. */
#if PG_VERSION_NUM >= 180000
#define FS_NORETURN_BEFORE pg_noreturn
#define FS_NORETURN_AFTER
#else
#define FS_NORETURN_BEFORE
#define FS_NORETURN_AFTER pg_attribute_noreturn()
#endif

#endif
