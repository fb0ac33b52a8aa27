/**
 * Beyond one machine, measured in one run on loopback (issue #12): a remote
 * `step` round trip against the same environment in process, a whole run with
 * its environment served; runs per second of a batch of short runs on 1, 2 and
 * 4 workers (ratio to one worker); and the time from a worker's SIGKILL to its
 * run continuing on another worker, against the lease. Targets: remote step
 * overhead <= 300 µs; a killed worker's run continues within 2x the lease.
 * Needs nats-server on PATH and a build (npm run build).
 */
console.log('-- remote components (arena serve, nats:<service>) --');
await import('./_distributedRemote.js');
console.log('\n-- a queue of runs (arena submit, arena worker) --');
await import('./_distributedQueue.js');
