/** What the fetch standard allows in a header name (a token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

import { inspect } from 'node:util';

type Entries = ReturnType<Headers['entries']>;
type Names = ReturnType<Headers['keys']>;

/**
 * The headers of a response `httpFetch` received, read straight from the
 * raw name/value pairs Node's parser gave: a `Headers` (`instanceof` holds,
 * and `new Headers(these)` copies them) that is immutable, as a `fetch`
 * response's headers are. It defines every member of `Headers` itself and
 * never runs the `Headers` constructor, so it costs none of the per-header
 * validation and copying a filled `Headers` does.
 * Reads follow the fetch standard: names are case-insensitive, `get` joins
 * repeated values with `, `, iteration is sorted by name with repeated
 * names combined (`set-cookie` listed one by one), `getSetCookie()` lists
 * every `set-cookie`.
 *
 * @example
 * ```ts
 * const headers = responseHeaders(['Content-Type', 'application/json', 'X-A', '1', 'x-a', '2']);
 * headers.get('x-a'); // '1, 2'
 * [...headers]; // [['content-type', 'application/json'], ['x-a', '1, 2']]
 * headers.set('x-a', '3'); // throws TypeError: immutable
 * ```
 */
class ResponseHeaders {
  /** Lower-cased names and their values, in the order received. */
  readonly #names: string[];
  readonly #values: string[];
  #sorted: [string, string][] | null = null;

  /** `raw`: names and values alternating, as `IncomingMessage.rawHeaders`. */
  constructor(raw: readonly string[]) {
    const count = raw.length >> 1;
    this.#names = new Array<string>(count);
    this.#values = new Array<string>(count);
    for (let index = 0; index < count; index++) {
      this.#names[index] = raw[2 * index]!.toLowerCase();
      this.#values[index] = raw[2 * index + 1]!;
    }
  }

  get(name: string): string | null {
    const key = headerName(name);
    let joined: string | null = null;
    for (let index = 0; index < this.#names.length; index++) {
      if (this.#names[index] !== key) continue;
      joined = joined === null ? this.#values[index]! : `${joined}, ${this.#values[index]!}`;
    }
    return joined;
  }

  has(name: string): boolean {
    return this.#names.includes(headerName(name));
  }

  getSetCookie(): string[] {
    return this.#values.filter((_, index) => this.#names[index] === 'set-cookie');
  }

  entries(): Entries {
    return this.#list()
      .map(([name, value]): [string, string] => [name, value])
      [Symbol.iterator]() as Entries;
  }

  keys(): Names {
    return this.#list()
      .map(([name]) => name)
      [Symbol.iterator]() as Names;
  }

  values(): Names {
    return this.#list()
      .map(([, value]) => value)
      [Symbol.iterator]() as Names;
  }

  [Symbol.iterator](): Entries {
    return this.entries();
  }

  forEach(
    callback: (value: string, key: string, parent: Headers) => void,
    thisArg?: unknown,
  ): void {
    for (const [name, value] of this.#list())
      callback.call(thisArg, value, name, this as unknown as Headers);
  }

  append(): void {
    throw immutable();
  }

  set(): void {
    throw immutable();
  }

  delete(): void {
    throw immutable();
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }

  [inspect.custom](): string {
    return `Headers ${inspect(Object.fromEntries(this.#list()))}`;
  }

  /** The standard's "sort and combine", made once. */
  #list(): readonly [string, string][] {
    if (this.#sorted !== null) return this.#sorted;
    const names = [...new Set(this.#names)].sort();
    const list: [string, string][] = [];
    for (const name of names) {
      if (name === 'set-cookie') {
        for (const value of this.getSetCookie()) list.push([name, value]);
      } else list.push([name, this.get(name)!]);
    }
    this.#sorted = list;
    return list;
  }
}

// `instanceof Headers` holds; every member the prototype has is defined above.
Object.setPrototypeOf(ResponseHeaders.prototype, Headers.prototype);

/** The headers of a received response, from `rawHeaders` (names and values alternating). */
export function responseHeaders(raw: readonly string[]): Headers {
  return new ResponseHeaders(raw) as unknown as Headers;
}

function headerName(name: string): string {
  if (!HEADER_NAME.test(name)) throw new TypeError(`Headers: invalid header name "${name}"`);
  return name.toLowerCase();
}

function immutable(): TypeError {
  return new TypeError('Headers: the headers of a received response are immutable');
}
