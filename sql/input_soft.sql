-- Soft input errors (PostgreSQL 16 and later; this suite runs on 17 and later, the versions
-- fairsched supports besides 15): every type's input function reports bad input through the
-- caller's error context, so that pg_input_is_valid and pg_input_error_info answer instead of
-- raising, and COPY ... WITH (ON_ERROR ignore) skips a bad line instead of aborting the load.
SET search_path = fairsched, public;

-- a good and a bad value of each type: valid or not, and nothing raised
SELECT t, v, pg_input_is_valid(v, t) AS valid
FROM (VALUES
    ('fairsched.resvec', 'ncpus=4,mem=8gb'),
    ('fairsched.resvec', 'ncpus=x'),
    ('fairsched.sharepath', 'physics.alice'),
    ('fairsched.sharepath', 'physics..alice'),
    ('fairsched.sharetree', 'share{=*/0,a=1/10,b=3/0}'),
    ('fairsched.sharetree', 'share{=*/0,a=1/10,a=3/0}'),
    ('fairsched.decayed_usage', '12.5@2026-01-01T00:00:00Z/604800'),
    ('fairsched.decayed_usage', '1@2026-01-01T00:00:00Z/0'),
    ('fairsched.userprio_state', 'max(0.5,0.5p+0.5)|2@2026-01-01T00:00:00Z..2026-01-02T00:00:00Z/86400000000|used=86400,in_use=1,began=2026-01-02T00:00:00Z,last_used=2026-01-02T00:00:00Z'),
    ('fairsched.userprio_state', 'max(0.5,0.5p+0.5)|2@'),
    ('fairsched.msic_queue_acc', 'hi 2026-03-02T12:00:00Z 9557;9555 480 2026-02-28T10:00:00Z 19200'),
    ('fairsched.msic_queue_acc', 'hi 2026-03-02T12:00:00Z 9557;9556 -1 2026-03-02T11:00:00Z 60'),
    ('fairsched.pbs_formula', 'ncpus * walltime'),
    ('fairsched.pbs_formula', 'ncpus * '),
    ('fairsched.pbs_formula', E'ncpus * foo\n#resourcedef\nfoo type=float'),
    ('fairsched.pbs_formula', E'ncpus * foo\n#resourcedef\nfoo type=nonsense'),
    ('fairsched.vnodepool', '[{"vnode": "vn1", "available": "ncpus=4", "assigned": "", "labels": {}}]'),
    ('fairsched.vnodepool', '[{"vnode": "vn1", "available": "ncpus=x"}]')
) AS c(t, v);

-- the error each bad value reports, as a hard error would (message, detail, hint, SQLSTATE)
SELECT t, e.*
FROM (VALUES
    ('fairsched.resvec', 'ncpus=x'),
    ('fairsched.sharepath', 'physics..alice'),
    ('fairsched.sharetree', 'share{=*/0,a=1/10,a=3/0}'),
    ('fairsched.decayed_usage', '1@2026-01-01T00:00:00Z/0'),
    ('fairsched.userprio_state', 'max(0.5,0.5p+0.5)|2@'),
    ('fairsched.msic_queue_acc', 'hi 2026-03-02T12:00:00Z 9557;9556 -1 2026-03-02T11:00:00Z 60'),
    ('fairsched.pbs_formula', 'ncpus * '),
    ('fairsched.pbs_formula', E'ncpus * foo\n#resourcedef\nfoo type=nonsense'),
    ('fairsched.vnodepool', '[{"vnode": "vn1", "available": "ncpus=x"}]')
) AS c(t, v), pg_input_error_info(v, t) AS e;

-- every way a vnodepool's text can be wrong, each a soft error: JSON, shape, labels, resources
SELECT v, e.message, e.sql_error_code
FROM (VALUES
    ('[{"vnode": '),
    ('{"vnode": "vn1"}'),
    ('[1]'),
    ('[{"available": "ncpus=4"}]'),
    ('[{"vnode": "vn1", "labels": 3}]'),
    ('[{"vnode": "vn1", "labels": {"switch": 3}}]'),
    ('[{"vnode": "vn1", "labels": {"switch": {"a": "b"}}}]'),
    ('[{"vnode": "vn1", "labels": {"switch": ["sw1", 2]}}]'),
    ('[{"vnode": "vn1", "available": 4}]'),
    ('[{"vnode": "vn1", "available": "ncpus=@"}]'),
    ('[{"vnode": "vn1", "available": "ncpus=4,ncpus=5"}]'),
    ('[{"vnode": "vn1", "assigned": "ncpus=x"}]'),
    ('[{"vnode": "vn1"}, {"vnode": "vn1"}]')
) AS c(v), pg_input_error_info(v, 'fairsched.vnodepool') AS e;

-- the same values still raise where no soft-error context is asked for
SELECT 'ncpus=x'::fairsched.resvec;
SELECT '[{"vnode": "vn1"}, {"vnode": "vn1"}]'::fairsched.vnodepool;

-- a load of resource vectors and share paths with bad lines: skipped and counted (17+)
CREATE TABLE soft_jobs (id int, owner fairsched.sharepath, used fairsched.resvec);
COPY soft_jobs FROM STDIN WITH (FORMAT csv, ON_ERROR ignore, LOG_VERBOSITY verbose);
1,physics.alice,"ncpus=4,mem=8gb"
2,physics..bob,ncpus=1
3,chem.carol,ncpus=x
4,chem.dave,"ncpus=2,walltime=3600"
\.
SELECT id, owner, used FROM soft_jobs ORDER BY id;
DROP TABLE soft_jobs;
