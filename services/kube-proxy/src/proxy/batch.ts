// A large sync cut into several kernel transactions (kubelab's addition to
// upstream's apply, for iptables-nft and nft at 100,000 chains): the batch
// size and how service units and chain names are cut into batches.

/**
 * Chains one kernel transaction may (re)write. iptables-nft 1.8's
 * `iptables-restore --noflush` keeps the chains a restore names in a sorted
 * linked list (its cache request), so a restore's cost grows with lines ×
 * chains: 110,000 chains in one restore take minutes. nft's per-transaction
 * cost for anonymous verdict maps (`numgen ... vmap`) grows the same way.
 * Larger syncs write service chains in batches of whole services, each
 * batch consistent, and the top-level chains that reference them last.
 */
export const APPLY_BATCH_CHAINS = 2000;

/** Splits units into batches of at most `max` chains (a unit larger than that is a batch of its own). */
export function batchUnits<U extends { chains: string[] }>(units: U[], max: number): U[][] {
  const out: U[][] = [];
  let cur: U[] = [];
  let n = 0;
  for (const u of units) {
    if (cur.length > 0 && n + u.chains.length > max) {
      out.push(cur);
      cur = [];
      n = 0;
    }
    cur.push(u);
    n += u.chains.length;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

/** Splits items into runs of at most `size`. */
export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
