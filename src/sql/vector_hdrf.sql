-- vector_hdrf: YTsaurus's vector HDRF fair share over pools and operations (docs/fair-share-division.md)

CREATE TYPE fairsched.hdrf_pool AS (path fairsched.sharepath, weight float8,
                                    strong_guarantee fairsched.resvec,
                                    resource_limits fairsched.resvec);
COMMENT ON TYPE fairsched.hdrf_pool IS 'a pool of vector_fair_share: its path, weight (NULL: 1), strong guarantee resources (resources it does not name are inferred from the main one) and resource limits (NULL: none)';

CREATE TYPE fairsched.hdrf_operation AS (path fairsched.sharepath, demand fairsched.resvec,
                                         usage fairsched.resvec, weight float8, gang boolean,
                                         resource_limits fairsched.resvec);
COMMENT ON TYPE fairsched.hdrf_operation IS 'an operation of vector_fair_share: its path (its pool''s, then its own name), demand (including what it uses), usage, weight (NULL: 1), gang flag and resource limits (NULL: none)';

CREATE FUNCTION fairsched.vector_fair_share(pools fairsched.hdrf_pool[],
                                            operations fairsched.hdrf_operation[],
                                            total fairsched.resvec,
                                            main_resource text DEFAULT 'cpu',
                                            gang_step boolean DEFAULT true)
    RETURNS TABLE(path fairsched.sharepath, depth int4, is_operation boolean, weight float8,
                  demand_share fairsched.resvec, usage_share fairsched.resvec,
                  limits_share fairsched.resvec, strong_guarantee_share fairsched.resvec,
                  fair_share fairsched.resvec, strong_part fairsched.resvec,
                  integral_part fairsched.resvec, weight_part fairsched.resvec,
                  suggestion float8, fit_factor float8, dominant_resource text,
                  dominant_fair_share float8, bound text, bound_resource text)
    AS 'MODULE_PATHNAME', 'vector_fair_share' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.vector_fair_share(fairsched.hdrf_pool[], fairsched.hdrf_operation[], fairsched.resvec, text, boolean) IS 'YTsaurus vector HDRF: the fair share vector of every pool and operation (shares of total), split into strong guarantee, integral and weight-proportional parts, with the suggestion, fit factor, dominant resource and what bound it; strong guarantees inferred, clipped and scaled as YTsaurus does';
