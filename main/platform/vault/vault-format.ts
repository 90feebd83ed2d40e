import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { VaultError } from './vault.js';
import { kdfAadFields, kdfProblem, SALT_BYTES, type KdfHeader } from './vault-kdf.js';

// Where the tests and select.ts have always found them.
export { KDF_BOUNDS, KDF_DEFAULTS, type KdfHeader, type KdfParams } from './vault-kdf.js';

/**
 * The file vault's on-disk format, v1 (file-vault.ts): one JSON object, the
 * header (format, v, kdf, keySource, cipher) followed by nonce, tag and data.
 * The KDF (vault-kdf.ts: HKDF-SHA256 for Airlock's own key files, scrypt for
 * passphrases and any other key file) derives a 256-bit key; AES-256-GCM
 * (NIST SP 800-38D) encrypts the whole secret map with the header, in one
 * canonical field order, as additional data — so any edit of the header fails
 * the tag.
 *
 *   {"format":"airlock-vault","v":1,
 *    "kdf":{"name":"scrypt","N":131072,"r":8,"p":1,"salt":B64} | {"name":"hkdf-sha256","salt":B64},
 *    "keySource":"passphrase"|"key-file","cipher":"aes-256-gcm",
 *    "nonce":B64(12 bytes),"tag":B64(16 bytes),"data":B64(ciphertext of the map as JSON)}
 *
 * The additional data is JSON.stringify of {format, v, kdf, keySource, cipher}
 * in that order, kdf's fields as listed above. docs/security.md "File vault"
 * says how to decrypt a vault with nothing but this description.
 */
export const FORMAT = 'airlock-vault';

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

/** The additional data: the header's fields in one fixed order, whatever order the file has. */
function aad(h: Header): Buffer {
  return Buffer.from(
    JSON.stringify({
      format: h.format,
      v: h.v,
      kdf: kdfAadFields(h.kdf),
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
  let e: Partial<Envelope> & { kdf?: Record<string, unknown> };
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
  if (!k || typeof k !== 'object') throw damaged('unknown KDF');
  if (k.name === 'hkdf-sha256') {
    // HKDF only ever keys a key file of random bytes: with a passphrase it would be an unstretched
    // guessable secret, so such a header was altered (vault-kdf.ts). Nothing is derived from it.
    if (e.keySource !== 'key-file') throw damaged('an HKDF header for a passphrase vault');
    // Its additional data holds name and salt only, so nothing else may stand there unauthenticated.
    if (Object.keys(k).some((f) => f !== 'name' && f !== 'salt'))
      throw damaged('unknown fields in the HKDF header');
  } else if (k.name === 'scrypt') {
    const problem = kdfProblem(k);
    if (problem)
      throw new VaultError(
        'VAULT_LOCKED',
        `The file vault ${path} names scrypt parameters Airlock does not accept (${problem}): the file was altered, or made by a newer Airlock. Nothing was changed; restore it from a backup, or open it with the Airlock that made it.`,
      );
  } else throw damaged('unknown KDF');
  if (!b64(k.salt) || Buffer.from(k.salt as string, 'base64').length < SALT_BYTES)
    throw damaged('bad salt');
  if (!b64(e.nonce, 12) || !b64(e.tag, 16) || !b64(e.data)) throw damaged('bad nonce, tag or data');
  return e as Envelope;
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
