import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { VaultError } from './vault.js';

/**
 * The file vault's on-disk format, v1 (file-vault.ts): one JSON object, the
 * header (format, v, kdf, keySource, cipher) followed by nonce, tag and data.
 * scrypt (RFC 7914) derives a 256-bit key; AES-256-GCM (NIST SP 800-38D)
 * encrypts the whole secret map with the header, in one canonical field order,
 * as additional data — so any edit of the header fails the tag.
 *
 * The KDF parameters are read before anything is authenticated (they are
 * needed to derive the key), so they are bounded first: a tampered header can
 * neither make Airlock allocate gigabytes or spin for minutes, nor name
 * parameters weaker than any version ever wrote (issue 27, item 2).
 */
export const FORMAT = 'airlock-vault';

export interface KdfParams {
  N: number;
  r: number;
  p: number;
}

export interface KdfHeader extends KdfParams {
  name: 'scrypt';
  salt: string;
}

export type KeySourceKind = 'passphrase' | 'key-file';

export interface Header {
  format: typeof FORMAT;
  v: 1;
  kdf: KdfHeader;
  keySource: KeySourceKind;
  cipher: 'aes-256-gcm';
}

export interface Envelope extends Header {
  nonce: string;
  tag: string;
  data: string;
}

/**
 * What a header may name. The minimum is what Airlock has ever written (N=2^15, r=8, p=1); the
 * maximum keeps one derivation under 256 MiB and a few seconds.
 */
export const KDF_BOUNDS = {
  N: { min: 2 ** 15, max: 2 ** 18 },
  r: { min: 8, max: 16 },
  p: { min: 1, max: 4 },
  /** scrypt's working memory, 128·N·r bytes. */
  memory: 256 * 1024 * 1024,
} as const;

/**
 * Parameters for new vaults and for re-keying on write. A passphrase is chosen by a person:
 * N=2^17, r=8, p=1 is OWASP's scrypt minimum for passwords (128 MiB, a fraction of a second once
 * per process). A key file holds 256 random bits, which need no stretching: the KDF there only
 * turns the file into a key, so the cheapest allowed parameters do.
 */
export const KDF_DEFAULTS: Record<KeySourceKind, KdfParams> = {
  passphrase: { N: 2 ** 17, r: 8, p: 1 },
  'key-file': { N: 2 ** 15, r: 8, p: 1 },
};

/** The reason `k` is outside KDF_BOUNDS, or null when it is inside. */
export function kdfProblem(k: Partial<Record<keyof KdfParams, unknown>>): string | null {
  const { N, r, p } = k;
  const int = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
  if (!int(N) || !int(r) || !int(p)) return 'N, r and p must be integers';
  const b = KDF_BOUNDS;
  if (N < b.N.min || N > b.N.max || (N & (N - 1)) !== 0)
    return `N=${N} is not a power of two from 2^15 to 2^18`;
  if (r < b.r.min || r > b.r.max) return `r=${r} is not from ${b.r.min} to ${b.r.max}`;
  if (p < b.p.min || p > b.p.max) return `p=${p} is not from ${b.p.min} to ${b.p.max}`;
  if (128 * N * r > b.memory) return `N=${N} with r=${r} needs more than 256 MiB`;
  return null;
}

export function assertKdf(k: KdfParams): KdfParams {
  const problem = kdfProblem(k);
  if (problem) throw new RangeError(`Unsupported scrypt parameters: ${problem}.`);
  return { N: k.N, r: k.r, p: k.p };
}

/** The additional data: the header's fields in one fixed order, whatever order the file has. */
function aad(h: Header): Buffer {
  const { name, N, r, p, salt } = h.kdf;
  return Buffer.from(
    JSON.stringify({
      format: h.format,
      v: h.v,
      kdf: { name, N, r, p, salt },
      keySource: h.keySource,
      cipher: h.cipher,
    }),
  );
}

