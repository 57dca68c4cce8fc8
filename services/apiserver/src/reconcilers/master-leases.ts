// The lease endpoint reconciler's leases (upstream
// pkg/controlplane/reconcilers/lease.go, storageLeases): every apiserver keeps
// a key /registry/masterleases/<its IP> fresh, and the live keys are the
// addresses of the `kubernetes` Service. etcd expires such a key by its TTL;
// NATS KV (2.10) has no per-key TTL, so the value carries its expiry and
// readers drop what has expired (the reconciler deletes it).

export const MASTER_LEASES_PREFIX = '/registry/masterleases/';

/** DefaultEndpointReconcilerTTL: a lease not renewed within 15 s is gone. */
export const MASTER_LEASE_TTL_MS = 15_000;
/** DefaultEndpointReconcilerInterval: each apiserver renews and reconciles every 10 s. */
export const ENDPOINT_RECONCILER_INTERVAL_MS = 10_000;

export function masterLeaseKey(ip: string): string {
  return `${MASTER_LEASES_PREFIX}${ip}`;
}

/** The stored lease: an Endpoints object with the IP, as upstream stores it, and when it expires. */
export function encodeMasterLease(ip: string, expiresAtMs: number): Uint8Array {
  const lease = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: ip, annotations: { 'kubelab.io/expires': new Date(expiresAtMs).toISOString() } },
    subsets: [{ addresses: [{ ip }] }],
  };
  return Buffer.from(JSON.stringify(lease));
}

export interface StoredLease {
  key: string;
  value: Uint8Array;
  rev: number;
}

export interface LeaseView {
  /** The live apiservers' IPs, in key order (etcd lists keys sorted). */
  ips: string[];
  /** Leases past their expiry (or unreadable): the reconciler deletes them at their revision. */
  expired: { key: string; rev: number }[];
}

/** Which leases are live at `nowMs`. Pure. */
export function liveMasterLeases(entries: readonly StoredLease[], nowMs: number): LeaseView {
  const view: LeaseView = { ips: [], expired: [] };
  for (const e of [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    const lease = parseLease(e.value);
    if (lease && lease.expiresAtMs > nowMs && e.key === masterLeaseKey(lease.ip)) view.ips.push(lease.ip);
    else view.expired.push({ key: e.key, rev: e.rev });
  }
  return view;
}

function parseLease(value: Uint8Array): { ip: string; expiresAtMs: number } | undefined {
  try {
    const o = JSON.parse(Buffer.from(value).toString('utf8')) as {
      subsets?: { addresses?: { ip?: unknown }[] }[];
      metadata?: { annotations?: Record<string, unknown> };
    };
    const ip = o.subsets?.[0]?.addresses?.[0]?.ip;
    const expires = Date.parse(String(o.metadata?.annotations?.['kubelab.io/expires']));
    return typeof ip === 'string' && Number.isFinite(expires) ? { ip, expiresAtMs: expires } : undefined;
  } catch {
    return undefined;
  }
}
