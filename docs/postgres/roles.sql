-- arena's PostgreSQL roles. Run once, as a superuser (or a role with
-- CREATEROLE), in the store's database:
--
--   psql -h db-host -U postgres -d arena -f docs/postgres/roles.sql
--
-- Then let the owner create the tables (any writing arena command connected
-- as arena_owner does it, and an upgrade's migration later), then, as
-- arena_owner, grant each role its part: docs/postgres/grants.sql.
--
-- | role            | connects for                                                     |
-- |-----------------|------------------------------------------------------------------|
-- | arena_owner     | owns the tables: creates and migrates them (the only DDL role)   |
-- | arena_worker    | arena worker: runs and judge jobs                                |
-- | arena_submitter | arena submit (--wait), arena judge --nats (--wait), arena requeue |
-- | arena_viewer    | arena runs, show, report, check: reads only                      |
--
-- The passwords are examples: set real ones (\password arena_worker) or use
-- your own authentication in pg_hba.conf. Role names are cluster-wide: for a
-- second arena database on one server, rename them.

CREATE ROLE arena_owner LOGIN PASSWORD 'owner-example-password';
CREATE ROLE arena_worker LOGIN PASSWORD 'worker-example-password';
CREATE ROLE arena_submitter LOGIN PASSWORD 'submitter-example-password';
CREATE ROLE arena_viewer LOGIN PASSWORD 'viewer-example-password';

-- only the owner creates anything (PostgreSQL 15 revokes CREATE from PUBLIC already; older ones do not)
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE, CREATE ON SCHEMA public TO arena_owner;
GRANT USAGE ON SCHEMA public TO arena_worker, arena_submitter, arena_viewer;
