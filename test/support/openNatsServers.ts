/**
 * The suite's nats-servers are open on purpose (127.0.0.1, a free port, gone
 * after the test): arena's warning about a server without authentication is
 * silenced for every command the tests start (ARENA_NATS_ALLOW_OPEN=1), and
 * checked where it is the subject (`test/e2e/trustedServices.test.ts`).
 */
process.env.ARENA_NATS_ALLOW_OPEN = '1';
