/**
 * A URL as messages may show it: a password (`user:secret@`) or a token
 * (`secret@`) in its user part, and a `password=` (or `sslpassword=`) in its
 * query, are written `***`, so no error, log line or stored record prints a
 * secret that a `--nats` or `--store` URL carried.
 *
 * @example
 * ```ts
 * redactUrl('nats://arena:s3cret@127.0.0.1:4222'); // 'nats://arena:***@127.0.0.1:4222'
 * redactUrl('nats://t0ken@127.0.0.1:4222'); // 'nats://***@127.0.0.1:4222'
 * redactUrl('postgres://arena@db/runs?password=s3cret'); // 'postgres://arena@db/runs?password=***'
 * redactUrl('nats://127.0.0.1:4222'); // 'nats://127.0.0.1:4222'
 * ```
 */
export function redactUrl(url: string): string {
  // the user part runs to the authority's last '@', as URL parsers read it: an unescaped '@' in a password stays hidden
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i, (_, scheme: string, user: string) => {
      const colon = user.indexOf(':');
      return `${scheme}${colon === -1 ? '***' : `${user.slice(0, colon)}:***`}@`;
    })
    .replace(/([?&](?:ssl)?password=)[^&#]*/gi, '$1***');
}
