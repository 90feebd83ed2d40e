import { hkdfSync, randomBytes, scrypt } from 'node:crypto';

/**
 * Which KDF turns the file vault's secret into its 256-bit AES key, its bounds, and the
 * derivation (issue 27, item 2; issue 34: start-up cost). Two, named in the vault's header:
 *
 * - `hkdf-sha256` (RFC 5869) for a key file that holds key material of Airlock's own form
 *   (keyMaterial()): 256 random bits need no stretching. A KDF's work factor only slows the
 *   guessing of a secret with little entropy; against 2^256 possibilities it adds nothing, which
 *   is why RFC 5869 §3.3 and NIST SP 800-108 derive keys from a full-entropy key with a single
 *   PRF call. HKDF's extract step also tolerates key material that is not uniform (RFC 5869 §3.1).
 * - `scrypt` (RFC 7914) for a passphrase (N=2^17) and for any other key-file content (N=2^15, as
 *   every key file had before): text a person may have chosen needs the work factor.
 *
 * A header is read before anything is authenticated (its salt and parameters are needed to derive
 * the key), so scrypt's parameters are bounded first: a tampered header can neither make Airlock
 * allocate gigabytes or spin for minutes, nor name parameters weaker than any version ever wrote.
 */
export interface KdfParams {
  N: number;
  r: number;
  p: number;
}

export interface ScryptHeader extends KdfParams {
  name: 'scrypt';
  salt: string;
}

export interface HkdfHeader {
  name: 'hkdf-sha256';
  salt: string;
}

export type KdfHeader = ScryptHeader | HkdfHeader;

/** What a new vault, or a re-key on write, uses: a KDF header without its salt. */
export type KdfTarget = { name: 'hkdf-sha256' } | ({ name: 'scrypt' } & KdfParams);

/**
 * HKDF's `info` (RFC 5869 §3.2): binds the key to this one use, so the same key file could never
 * give the same key for another purpose.
 */
export const HKDF_INFO = 'airlock-vault v1 aes-256-gcm key';

/** Salts of new headers; a header's salt must have at least this many bytes. */
export const SALT_BYTES = 16;

/**
 * What an scrypt header may name. The minimum is what Airlock has ever written (N=2^15, r=8,
 * p=1); the maximum keeps one derivation under 256 MiB and a few seconds.
 */
export const KDF_BOUNDS = {
  N: { min: 2 ** 15, max: 2 ** 18 },
  r: { min: 8, max: 16 },
  p: { min: 1, max: 4 },
  /** scrypt's working memory, 128·N·r bytes. */
  memory: 256 * 1024 * 1024,
} as const;

/**
 * scrypt parameters for new vaults and re-keying. A passphrase is chosen by a person: N=2^17,
 * r=8, p=1 is OWASP's scrypt minimum for passwords (128 MiB, a fraction of a second once per
 * process). A key file whose content is not Airlock's key material keeps what every key file had
 * before HKDF (N=2^15), so such vaults are not re-keyed.
 */
export const KDF_DEFAULTS = {
  passphrase: { N: 2 ** 17, r: 8, p: 1 },
  'key-file': { N: 2 ** 15, r: 8, p: 1 },
} as const satisfies Record<string, KdfParams>;

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

/**
 * The key file's text as base64 bytes (RFC 4648 §4, canonical, padded where its length needs it,
 * optionally wrapped over lines as `openssl rand -base64` wraps at 64 characters) of at least 32
 * bytes, or null. This is HKDF's input for a vault whose header names HKDF; whether a vault gets
 * HKDF in the first place is keyMaterial()'s stricter question.
 */
export function base64Key(text: string): Buffer | null {
  const b64 = text.trim().replace(/\r?\n/g, '');
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return null;
  const bytes = Buffer.from(b64, 'base64');
  // Canonical only: re-encoding gives the same text (no stray bits in the last character).
  return bytes.length >= 32 && bytes.toString('base64') === b64 ? bytes : null;
}

