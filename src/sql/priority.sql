-- priority: PBS's job_sort_formula (the PP-718 design): the pbs_formula type, PBS's validation
-- with a resourcedef, and a job's formula value (docs/job-priority.md)

CREATE TYPE fairsched.pbs_formula;

CREATE FUNCTION fairsched.pbs_formula_in(cstring) RETURNS fairsched.pbs_formula
    AS 'MODULE_PATHNAME', 'pbs_formula_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.pbs_formula_out(fairsched.pbs_formula) RETURNS cstring
    AS 'MODULE_PATHNAME', 'pbs_formula_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.pbs_formula_recv(internal) RETURNS fairsched.pbs_formula
    AS 'MODULE_PATHNAME', 'pbs_formula_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fairsched.pbs_formula_send(fairsched.pbs_formula) RETURNS bytea
    AS 'MODULE_PATHNAME', 'pbs_formula_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE fairsched.pbs_formula (
    INPUT = fairsched.pbs_formula_in,
    OUTPUT = fairsched.pbs_formula_out,
    RECEIVE = fairsched.pbs_formula_recv,
    SEND = fairsched.pbs_formula_send,
    INTERNALLENGTH = VARIABLE,
    STORAGE = extended
);
COMMENT ON TYPE fairsched.pbs_formula IS 'a PBS job_sort_formula (a Python expression over numeric resources and PBS''s keywords), validated, stored and printed as its text';
COMMENT ON FUNCTION fairsched.pbs_formula_in(cstring) IS 'text input of pbs_formula: PBS''s validation with the built-in resources only (15123, 15124, 15125)';
COMMENT ON FUNCTION fairsched.pbs_formula_out(fairsched.pbs_formula) IS 'text output of pbs_formula: the formula as written';
COMMENT ON FUNCTION fairsched.pbs_formula_recv(internal) IS 'binary input of pbs_formula (validated like text input)';
COMMENT ON FUNCTION fairsched.pbs_formula_send(fairsched.pbs_formula) IS 'binary output of pbs_formula (a format version byte, then the text)';

CREATE FUNCTION fairsched.pbs_formula(formula text, resourcedef text DEFAULT NULL)
    RETURNS fairsched.pbs_formula
    AS 'MODULE_PATHNAME', 'pbs_formula' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_formula(text, text) IS 'PBS''s validation of a job_sort_formula, with the site''s custom resources from the text of a resourcedef file: 15123 Invalid Formula Format, 15124 Formula contains invalid keyword, 15125 Formula contains a resource of an invalid type';

CREATE FUNCTION fairsched.pbs_formula_value(f fairsched.pbs_formula, requested fairsched.resvec,
                                            queue_priority int DEFAULT 0,
                                            job_priority int DEFAULT 0,
                                            eligible_time interval DEFAULT '0',
                                            fairshare_perc float8 DEFAULT NULL,
                                            fairshare_tree_usage float8 DEFAULT NULL,
                                            on_error text DEFAULT 'zero',
                                            accrue_type int DEFAULT 0) RETURNS float8
    AS 'MODULE_PATHNAME', 'pbs_formula_value' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_formula_value(fairsched.pbs_formula, fairsched.resvec, int, int, interval, float8, float8, text, int) IS 'the job_sort_formula value PBS stores for a job (a 32-bit float): requested resources in kb and seconds with 4 decimals (0 when not requested), the fairshare keywords with 6 decimals, fairshare_factor = 2^-(usage/perc); an evaluation error gives 0 and a NOTICE with PBS''s log text (on_error => ''raise'' raises it)';

-- PBS's job order: the pbs_job composite, pbs_job_order() (fairshare from a sharetree) and
-- pbs_job_order_fairshare() (fairshare values given per entity)
CREATE TYPE fairsched.pbs_job AS (
    job_id text,
    owner fairsched.sharepath,
    queue text,
    queue_priority int,
    express boolean,
    job_priority int,
    requested fairsched.resvec,
    eligible_time interval,
    qtime timestamptz,
    accrue_type int
);
COMMENT ON TYPE fairsched.pbs_job IS 'a pending PBS job as pbs_job_order reads it: id, owner (the fairshare entity), queue and its Priority, express (NULL: queue_priority >= 150), job Priority, Resource_List, eligible_time (NULL: as_of - qtime), qtime, accrue_type';

