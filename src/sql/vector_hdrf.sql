-- vector_hdrf: YTsaurus's vector HDRF fair share over pools and operations (docs/fair-share-division.md)

CREATE TYPE fairsched.hdrf_pool AS (path fairsched.sharepath, weight float8,
                                    strong_guarantee fairsched.resvec,
                                    resource_limits fairsched.resvec, mode text,
                                    strong_guarantee_tier int);
COMMENT ON TYPE fairsched.hdrf_pool IS 'a pool of vector_fair_share: its path, weight (NULL: 1), strong guarantee resources (resources it does not name are inferred from the main one) resource limits (NULL: none) and mode (fair_share, the default, or fifo: its operations one after another, in the order of the operations array) and strong guarantee tier (NULL: 0; when siblings'' guarantees overcommit their parent, lower tiers keep theirs first, the tier that overflows is scaled, later tiers get none)';

CREATE TYPE fairsched.hdrf_operation AS (path fairsched.sharepath, demand fairsched.resvec,
                                         usage fairsched.resvec, weight float8, gang boolean,
                                         resource_limits fairsched.resvec);
COMMENT ON TYPE fairsched.hdrf_operation IS 'an operation of vector_fair_share: its path (its pool''s, then its own name), demand (including what it uses), usage, weight (NULL: 1), gang flag and resource limits (NULL: none)';

CREATE FUNCTION fairsched.vector_fair_share(pools fairsched.hdrf_pool[],
                                            operations fairsched.hdrf_operation[],
                                            total fairsched.resvec,
                                            main_resource text DEFAULT 'cpu',
                                            gang_step boolean DEFAULT true,
                                            improved_fit_factor boolean DEFAULT false,
                                            fifo_reordering fairsched.sharepath[] DEFAULT '{}')
    RETURNS TABLE(path fairsched.sharepath, depth int4, is_operation boolean, weight float8,
                  demand_share fairsched.resvec, usage_share fairsched.resvec,
                  limits_share fairsched.resvec, strong_guarantee_share fairsched.resvec,
                  fair_share fairsched.resvec, strong_part fairsched.resvec,
                  integral_part fairsched.resvec, weight_part fairsched.resvec,
                  suggestion float8, fit_factor float8, dominant_resource text,
                  dominant_fair_share float8, bound text, bound_resource text,
                  fifo_index int4, effective_fifo_index int4)
    AS 'MODULE_PATHNAME', 'vector_fair_share' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.vector_fair_share(fairsched.hdrf_pool[], fairsched.hdrf_operation[], fairsched.resvec, text, boolean, boolean, fairsched.sharepath[]) IS 'YTsaurus vector HDRF: the fair share vector of every pool and operation (shares of total), split into strong guarantee, integral and weight-proportional parts, with the suggestion, fit factor, dominant resource and what bound it; strong guarantees inferred, clipped and scaled as YTsaurus does; improved_fit_factor serialises children''s simultaneous jumps (EnableImprovedFairShareByFitFactorComputation), fifo_reordering names the FIFO pools whose gangs are reordered to use their guarantee (fifo_index and effective_fifo_index: the operation''s place in its FIFO pool and in the order used)';

CREATE FUNCTION fairsched.vector_fair_share_explain(pools fairsched.hdrf_pool[],
                                                    operations fairsched.hdrf_operation[],
                                                    total fairsched.resvec,
                                                    element fairsched.sharepath,
                                                    main_resource text DEFAULT 'cpu',
                                                    gang_step boolean DEFAULT true,
                                                    improved_fit_factor boolean DEFAULT false,
                                                    fifo_reordering fairsched.sharepath[] DEFAULT '{}')
    RETURNS TABLE(path fairsched.sharepath, depth int4, suggestion float8, fit_factor float8,
                  fair_share fairsched.resvec, bound text, bound_resource text, reason text)
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY
    WITH v AS MATERIALIZED (
        SELECT * FROM fairsched.vector_fair_share(pools, operations, total, main_resource, gang_step,
                                                  improved_fit_factor, fifo_reordering))
    SELECT v.path, v.depth, v.suggestion, v.fit_factor, v.fair_share, v.bound, v.bound_resource,
           CASE v.bound
               WHEN 'demand' THEN 'it has all it demands'
               WHEN 'limit' THEN format('its own limit of %s holds it', v.bound_resource)
               WHEN 'guarantee' THEN 'its parent gives it only its strong guarantee'
               WHEN 'weight' THEN format('it shares its parent''s fair share with its siblings by weight, at suggestion %s',
                                         round(v.suggestion::numeric, 6))
               WHEN 'gang' THEN 'a gang that does not fit whole: the jump resolves to 0'
               WHEN 'fifo' THEN format('it waits in its FIFO pool behind the operations ahead of it (place %s of its pool''s order)',
                                       coalesce(v.effective_fifo_index, v.fifo_index))
               WHEN 'cluster' THEN format('%s ran out in the cluster or in an ancestor',
                                          coalesce(v.bound_resource, 'every resource'))
               ELSE 'it demands nothing'
           END
    FROM v
    WHERE v.path OPERATOR(fairsched.@>) element
      AND EXISTS (SELECT FROM v AS w WHERE w.path OPERATOR(fairsched.=) element)
    ORDER BY v.depth;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'element "%" is not in the pool tree', element
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Name a pool or an operation of pools or operations, or one of their ancestors (the root is the empty path).';
    END IF;
END
$$;
COMMENT ON FUNCTION fairsched.vector_fair_share_explain(fairsched.hdrf_pool[], fairsched.hdrf_operation[], fairsched.resvec, fairsched.sharepath, text, boolean, boolean, fairsched.sharepath[]) IS 'why an element of vector_fair_share has its fair share: a row for it and each of its ancestors, root first, with the suggestion, fit factor, fair share and the limit, guarantee, sibling bound or shortage that held it, in words';
