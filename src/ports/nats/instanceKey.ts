import {
  createHash,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';

/** The header a served instance signs each reply in. */
export const SIGNATURE_HEADER = 'Arena-Reply-Signature';

/** The request a reply answers: its signature covers these, so it cannot be replayed for another. */
export interface RepliedRequest {
  readonly key: string;
  readonly seq: number;
  readonly method: string;
}

/** One served instance's signing key: its id is its public key's fingerprint. */
export interface InstanceKey {
  /** `instanceIdOf(publicKey)`: the instance's subject token. */
  readonly id: string;
  /** The Ed25519 public key, SPKI DER in base64, sent with the `open` reply. */
  readonly publicKey: string;
  /** The signature (base64) of `body` as the reply to `request`. */
  sign(request: RepliedRequest, body: Uint8Array): string;
}

/**
 * A fresh Ed25519 key for one instance of `arena serve`, never stored: a
 * restarted instance is another instance.
 *
 * @example
 * ```ts
 * const key = createInstanceKey();
 * key.id; // 'k3x9f0a21b7c4d5e' (16 hex digits of the public key's sha256)
 * verifyReply(publicKeyOf(key.publicKey), request, body, key.sign(request, body)); // true
 * ```
 */
export function createInstanceKey(): InstanceKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const encoded = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  return {
    id: instanceIdOf(encoded),
    publicKey: encoded,
    sign: (request, body) => sign(null, signedBytes(request, body), privateKey).toString('base64'),
  };
}

/**
 * The instance id a public key stands for: a reply's claimed instance is
 * checked against its key, so no other key can pass for it.
 *
 * @example
 * ```ts
 * instanceIdOf(key.publicKey) === key.id; // true
 * ```
 */
export function instanceIdOf(publicKey: string): string {
  return createHash('sha256').update(publicKey, 'base64').digest('hex').slice(0, 16);
}

/** The key object of a base64 SPKI public key, or `null` when it is not an Ed25519 key. */
export function publicKeyOf(publicKey: string): KeyObject | null {
  try {
    const key = createPublicKey({
      key: Buffer.from(publicKey, 'base64'),
      format: 'der',
      type: 'spki',
    });
    return key.asymmetricKeyType === 'ed25519' ? key : null;
  } catch {
    return null;
  }
}

/**
 * Whether `signature` is `publicKey`'s signature of `body` as the reply to `request`.
 *
 * @example
 * ```ts
 * verifyReply(key, { key: 'r/p/environment/tank/s', seq: 3, method: 'step' }, body, forged); // false
 * ```
 */
export function verifyReply(
  publicKey: KeyObject,
  request: RepliedRequest,
  body: Uint8Array,
  signature: string | undefined,
): boolean {
  if (signature === undefined || signature === '') return false;
  try {
    return verify(null, signedBytes(request, body), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

function signedBytes(request: RepliedRequest, body: Uint8Array): Buffer {
  const head = Buffer.from(`${request.key}\n${request.seq}\n${request.method}\n`, 'utf8');
  return Buffer.concat([head, body]);
}