/**
 * The key file's content as key material a person would not have typed, or null: base64Key()
 * that ends in '=' padding, i.e. whose byte count is not a multiple of 3. That is what Airlock
 * writes (32 bytes: 44 characters ending '=') and what `openssl rand -base64 32` (or 64, wrapped)
 * prints. Without the padding rule any run of letters and digits whose length is a multiple of 4
 * (a 44-letter phrase, `openssl rand -hex 32`'s 64 hex digits) would decode, and a phrase would go
 * through HKDF unstretched. Those, and any other text, keep scrypt: the safe side of the mistake
 * costs a slower start, the other side an unstretched guessable secret.
 */
export function keyMaterial(text: string): Buffer | null {
  const bytes = base64Key(text);
  return bytes && bytes.length % 3 !== 0 ? bytes : null;
}

/**
 * What a new vault or a re-key uses for this secret: HKDF for a key file of Airlock's key
 * material, else scrypt with `scryptParams` (KDF_DEFAULTS for the source, or a test's).
 */
export function kdfTarget(
  source: 'passphrase' | 'key-file',
  secret: string,
  scryptParams: KdfParams,
): KdfTarget {
  return source === 'key-file' && keyMaterial(secret)
    ? { name: 'hkdf-sha256' }
    : { name: 'scrypt', ...scryptParams };
}

/**
 * Whether a header's KDF meets `target` (then it and its salt are kept; otherwise the vault is
 * re-keyed). An scrypt header meets an scrypt target when each of N, r and p is at least the
 * target's, so a vault at or above today's cost is never re-keyed down (one with any parameter
 * below the target's is re-keyed to the target, as before). Otherwise a passphrase vault from a
 * newer Airlock, or one opened through a key file holding the same text (whose default is
 * N=2^15), would be re-keyed to cheaper parameters without anyone asking; a header's parameters
 * are bounded anyway (kdfProblem).
 */
export function meetsTarget(k: KdfHeader, target: KdfTarget): boolean {
  if (k.name !== target.name) return false;
  if (k.name === 'hkdf-sha256' || target.name === 'hkdf-sha256') return true;
  return k.N >= target.N && k.r >= target.r && k.p >= target.p;
}

/** `target` with a fresh random salt. */
export function freshKdf(target: KdfTarget): KdfHeader {
  return { ...target, salt: randomBytes(SALT_BYTES).toString('base64') };
}

export function sameKdf(a: KdfHeader, b: KdfHeader): boolean {
  if (a.name !== b.name || a.salt !== b.salt) return false;
  if (a.name === 'hkdf-sha256' || b.name === 'hkdf-sha256') return true;
  return a.N === b.N && a.r === b.r && a.p === b.p;
}

/**
 * The KDF part of the header's additional data, in one fixed field order. scrypt's is exactly
 * what every version wrote ({name, N, r, p, salt}), so existing vaults open.
 */
export function kdfAadFields(k: KdfHeader): Record<string, unknown> {
  if (k.name === 'hkdf-sha256') return { name: k.name, salt: k.salt };
  return { name: k.name, N: k.N, r: k.r, p: k.p, salt: k.salt };
}

/**
 * The 256-bit key. scrypt with a memory cap of exactly what its parameters need (OpenSSL:
 * 128·r·(N+2+p) bytes); HKDF-SHA256 from the key file's decoded bytes (base64Key()) — a header
 * naming HKDF for a key file that is not base64 of ≥ 32 bytes is refused, never derived. An HKDF
 * header opens from any such key file, not only keyMaterial()'s, so a vault keyed under an earlier,
 * looser rule still opens; its next write re-keys it (kdfTarget gives scrypt for such a file).
 */
export function derive(secret: string, kdf: KdfHeader): Promise<Buffer> {
  const salt = Buffer.from(kdf.salt, 'base64');
  if (kdf.name === 'hkdf-sha256') {
    const ikm = base64Key(secret);
    if (!ikm)
      return Promise.reject(
        new Error('the vault names HKDF, but the key file does not hold base64 key material'),
      );
    return Promise.resolve(Buffer.from(hkdfSync('sha256', ikm, salt, HKDF_INFO, 32)));
  }
  const { N, r, p } = kdf;
  const maxmem = 128 * r * (N + 2 + p) + 64 * 1024;
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, 32, { N, r, p, maxmem }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}
