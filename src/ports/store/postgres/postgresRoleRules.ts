import {
  postgresDigestSql,
  recordsDigestSql,
  sealedEvaluationTables,
  sealedRunTables,
} from '../core/sealedRecords.js';
import { runTables } from '../core/storeTables.js';

const finished = `('succeeded', 'failed', 'cancelled')`;

/** The tables below a run that a worker writes under the run's lease. */
export const leasedRecordTables = [
  ...runTables.filter((table) => table !== 'runs'),
  'remote_components',
] as const;

/** A trigger that runs `fn` before each row a statement writes. */
const beforeEachRow = (name: string, events: string, table: string, fn: string): string =>
  `CREATE TRIGGER ${name} BEFORE ${events} ON ${table}
    FOR EACH ROW EXECUTE FUNCTION ${fn}();`;

/** The refusal of a change to a finished `kind` (its id column `id`, and its status, in `OLD`). */
const finishedRefusal = (kind: string, id: string): string =>
  `RAISE EXCEPTION 'user % may not change ${kind} %: it is %', current_user, OLD.${id}, OLD.status
        USING ERRCODE = 'insufficient_privilege',
          HINT = 'a finished ${kind} stays as it finished; only the owner changes it';`;

/**
 * The rule of an evaluation run's row (schema 9, and schema 11 with a cheaper
 * owner check `writesAsOwner`): created running and unsealed, never changed
 * once finished, its digest and `keep_texts` the owner's.
 */
export const evaluationRunsGuard = (
  create: 'CREATE' | 'CREATE OR REPLACE',
  writesAsOwner: string,
): string => `${create} FUNCTION arena_guard_evaluation_runs() RETURNS trigger LANGUAGE plpgsql
    SET search_path = public, pg_temp AS $$
  BEGIN
    IF ${writesAsOwner} THEN RETURN NEW; END IF;
    IF TG_OP = 'INSERT' THEN
      IF NEW.records_digest IS NOT NULL OR NEW.status <> 'running' THEN
        RAISE EXCEPTION 'user % may not create evaluation run % finished or sealed', current_user,
          NEW.evaluation_run_id USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN NEW;
    END IF;
    IF NEW IS DISTINCT FROM OLD AND (OLD.status <> 'running'
      OR NEW.records_digest IS DISTINCT FROM OLD.records_digest
      OR NEW.keep_texts IS DISTINCT FROM OLD.keep_texts) THEN
      ${finishedRefusal('evaluation run', 'evaluation_run_id')}
    END IF;
    RETURN NEW;
  END $$;`;

/**
 * PostgreSQL schema 9: the database enforces what the roles may do to a run,
 * and seals a finished run's records with a digest.
 *
 * - Rules run as BEFORE triggers on every row any role but the tables' owner
 *   writes (the owner, and a superuser, pass): a run's records only under the
 *   lease the writing transaction presents (`arena.lease`, set by the store's
 *   fenced write: the run's id and the lease token it holds, which must be the
 *   run's current one); nothing of a finished run or a finished evaluation run
 *   changes but its lease and delivery columns; no case is added to a
 *   finished evaluation run and no verdict recorded into one (the verdict is
 *   skipped, as the store's own statement skips it); nobody but the owner
 *   writes a digest.
 * - When a run or an evaluation run finishes, an AFTER trigger (as the owner)
 *   keeps the digest of its records (`records_digest`), and an evaluation
 *   run's cases keep their digest and drop their texts unless the run was
 *   created to keep them (`keep_texts`).
 */