CREATE FUNCTION fairsched.pbs_job_order_fairshare(f fairsched.pbs_formula, jobs fairsched.pbs_job[],
                                                  entities fairsched.sharepath[],
                                                  fairshare_perc float8[],
                                                  fairshare_tree_usage float8[],
                                                  fairshare_rank int[],
                                                  as_of timestamptz DEFAULT NULL,
                                                  threshold float8 DEFAULT NULL,
                                                  by_queue boolean DEFAULT true,
                                                  sort_keys text[] DEFAULT NULL)
    RETURNS TABLE(pos int, job_id text, queue text, value float8, eligible boolean,
                  decided_by text, comment text)
    AS 'MODULE_PATHNAME', 'pbs_job_order_fairshare' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_job_order_fairshare(fairsched.pbs_formula, fairsched.pbs_job[], fairsched.sharepath[], float8[], float8[], int[], timestamptz, float8, boolean, text[]) IS 'PBS''s order of pending jobs, as pbs_job_order, with each entity''s fairshare_perc, fairshare_tree_usage and fairshare rank given in arrays (as pbsfs prints them); entities NULL: fairshare off';

CREATE FUNCTION fairsched.pbs_job_order(f fairsched.pbs_formula, jobs fairsched.pbs_job[],
                                        tree fairsched.sharetree DEFAULT NULL,
                                        as_of timestamptz DEFAULT NULL,
                                        threshold float8 DEFAULT NULL,
                                        by_queue boolean DEFAULT true,
                                        sort_keys text[] DEFAULT NULL)
    RETURNS TABLE(pos int, job_id text, queue text, value float8, eligible boolean,
                  decided_by text, comment text)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT o.pos, o.job_id, o.queue, o.value, o.eligible, o.decided_by, o.comment
    FROM (SELECT array_agg(s.path) AS paths, array_agg(s.norm_shares) AS perc,
                 array_agg(s.effective_usage) AS usage, array_agg(s.rank) AS rank
          FROM fairsched.fairshare($3, 'pbs') AS s) AS t,
         fairsched.pbs_job_order_fairshare($1, $2, t.paths, t.perc, t.usage, t.rank, $4, $5,
                                           $6, $7) AS o
$$;
COMMENT ON FUNCTION fairsched.pbs_job_order(fairsched.pbs_formula, fairsched.pbs_job[], fairsched.sharetree, timestamptz, float8, boolean, text[]) IS 'PBS''s order of pending jobs: with by_queue each queue by priority, then express jobs, the job_sort_formula value higher first (float32 ties), the fairshare rank of the owner in fairshare(tree, ''pbs''), the job_sort_key entries, qtime, the job id; jobs at or below threshold not eligible, with PBS''s comment; decided_by the key that placed each job after the one before';

-- pbs_eligible_time: a job's eligible_time from its accrue-type changes (the server's accrual)
CREATE FUNCTION fairsched.pbs_eligible_time_accum(internal, int, timestamptz) RETURNS internal
    AS 'MODULE_PATHNAME', 'pbs_eligible_time_accum' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_eligible_time_accum(internal, int, timestamptz) IS 'state function of pbs_eligible_time: keeps one accrue-type change';
