let openServerWarning: ((warning: string) => void) | null = null;
const warnedServers = new Set<string>();

/**
 * Where a warning about a NATS server without authentication goes (the CLI:
 * once on stderr); without one, nothing is said. Kept apart from the NATS
 * client, so a command can set it without loading NATS.
 *
 * @example
 * ```ts
 * onOpenNatsServer((warning) => process.stderr.write(`arena: warning: ${warning}\n`));
 * ```
 */
export function onOpenNatsServer(warn: ((warning: string) => void) | null): void {
  openServerWarning = warn;
  warnedServers.clear();
}

/**
 * Warn about `server` once per process, when a warning has somewhere to go.
 *
 * @example
 * ```ts
 * warnOpenNatsServer('nats://127.0.0.1:4222', 'nats://127.0.0.1:4222 asks for no authentication: …');
 * ```
 */
export function warnOpenNatsServer(server: string, warning: string): void {
  if (openServerWarning === null || warnedServers.has(server)) return;
  warnedServers.add(server);
  openServerWarning(warning);
}
