import { createHash } from 'node:crypto';
import { createAccount, createOperator, createUser, type KeyPair } from '@nats-io/nkeys';

/**
 * An operator-mode NATS setup made here, without nsc or `@nats-io/jwt`: an
 * operator, one account with JetStream and one user, as JWTs signed with
 * nkeys (the encoding `@nats-io/jwt` writes: a `ed25519-nkey` JWT whose `jti`
 * is the claims' SHA-256 in base32).
 */
export interface OperatorSetup {
  /** The server config text: the operator, a memory resolver preloaded with the account. */
  readonly config: string;
  /** A `.creds` file's text for the user. */
  readonly creds: string;
  /** The user's nkey seed. */
  readonly userSeed: string;
}

/** An operator, an account with JetStream on, and a user of it, for `startNatsServer({ config })`. */
export function operatorSetup(): OperatorSetup {
  const operator = createOperator();
  const account = createAccount();
  const system = createAccount();
  const user = createUser();
  const operatorJwt = sign(operator, publicKey(operator), 'arena-operator', {
    type: 'operator',
    version: 2,
    system_account: publicKey(system),
  });
  // JetStream needs a system account
  const systemJwt = sign(operator, publicKey(system), 'SYS', { type: 'account', version: 2 });
  const accountJwt = sign(operator, publicKey(account), 'arena', {
    type: 'account',
    version: 2,
    limits: {
      subs: -1,
      data: -1,
      payload: -1,
      imports: -1,
      exports: -1,
      wildcards: true,
      conn: -1,
      leaf: -1,
      mem_storage: -1,
      disk_storage: -1,
      streams: -1,
      consumer: -1,
    },
  });
  const userJwt = sign(account, publicKey(user), 'arena-worker', {
    type: 'user',
    version: 2,
    pub: {},
    sub: {},
    subs: -1,
    data: -1,
    payload: -1,
  });
  const userSeed = new TextDecoder().decode(user.getSeed());
  return {
    config: [
      `operator: ${operatorJwt}`,
      'resolver: MEMORY',
      `system_account: ${publicKey(system)}`,
      `resolver_preload: { ${publicKey(account)}: ${accountJwt}, ${publicKey(system)}: ${systemJwt} }`,
    ].join('\n'),
    creds: [
      '-----BEGIN NATS USER JWT-----',
      userJwt,
      '------END NATS USER JWT------',
      '',
      '************************* IMPORTANT *************************',
      'NKEY Seed printed below can be used to sign and prove identity.',
      '',
      '-----BEGIN USER NKEY SEED-----',
      userSeed,
      '------END USER NKEY SEED------',
      '',
    ].join('\n'),
    userSeed,
  };
}

function publicKey(pair: KeyPair): string {
  return pair.getPublicKey();
}

function sign(
  issuer: KeyPair,
  subject: string,
  name: string,
  nats: Record<string, unknown>,
): string {
  const claims: Record<string, unknown> = {
    iat: Math.floor(Date.now() / 1000),
    iss: publicKey(issuer),
    name,
    sub: subject,
    nats,
  };
  claims.jti = base32(createHash('sha256').update(JSON.stringify(claims)).digest());
  const header = base64url(JSON.stringify({ typ: 'JWT', alg: 'ed25519-nkey' }));
  const body = `${header}.${base64url(JSON.stringify(claims))}`;
  return `${body}.${Buffer.from(issuer.sign(new TextEncoder().encode(body))).toString('base64url')}`;
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}

function base32(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? out + alphabet[(value << (5 - bits)) & 31] : out;
}
