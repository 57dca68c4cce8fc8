// Value transformers for data at rest (upstream: k8s.io/apiserver/pkg/storage/value,
// transformer.go, and encrypt/identity): a stored value carries the prefix
// of what wrote it; reading picks the transformer by prefix, writing always
// uses the first. Sync, as node:crypto and NaCl secretbox are.

/** The storage form of one value and back; `authenticatedData` is the storage key (upstream: authenticatedDataString). */
export interface Transformer {
  /** Stored bytes → plaintext. `stale`: read by other than the first (writing) provider or key, so a rewrite is due. */
  fromStorage(data: Uint8Array, authenticatedData: string): { data: Uint8Array; stale: boolean };
  toStorage(data: Uint8Array, authenticatedData: string): Uint8Array;
}

/** Reserved for encrypted data on disk: the identity transformer refuses to read it. */
export const ENCRYPTED_PREFIX = 'k8s:enc:';

const ENCRYPTED = Buffer.from(ENCRYPTED_PREFIX);

/** Whether stored bytes carry an encryption prefix. */
export function isEncrypted(data: Uint8Array): boolean {
  return data.length >= ENCRYPTED.length && ENCRYPTED.equals(data.subarray(0, ENCRYPTED.length));
}

/** The `identity` provider (upstream: NewEncryptCheckTransformer): stores as is, refuses to read encrypted data. */
export const identity: Transformer = {
  fromStorage(data) {
    if (isEncrypted(data)) throw new Error('identity transformer tried to read encrypted data');
    return { data, stale: false };
  },
  toStorage: (data) => data,
};

export interface PrefixTransformer {
  prefix: Uint8Array;
  transformer: Transformer;
}

/**
 * Tries each transformer whose prefix the data starts with, in order
 * (upstream: NewPrefixTransformers). A failure does not stop the search: two
 * aescbc providers share a prefix while one key is rotated in; an empty
 * prefix (identity) that fails is skipped silently. Writes use the first.
 */
export class PrefixTransformers implements Transformer {
  constructor(
    private readonly transformers: readonly PrefixTransformer[],
    /** Upstream's error when nothing matches (e.g. "no matching key was found for the provided AES transformer"). */
    private readonly noMatch: string,
  ) {
    if (transformers.length === 0) throw new Error('PrefixTransformers needs at least one transformer');
  }

  fromStorage(data: Uint8Array, authenticatedData: string): { data: Uint8Array; stale: boolean } {
    const errs: string[] = [];
    for (let i = 0; i < this.transformers.length; i++) {
      const { prefix, transformer } = this.transformers[i]!;
      if (!hasPrefix(data, prefix)) continue;
      try {
        const r = transformer.fromStorage(data.subarray(prefix.length), authenticatedData);
        return { data: r.data, stale: r.stale || i !== 0 };
      } catch (err) {
        if (prefix.length > 0) errs.push((err as Error).message);
      }
    }
    // errors.Reduce(NewAggregate(errs)): one error as is, several as "[a, b]".
    if (errs.length === 1) throw new Error(errs[0]);
    if (errs.length > 1) throw new Error(`[${errs.join(', ')}]`);
    throw new Error(this.noMatch);
  }

  toStorage(data: Uint8Array, authenticatedData: string): Uint8Array {
    const { prefix, transformer } = this.transformers[0]!;
    const body = transformer.toStorage(data, authenticatedData);
    const out = Buffer.allocUnsafe(prefix.length + body.length);
    out.set(prefix, 0);
    out.set(body, prefix.length);
    return out;
  }
}

function hasPrefix(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false;
  return true;
}
