-- pg_temp.sqlstate_of(statement): the SQLSTATE the statement fails with, or 'ok'. Included by
-- the regression suites that check an error's code: \i sql/data/sqlstate_of.sql
CREATE FUNCTION pg_temp.sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END $$;