CREATE FUNCTION fairsched.pbs_eligible_time_combine(internal, internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'pbs_eligible_time_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_eligible_time_combine(internal, internal) IS 'combine function of pbs_eligible_time: the changes of two partial states together';
CREATE FUNCTION fairsched.pbs_eligible_time_serialize(internal) RETURNS bytea
    AS 'MODULE_PATHNAME', 'pbs_eligible_time_serialize' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_eligible_time_serialize(internal) IS 'serial function of pbs_eligible_time (parallel aggregation)';
CREATE FUNCTION fairsched.pbs_eligible_time_deserialize(bytea, internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'pbs_eligible_time_deserialize' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_eligible_time_deserialize(bytea, internal) IS 'deserial function of pbs_eligible_time (parallel aggregation)';
CREATE FUNCTION fairsched.pbs_eligible_time_final(internal) RETURNS interval
    AS 'MODULE_PATHNAME', 'pbs_eligible_time_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.pbs_eligible_time_final(internal) IS 'final function of pbs_eligible_time: the changes in time order, the eligible periods summed in whole seconds';
CREATE AGGREGATE fairsched.pbs_eligible_time(accrue_type int, at timestamptz) (
    SFUNC = fairsched.pbs_eligible_time_accum,
    STYPE = internal,
    COMBINEFUNC = fairsched.pbs_eligible_time_combine,
    SERIALFUNC = fairsched.pbs_eligible_time_serialize,
    DESERIALFUNC = fairsched.pbs_eligible_time_deserialize,
    FINALFUNC = fairsched.pbs_eligible_time_final,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE fairsched.pbs_eligible_time(int, timestamptz) IS 'a job''s eligible_time as the PBS server accrues it from its accrue-type changes (0 initial, 1 ineligible, 2 eligible, 3 run, 4 exit): the changes sorted by time, each period of type 2 counted in whole seconds; rows need no ORDER BY (changes at one instant count in the order given)';

-- the what-if: a pending job from an accounting record, and two formulas' orders side by side
CREATE FUNCTION fairsched.pbs_job_from(r fairsched.pbs_record, queue_priority int DEFAULT 0,
                                       express boolean DEFAULT NULL,
                                       owner fairsched.sharepath DEFAULT NULL)
    RETURNS fairsched.pbs_job
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT ROW($1.job_id,
               coalesce($4, fairsched.sharepath_concat(''::fairsched.sharepath, $1."user")),
               $1.queue, coalesce($2, 0), $3, 0, $1.requested, NULL::interval, $1.qtime,
               NULL::int)::fairsched.pbs_job
$$;
COMMENT ON FUNCTION fairsched.pbs_job_from(fairsched.pbs_record, int, boolean, fairsched.sharepath) IS 'the pending job an accounting record describes: its id, owner (the user, or the path given), queue, Resource_List and qtime, with the queue''s Priority given; eligible_time NULL (pbs_job_order then counts as_of - qtime)';

CREATE FUNCTION fairsched.pbs_job_order_compare(old_formula fairsched.pbs_formula,
                                                new_formula fairsched.pbs_formula,
                                                jobs fairsched.pbs_job[],
                                                tree fairsched.sharetree DEFAULT NULL,
                                                as_of timestamptz DEFAULT NULL,
                                                threshold float8 DEFAULT NULL,
                                                by_queue boolean DEFAULT true,
                                                sort_keys text[] DEFAULT NULL,
                                                new_threshold float8 DEFAULT NULL)
    RETURNS TABLE(job_id text, queue text, old_pos int, new_pos int, moved int,
                  old_value float8, new_value float8, old_eligible boolean,
                  new_eligible boolean, new_decided_by text)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT o.job_id, o.queue, o.pos, n.pos, o.pos - n.pos, o.value, n.value, o.eligible,
           n.eligible, n.decided_by
    FROM fairsched.pbs_job_order($1, $3, $4, $5, $6, $7, $8) AS o
    JOIN fairsched.pbs_job_order($2, $3, $4, $5, coalesce($9, $6), $7, $8) AS n
      ON n.job_id = o.job_id
    ORDER BY n.pos
$$;
COMMENT ON FUNCTION fairsched.pbs_job_order_compare(fairsched.pbs_formula, fairsched.pbs_formula, fairsched.pbs_job[], fairsched.sharetree, timestamptz, float8, boolean, text[], float8) IS 'the what-if of a job_sort_formula change: PBS''s order of the same jobs under the old and the new formula side by side, in the new order, moved = places gained; new_threshold NULL: the same threshold';
