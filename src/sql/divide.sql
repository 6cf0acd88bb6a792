-- divide: fair-share ratio division down a pool tree (YTsaurus's fair share ratio page; docs/fair-share-division.md)

CREATE FUNCTION fairsched.divide(total float8, weights float8[], min_shares float8[],
                                 max_shares float8[], mode text DEFAULT 'clamp')
    RETURNS float8[]
    AS 'MODULE_PATHNAME', 'divide_shares' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.divide(float8, float8[], float8[], float8[], text) IS 'divide total among children: find x with sum g_i(x) = total, g_i = min(max(x w_i, l_i), u_i) (clamp) or min(u_i, l_i + x w_i) (additive); solved exactly';

CREATE FUNCTION fairsched.fair_share(t fairsched.sharetree, cluster fairsched.resvec,
                                     mode text DEFAULT 'clamp', root text DEFAULT 'one')
    RETURNS TABLE(path fairsched.sharepath, depth int4, is_leaf boolean, weight float8,
                  min_share_ratio float8, guaranteed_share float8, usage_ratio float8,
                  demand_ratio float8, dominant_resource text, max_possible_ratio float8,
                  fair_share_ratio float8, satisfaction float8, lower_bound float8,
                  weight_part float8, bound text)
    AS 'MODULE_PATHNAME', 'pool_fair_share' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.fair_share(fairsched.sharetree, fairsched.resvec, text, text) IS 'fair share ratio of every pool of a pool tree, divided top-down from 1 at the root, with the guarantee, cap and weight-proportional part that decided it; root => ''children'' reports the root''s fair share and guarantee as the sums of its children''s (at most 1), as YTsaurus vector HDRF does';