export const postgresRoleRulesMigration = `
  ALTER TABLE runs ADD COLUMN records_digest TEXT;
  ALTER TABLE evaluation_runs ADD COLUMN records_digest TEXT;
  ALTER TABLE evaluation_runs ADD COLUMN keep_texts BOOLEAN NOT NULL DEFAULT false;
  ALTER TABLE evaluation_cases ADD COLUMN context_sha256 TEXT;

  CREATE FUNCTION arena_run_digest(id TEXT) RETURNS TEXT LANGUAGE sql STABLE
    SET search_path = public, pg_temp
    AS $$ SELECT ${recordsDigestSql(postgresDigestSql, sealedRunTables, 'id')} $$;
  CREATE FUNCTION arena_evaluation_digest(id TEXT) RETURNS TEXT LANGUAGE sql STABLE
    SET search_path = public, pg_temp
    AS $$ SELECT ${recordsDigestSql(postgresDigestSql, sealedEvaluationTables, 'id')} $$;

  -- the owner of a table (or a superuser) writes it as it likes; every other role is held to the rules
  CREATE FUNCTION arena_writes_as_owner(tab OID) RETURNS BOOLEAN LANGUAGE sql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $$ SELECT pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = tab), 'USAGE') $$;

  -- the lease this transaction presents is the run's current one, and the run is not finished
  CREATE FUNCTION arena_lease_presented(id TEXT) RETURNS BOOLEAN LANGUAGE sql STABLE
    SET search_path = public, pg_temp
    AS $$ SELECT EXISTS (SELECT 1 FROM runs r WHERE r.run_id = id
      AND r.status NOT IN ${finished} AND r.lease_owner IS NOT NULL
      AND current_setting('arena.lease', true) = r.run_id || ':' || r.lease_token) $$;

  CREATE FUNCTION arena_guard_run_records() RETURNS trigger LANGUAGE plpgsql
    SET search_path = public, pg_temp AS $$
  DECLARE
    id TEXT := CASE WHEN TG_OP = 'DELETE' THEN OLD.run_id ELSE NEW.run_id END;
  BEGIN
    IF arena_writes_as_owner(TG_RELID) OR arena_lease_presented(id) THEN
      RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    END IF;
    RAISE EXCEPTION 'user % may not % % of run % without holding its lease', current_user,
      lower(TG_OP), TG_TABLE_NAME, id
      USING ERRCODE = 'insufficient_privilege',
        HINT = 'a worker writes a run''s records only under the lease it holds, and never a finished run''s';
  END $$;
  ${leasedRecordTables
    .map((table) =>
      beforeEachRow(
        `${table}_by_lease`,
        'INSERT OR UPDATE OR DELETE',
        table,
        'arena_guard_run_records',
      ),
    )
    .join('\n  ')}

  CREATE FUNCTION arena_guard_runs() RETURNS trigger LANGUAGE plpgsql
    SET search_path = public, pg_temp AS $$
  BEGIN
    IF arena_writes_as_owner(TG_RELID) THEN RETURN NEW; END IF;
    IF TG_OP = 'INSERT' THEN
      IF NEW.records_digest IS NOT NULL THEN
        RAISE EXCEPTION 'user % may not write the digest of run %', current_user, NEW.run_id
          USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN NEW;
    END IF;
    IF NEW.records_digest IS DISTINCT FROM OLD.records_digest
      OR (OLD.status IN ${finished} AND (NEW.run_id, NEW.uid, NEW.seed, NEW.run_file, NEW.run_file_path,
        NEW.run_file_sha256, NEW.modules, NEW.status, NEW.started_at, NEW.ended_at, NEW.error, NEW.summary)
        IS DISTINCT FROM (OLD.run_id, OLD.uid, OLD.seed, OLD.run_file, OLD.run_file_path,
        OLD.run_file_sha256, OLD.modules, OLD.status, OLD.started_at, OLD.ended_at, OLD.error, OLD.summary))
    THEN
      ${finishedRefusal('run', 'run_id')}
    END IF;
    RETURN NEW;
  END $$;
  ${beforeEachRow('runs_kept_finished', 'INSERT OR UPDATE', 'runs', 'arena_guard_runs')}

  ${evaluationRunsGuard('CREATE', 'arena_writes_as_owner(TG_RELID)')}
  ${beforeEachRow('evaluation_runs_kept_finished', 'INSERT OR UPDATE', 'evaluation_runs', 'arena_guard_evaluation_runs')}

  -- a case joins only a running evaluation run, with no digest of its own making
  CREATE FUNCTION arena_guard_evaluation_cases() RETURNS trigger LANGUAGE plpgsql
    SET search_path = public, pg_temp AS $$
  BEGIN
    IF arena_writes_as_owner(TG_RELID) THEN RETURN NEW; END IF;
    IF NEW.context_sha256 IS NOT NULL OR NOT EXISTS (SELECT 1 FROM evaluation_runs e
      WHERE e.evaluation_run_id = NEW.evaluation_run_id AND e.status = 'running') THEN
      RAISE EXCEPTION 'user % may not add a case to evaluation run %: it is not running',
        current_user, NEW.evaluation_run_id USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
  END $$;
  ${beforeEachRow('evaluation_cases_while_running', 'INSERT OR UPDATE', 'evaluation_cases', 'arena_guard_evaluation_cases')}

  -- a verdict for a run that is not running is not recorded (as the store's own statement does)
  CREATE FUNCTION arena_guard_verdicts() RETURNS trigger LANGUAGE plpgsql
    SET search_path = public, pg_temp AS $$
  BEGIN
    IF arena_writes_as_owner(TG_RELID) OR EXISTS (SELECT 1 FROM evaluation_runs e
      WHERE e.evaluation_run_id = NEW.evaluation_run_id AND e.status = 'running') THEN
      RETURN NEW;
    END IF;
    RETURN NULL;
  END $$;
  ${beforeEachRow('verdicts_while_running', 'INSERT', 'verdicts', 'arena_guard_verdicts')}

  -- sealing runs as the owner (SECURITY DEFINER): whoever finishes a run, its digest is taken
  CREATE FUNCTION arena_seal_run() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = public, pg_temp AS $$
  BEGIN
    IF NEW.status IN ${finished} THEN
      IF TG_OP = 'UPDATE' THEN
        IF OLD.status IN ${finished} THEN RETURN NULL; END IF;
      END IF;
      UPDATE runs SET records_digest = arena_run_digest(NEW.run_id) WHERE run_id = NEW.run_id;
    ELSIF NEW.records_digest IS NOT NULL THEN
      UPDATE runs SET records_digest = NULL WHERE run_id = NEW.run_id;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER runs_sealed AFTER INSERT OR UPDATE OF status ON runs
    FOR EACH ROW EXECUTE FUNCTION arena_seal_run();

  CREATE FUNCTION arena_seal_evaluation_run() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = public, pg_temp AS $$
  BEGIN
    IF NEW.status <> 'running' AND OLD.status = 'running' THEN
      UPDATE evaluation_cases SET
          context_sha256 = encode(sha256(convert_to(context, 'UTF8')), 'hex'),
          context = CASE WHEN NEW.keep_texts THEN context ELSE '' END
        WHERE evaluation_run_id = NEW.evaluation_run_id AND context_sha256 IS NULL;
      UPDATE evaluation_runs SET records_digest = arena_evaluation_digest(NEW.evaluation_run_id)
        WHERE evaluation_run_id = NEW.evaluation_run_id;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER evaluation_runs_sealed AFTER UPDATE OF status ON evaluation_runs
    FOR EACH ROW EXECUTE FUNCTION arena_seal_evaluation_run();
  `;
