-- resgroup: the PBS scheduler's resource_group file as share-tree rows (docs/loading.md)

CREATE FUNCTION fairsched.resource_group(doc text, unknown_shares float8 DEFAULT 0)
    RETURNS TABLE(line int4, name text, id int4, parent text, shares float8,
                  path fairsched.sharepath, extra text)
    AS 'MODULE_PATHNAME', 'resource_group' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.resource_group(text, float8) IS 'the groups of a PBS resource_group file (name id parent shares per line), read as the PBS scheduler reads it, with each group''s sharepath from the root''s child down; a first row (line 0) is the group "unknown" that PBS predefines with unknown_shares; extra holds the fields after the fourth, which PBS ignores; any bad line raises an error naming it';

CREATE FUNCTION fairsched.resource_group_try(doc text, unknown_shares float8 DEFAULT 0)
    RETURNS TABLE(line int4, name text, id int4, parent text, shares float8,
                  path fairsched.sharepath, extra text, error text)
    AS 'MODULE_PATHNAME', 'resource_group_try' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.resource_group_try(text, float8) IS 'resource_group without raising: a bad line gives a row with only its line number and the reason in error, and defines no group, as the PBS scheduler skips it';
