-- groupquota: HTCondor's hierarchical group quotas as the negotiator allocates them (docs/slot-weights.md ("HTCondor hierarchical group quotas"))

CREATE FUNCTION fairsched.group_quotas(groups text[], quotas float8[], dynamic boolean[],
                                       accept_surplus boolean[], demand float8[], pool float8,
                                       autoregroup boolean[] DEFAULT NULL,
                                       none_demand float8 DEFAULT 0,
                                       use_slot_weights boolean DEFAULT true,
                                       allow_quota_oversubscription boolean DEFAULT true)
    RETURNS TABLE(grp text, quota float8, surplus float8, allocated float8, subtree_quota float8,
                  requested float8)
    AS 'MODULE_PATHNAME', 'group_quotas' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;
COMMENT ON FUNCTION fairsched.group_quotas(text[], float8[], boolean[], boolean[], float8[], float8, boolean[], float8, boolean, boolean) IS 'HTCondor hierarchical group quotas: each group''s quota, surplus received and allocation for a negotiation cycle, from GROUP_NAMES (dotted names), GROUP_QUOTA[_DYNAMIC], GROUP_ACCEPT_SURPLUS, GROUP_AUTOREGROUP, NEGOTIATOR_USE_SLOT_WEIGHTS, NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION (true by default, as in HTCondor), the demand and the pool size; the root <none> first, then the tree in pre-order';