const b64 = (s: unknown, bytes?: number): boolean =>
  typeof s === 'string' &&
  /^[A-Za-z0-9+/]*={0,2}$/.test(s) &&
  (bytes === undefined || Buffer.from(s, 'base64').length === bytes);

/**
 * Parses and checks a vault file's text: shape first, then the KDF bounds. Every failure is a
 * VAULT_LOCKED error naming the file and saying nothing was changed.
 */
export function parseEnvelope(raw: string, path: string): Envelope {
  const damaged = (why: string, cause?: unknown) =>
    new VaultError(
      'VAULT_LOCKED',
      `The file vault ${path} is damaged or not an Airlock vault (${why}). Nothing was changed; restore it from a backup or move it aside to start empty.`,
      cause === undefined ? undefined : { cause },
    );
  let e: Partial<Envelope> & { kdf?: Partial<KdfHeader> };
  try {
    e = JSON.parse(raw) as typeof e;
  } catch (err) {
    throw damaged((err as Error).message, err);
  }
  if (!e || typeof e !== 'object' || e.format !== FORMAT || e.v !== 1)
    throw damaged('not an Airlock vault');
  if (e.cipher !== 'aes-256-gcm') throw damaged(`unknown cipher ${String(e.cipher)}`);
  if (e.keySource !== 'passphrase' && e.keySource !== 'key-file')
    throw damaged('unknown key source');
  const k = e.kdf;
  if (!k || typeof k !== 'object' || k.name !== 'scrypt') throw damaged('unknown KDF');
  const problem = kdfProblem(k);
  if (problem)
    throw new VaultError(
      'VAULT_LOCKED',
      `The file vault ${path} names scrypt parameters Airlock does not accept (${problem}): the file was altered, or made by a newer Airlock. Nothing was changed; restore it from a backup, or open it with the Airlock that made it.`,
    );
  if (!b64(k.salt) || Buffer.from(k.salt!, 'base64').length < 16) throw damaged('bad salt');
  if (!b64(e.nonce, 12) || !b64(e.tag, 16) || !b64(e.data)) throw damaged('bad nonce, tag or data');
  return e as Envelope;
}

/** scrypt with a memory cap of exactly what these parameters need (OpenSSL: 128·r·(N+2+p) bytes). */
export function derive(secret: string, kdf: KdfHeader): Promise<Buffer> {
  const { N, r, p } = kdf;
  const maxmem = 128 * r * (N + 2 + p) + 64 * 1024;
  return new Promise((resolve, reject) =>
    scrypt(secret, Buffer.from(kdf.salt, 'base64'), 32, { N, r, p, maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export function newSalt(): string {
  return randomBytes(16).toString('base64');
}

/** Encrypts the map under `key`, which must have been derived with `header.kdf`. */
export function seal(map: Map<string, string>, header: Header, key: Buffer): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(aad(header));
  const data = Buffer.concat([
    cipher.update(JSON.stringify(Object.fromEntries(map)), 'utf8'),
    cipher.final(),
  ]);
  const envelope: Envelope = {
    ...header,
    nonce: nonce.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
  return JSON.stringify(envelope) + '\n';
}

/** Decrypts and authenticates; throws (the caller words it) on a wrong key or any edit. */
export function unseal(e: Envelope, key: Buffer): Map<string, string> {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(e.nonce, 'base64'));
  decipher.setAAD(aad(e));
  decipher.setAuthTag(Buffer.from(e.tag, 'base64'));
  const plain = Buffer.concat([
    decipher.update(Buffer.from(e.data, 'base64')),
    decipher.final(),
  ]).toString('utf8');
  const parsed = JSON.parse(plain) as unknown;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error('the secret map is not an object');
  return new Map(
    Object.entries(parsed as Record<string, unknown>).filter(
      (kv): kv is [string, string] => typeof kv[1] === 'string',
    ),
  );
}

export function sameKdf(a: KdfHeader, b: KdfHeader): boolean {
  return a.N === b.N && a.r === b.r && a.p === b.p && a.salt === b.salt;
}
