import { evaluationRunsGuard } from './postgresRoleRules.js';

/**
 * Whether the session's user may write the trigger's table as it likes (its
 * owner, or a superuser): schema 9's `arena_writes_as_owner`, written inline
 * so that PL/pgSQL plans it once a session instead of calling a SQL function
 * that sets its own search_path and is planned again at every row.
 */
const writesAsOwner = `pg_catalog.pg_has_role(current_user,
      (SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) TG_RELID),
      'USAGE')`;

/** The evaluation run of `NEW` is running (every name schema-qualified: no search_path is set). */
const runIsRunning = `EXISTS (SELECT 1 FROM public.evaluation_runs e
      WHERE e.evaluation_run_id OPERATOR(pg_catalog.=) NEW.evaluation_run_id
        AND e.status OPERATOR(pg_catalog.=) 'running')`;

/**
 * PostgreSQL schema 11: schema 9's rules on the rows a judgement writes, at
 * a fraction of their cost (they were half of PostgreSQL's CPU per verdict).
 * The same rules: each trigger function is replaced by one that checks the
 * same things, but the rows of every verdict and case (`verdicts`,
 * `evaluation_cases`) no longer set a search_path per row (each name in them
 * is schema-qualified, each operator `pg_catalog`'s, so a caller's
 * search_path cannot change what they check), and none calls the owner check
 * as a separate function.
 */
export const postgresCheaperRulesMigration = `
  CREATE OR REPLACE FUNCTION arena_guard_verdicts() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF ${writesAsOwner} OR ${runIsRunning} THEN
      RETURN NEW;
    END IF;
    RETURN NULL;
  END $$;

  CREATE OR REPLACE FUNCTION arena_guard_evaluation_cases() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF ${writesAsOwner} THEN RETURN NEW; END IF;
    IF NEW.context_sha256 IS NOT NULL OR NOT ${runIsRunning} THEN
      RAISE EXCEPTION 'user % may not add a case to evaluation run %: it is not running',
        current_user, NEW.evaluation_run_id USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
  END $$;

  ${evaluationRunsGuard('CREATE OR REPLACE', writesAsOwner)}
  `;
