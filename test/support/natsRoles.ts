import { readFileSync } from 'node:fs';
import path from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { repoRoot } from './cli.js';
import { type NatsServer, startNatsServer } from './natsServer.js';

/** The shipped authorization file, as a user would start nats-server with it. */
export const authorizationFile = path.join(repoRoot, 'docs/nats/authorization.conf');

/** The roles of `docs/nats/authorization.conf`, by user name. */
export const roles = ['submitter', 'worker', 'service-tank', 'service-tank-2', 'viewer'] as const;
export type Role = (typeof roles)[number];

/** A nats-server running the shipped authorization file, and each role's `--nats` URL. */
export interface AuthorizedNats {
  readonly server: NatsServer;
  urlOf(role: Role): string;
  /**
   * A raw client connected as `role` (the attacker's tool), closed by
   * `dispose`; its replies come back on `inboxPrefix` (default `_INBOX.<role>`, as arena's own).
   */
  connectAs(role: Role, options?: { inboxPrefix?: string }): Promise<NatsConnection>;
  dispose(): Promise<void>;
}

/** Start nats-server with `docs/nats/authorization.conf`, its example passwords read from the file. */
export async function startAuthorizedNats(): Promise<AuthorizedNats> {
  const config = readFileSync(authorizationFile, 'utf8');
  const server = await startNatsServer({ config });
  const passwordOf = (role: Role): string => {
    const variable = `${role.replaceAll('-', '_').toUpperCase()}_PASSWORD`;
    const match = new RegExp(`^${variable}: "([^"]+)"`, 'm').exec(config);
    if (match === null) throw new Error(`${authorizationFile} sets no ${variable}`);
    return match[1] as string;
  };
  const urlOf = (role: Role) =>
    `nats://${role}:${encodeURIComponent(passwordOf(role))}@127.0.0.1:${server.port}`;
  const clients: NatsConnection[] = [];
  return {
    server,
    urlOf,
    async connectAs(role, options = {}) {
      const nc = await connect({
        servers: `127.0.0.1:${server.port}`,
        user: role,
        pass: passwordOf(role),
        inboxPrefix: options.inboxPrefix ?? `_INBOX.${role}`,
      });
      clients.push(nc);
      return nc;
    },
    async dispose() {
      await Promise.all(clients.map((nc) => nc.close().catch(() => undefined)));
      await server.dispose();
    },
  };
}

/** The permission errors the server sent a connection, as they arrive. */
export function permissionErrors(nc: NatsConnection): string[] {
  const seen: string[] = [];
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'error' && /permissions violation/i.test(String(status.error))) {
        seen.push(String(status.error));
      }
    }
  })();
  return seen;
}
