# test/interop/compare.sh: the comparisons of the interop suite. Source it. Each comparison is a
# function that writes one SQL query of (item, slurm, fairsched) rows, one row per compared cell,
# to interop_compare; a cell passes when the two texts are equal. Add a comparison: a function
# cmp_NAME SNAP that calls interop_compare with its query, and a line in slurm_test.sh.

INTEROP_PASSED=0
INTEROP_FAILED=0
INTEROP_SQL=(psql -X -q -v ON_ERROR_STOP=1 -At)

# interop_load SNAP DIR: every file of DIR as interop.out rows of snapshot SNAP
interop_load() {
    local snap=$1 dir=$2 f
    for f in "$dir"/*; do
        echo "INSERT INTO interop.out VALUES (:'snap', :'name', pg_read_file(:'path'))" \
            | "${INTEROP_SQL[@]}" -v snap="$snap" -v name="$(basename "$f")" -v path="$f" >/dev/null
    done
}

# interop_compare LABEL < QUERY: run the query, count each row, print each mismatch
interop_compare() {
    local label=$1 q out item slurm ours n=0 bad=0
    q=$(cat)
    if ! out=$("${INTEROP_SQL[@]}" -F $'\x1f' -c "SELECT item, coalesce(slurm, '<none>'), coalesce(fairsched, '<none>') FROM ($q) c" 2>&1); then
        echo "FAILED $label: the query failed:"
        echo "$out" | sed 's/^/    /'
        INTEROP_FAILED=$((INTEROP_FAILED + 1))
        return 0
    fi
    while IFS=$'\x1f' read -r item slurm ours; do
        [ -n "$item" ] || continue
        n=$((n + 1))
        if [ "$slurm" = "$ours" ]; then
            INTEROP_PASSED=$((INTEROP_PASSED + 1))
        else
            bad=$((bad + 1))
            INTEROP_FAILED=$((INTEROP_FAILED + 1))
            printf 'MISMATCH %s\n    SLURM:     %s\n    fairsched: %s\n' "$item" "$slurm" "$ours"
        fi
    done <<<"$out"
    if [ "$n" = 0 ]; then
        echo "FAILED $label: nothing compared"
        INTEROP_FAILED=$((INTEROP_FAILED + 1))
    else
        echo "$([ "$bad" = 0 ] && echo ok || echo FAILED) $label: $((n - bad)) of $n cells equal"
    fi
}

# sshare -a -l -P against fairshare() over the same shares and raw usage. SNAP ALGORITHM.
cmp_sshare() {
    interop_compare "sshare -a -l -P ($1) against fairshare(t, '$2')" <<SQL
    SELECT format('sshare (%s) %s %s', '$1', sh.path, c.col) AS item, c.slurm,
           interop.like_slurm(c.ours, c.slurm) AS fairsched
    FROM interop.sshare('$1') sh
    JOIN fairsched.fairshare(interop.tree('$1'), '$2') f ON f.path::text = sh.path::text,
    LATERAL (VALUES ('NormShares', sh.norm_shares, f.norm_shares),
                    ('NormUsage', sh.norm_usage, f.norm_usage),
                    ('EffectvUsage', sh.effectv_usage, f.effective_usage),
                    ('FairShare', sh.fairshare, f.fairshare),
                    ('LevelFS', sh.level_fs, f.level_fs)) AS c(col, slurm, ours)
    WHERE sh.path::text <> '' AND c.slurm <> ''
SQL
}

# The usage held still (scenario_hold_usage): each association's RawUsage in snapshot B as in
# snapshot A, so both snapshots are of the same usage. SNAP_A SNAP_B
cmp_usage_held() {
    interop_compare "sshare RawUsage ($2) against ($1): the usage held still" <<SQL
    SELECT format('sshare RawUsage of %s (%s against %s)',
                  coalesce(nullif(coalesce(b.path, a.path)::text, ''), 'the root account'), '$2', '$1') AS item,
           a.raw_usage AS slurm, b.raw_usage AS fairsched
    FROM interop.sshare('$1') a FULL JOIN interop.sshare('$2') b ON b.path::text = a.path::text
SQL
}

# sprio OPTIONS against sprio(): SNAP ALGORITHM FILE OPTIONS
cmp_sprio() {
    interop_compare "sprio $4 ($1) against sprio(..., '$4')" <<SQL
    SELECT * FROM interop.cells('$1', '$3', ARRAY(
        SELECT line FROM fairsched.sprio(interop.config('$1'), interop.jobs('$1', '$2'),
                                         interop.cluster('$1'), interop.as_of('$1'), '$4')))
SQL
}

# sacct --parsable2 lines against sacct_row: SNAP FILE HEADER DELIMITER. HEADER empty: the
# file's first line (else the --format list, for --noheader). Each column sacct printed that
# sacct_record holds is one cell: the field, printed back as sacct prints it.
# With a fifth argument json, the record of each line is the one sacct_json read from the
# sacct --json of the same moment for the line's JobID: the JSON's own values against what
# sacct --parsable2 printed.
cmp_sacct() {
    local snap=$1 file=$2 header=$3 delim=$4 from=${5:-}
    local label="sacct $file against sacct_row(line, header, 'UTC', '$delim')"
    [ "$from" = json ] && label="sacct $file against the sacct --json records (sacct_json)"
    interop_compare "$label" <<SQL
    WITH l AS (SELECT * FROM interop.lines('$snap', '$file')),
    h AS (SELECT CASE WHEN '$header' = '' THEN (SELECT line FROM l WHERE ln = 1)
                      ELSE replace('$header', ',', '$delim') END AS header),
    r0 AS (SELECT l.ln, l.line, fairsched.sacct_row(l.line, h.header, 'UTC', '$delim') AS rec,
                  string_to_array(h.header, '$delim') AS cols, string_to_array(l.line, '$delim') AS cells
           FROM l, h WHERE '$header' <> '' OR l.ln > 1),
    r AS (SELECT r0.ln, r0.line, r0.cols, r0.cells,
                 CASE WHEN '$from' = 'json'
                      THEN (SELECT j FROM interop.json_records('$snap') j WHERE j.job_id = (r0.rec).job_id)
                      ELSE r0.rec END AS rec
          FROM r0)
    SELECT format('%s line %s %s', '$file', r.ln, r.cols[i]) AS item, pr.printed AS slurm,
           CASE r.cols[i]
               WHEN 'JobID' THEN coalesce((r.rec).job_id, '')
               WHEN 'JobIDRaw' THEN coalesce((r.rec).job_id_raw, '')
               WHEN 'Partition' THEN coalesce((r.rec).partition, '')
               WHEN 'Account' THEN coalesce((r.rec).account, '')
               WHEN 'User' THEN coalesce((r.rec)."user", '')
               WHEN 'Group' THEN coalesce((r.rec)."group", '')
               WHEN 'QOS' THEN coalesce((r.rec).qos, '')
               WHEN 'Cluster' THEN coalesce((r.rec).cluster, '')
               WHEN 'State' THEN (r.rec).state
                   || CASE WHEN (r.rec).cancelled_by IS NOT NULL THEN ' by ' || (r.rec).cancelled_by ELSE '' END
               WHEN 'ExitCode' THEN CASE WHEN '$from' = 'json' THEN interop.json_exit(r.rec, (r.rec).exit_code || ':' || (r.rec).signal)
                                         ELSE (r.rec).exit_code || ':' || (r.rec).signal END
               WHEN 'Submit' THEN interop.slurm_time((r.rec).submit)
               WHEN 'Eligible' THEN interop.slurm_time((r.rec).eligible)
               WHEN 'Start' THEN interop.slurm_time((r.rec).start)
               WHEN 'End' THEN interop.slurm_time((r.rec)."end")
               WHEN 'ElapsedRaw' THEN (r.rec).elapsed_s::bigint::text
               WHEN 'Elapsed' THEN interop.slurm_elapsed((r.rec).elapsed_s)
               WHEN 'Timelimit' THEN coalesce(interop.slurm_elapsed((r.rec).timelimit_s), r.cells[i])
               WHEN 'TimelimitRaw' THEN coalesce(((r.rec).timelimit_s / 60)::bigint::text, r.cells[i])
               WHEN 'NCPUS' THEN (r.rec).ncpus::text
               WHEN 'NNodes' THEN (r.rec).nnodes::text
               WHEN 'AllocTRES' THEN interop.same_tres(r.cells[i], (r.rec).alloc_tres)
               WHEN 'ReqTRES' THEN interop.same_tres(r.cells[i], (r.rec).req_tres)
               WHEN 'ReqMem' THEN CASE WHEN r.cells[i] = '' THEN coalesce((r.rec).req_mem_bytes::text, '')
                                       ELSE interop.slurm_size((r.rec).req_mem_bytes, r.cells[i]) END
           END AS fairsched
    FROM r, generate_subscripts(r.cols, 1) AS i,
         LATERAL (SELECT CASE WHEN '$from' = 'json' AND r.cols[i] = 'ExitCode'
                              THEN interop.exit_rule(r.cells[array_position(r.cols, 'State')], r.cells[i], r.cells[i])
                              ELSE r.cells[i] END AS printed) AS pr
    WHERE r.cols[i] IN ('JobID', 'JobIDRaw', 'Partition', 'Account', 'User', 'Group', 'QOS',
                        'Cluster', 'State', 'ExitCode', 'Submit', 'Eligible', 'Start', 'End',
                        'ElapsedRaw', 'Elapsed', 'Timelimit', 'TimelimitRaw', 'NCPUS', 'NNodes',
                        'AllocTRES', 'ReqTRES', 'ReqMem')
    UNION ALL
    SELECT format('%s line %s error', '$file', r.ln), '', coalesce((r.rec).error, CASE WHEN r.rec IS NULL THEN 'no record' ELSE '' END) FROM r
SQL
}

# sacct --json against sacct --parsable2 of the same moment (scenario_sacct): every job and step
# of sacct_json() beside the same one read by sacct_row from sacct_P_all.txt, one cell per
# sacct_record field but extra (each form has its own other columns) and anomalies. SNAP.
cmp_sacct_json() {
    interop_compare "sacct --json (sacct_json) against sacct_P_all.txt (sacct_row), record by record" <<SQL
    WITH p AS (SELECT * FROM interop.row_records('$1', 'sacct_P_all.txt')),
    j AS (SELECT * FROM interop.json_records('$1'))
    SELECT format('sacct --json %s %s', coalesce(p.job_id, j.job_id), k.key) AS item,
           CASE WHEN k.key IN ('exit_code', 'signal') AND p.job_id IS NOT NULL
                THEN interop.exit_rule(p.state, p.exit_code::text, k.from_row)
                ELSE k.from_row END AS slurm,
           CASE WHEN k.key IN ('exit_code', 'signal') THEN interop.json_exit(j, k.from_json)
                ELSE k.from_json END AS fairsched
    FROM p FULL JOIN j ON p.job_id = j.job_id
    CROSS JOIN LATERAL (
        SELECT key, a.value::text AS from_row, b.value::text AS from_json
        FROM jsonb_each(to_jsonb(p) - 'extra' - 'anomalies') a
        FULL JOIN jsonb_each(to_jsonb(j) - 'extra' - 'anomalies') b USING (key)) k
SQL
}

# sreport -P [-t T] REPORT (scenario_sreport, snapshot SNAP) against fairsched's report queries
# over the sacct records of the same window (interop.our_sreport; the tree of snapshot TREE):
# each cell of the column header and of every line, in order. SNAP TREE REPORT T (T empty:
# sreport's default, Minutes).
cmp_sreport() {
    local snap=$1 tree=$2 report=$3 t=$4 file
    file="sreport_P_${t:+t${t}_}$report.txt"
    interop_compare "sreport -P ${t:+-t $t }${report/_/ } against the report queries" <<SQL
    WITH s AS (SELECT row_number() OVER (ORDER BY ln) AS k, line FROM interop.lines('$snap', '$file')
               WHERE line LIKE 'Cluster|%' OR line LIKE 'fsinterop|%'),
    o AS (SELECT * FROM interop.our_sreport('$snap', '$tree', '$report', '${t:-Minutes}')),
    pair AS (SELECT coalesce(s.k, o.k) AS k, string_to_array(s.line, '|') AS a, string_to_array(o.line, '|') AS b
             FROM s FULL JOIN o ON o.k = s.k)
    SELECT format('%s line %s cell %s', '$file', pair.k, i) AS item, pair.a[i] AS slurm, pair.b[i] AS fairsched
    FROM pair, generate_series(1, greatest(cardinality(pair.a), cardinality(pair.b))) AS i
SQL
}
