// The cluster side of nodes on other machines (`kubelab join`): each such
// node runs its own nats-server as a leaf node of the cluster's, connecting
// to the leafnode port with its kubelet's client certificate, the one the
// cluster CA issued through the node's CSR. nats-server knows its users from
// its configuration, so `kubelab up` watches the issued kubelet client
// certificates and, for each node it does not run itself, adds that node's
// leaf user (leafNodeNatsUser: the node's own subjects only) and reloads
// nats-server (SIGHUP), as an operator would edit nats.conf.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CertificateSigningRequest } from '@kubelab/api';
import { SharedInformerFactory } from '@kubelab/client';
import { adminClientset } from './admin-client.js';
import { certificateInfo } from '@kubelab/pki';
import { natsConfig, nodeNames, type Layout } from './topology.js';

const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
const NODE_USER_PREFIX = 'system:node:';
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
/** In the state dir: the nodes admitted so far (a JSON list of names). */
export const LEAF_NODES_FILE = 'nats-leaf-nodes.json';

function readKept(file: string): string[] {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return Array.isArray(v) ? v.filter((n): n is string => typeof n === 'string') : [];
  } catch {
    return [];
  }
}

/** The nodes holding an issued kubelet client certificate, less `local` ones; sorted. Pure. */
export function issuedNodes(csrs: readonly CertificateSigningRequest[], local: ReadonlySet<string>): string[] {
  const nodes = new Set<string>();
  for (const csr of csrs) {
    if (csr.spec?.signerName !== KUBELET_CLIENT_SIGNER || !csr.status?.certificate) continue;
    try {
      const info = certificateInfo(Buffer.from(csr.status.certificate, 'base64').toString('utf8'));
      if (!info.commonName.startsWith(NODE_USER_PREFIX) || !info.organizations.includes('system:nodes')) continue;
      const node = info.commonName.slice(NODE_USER_PREFIX.length);
      if (!local.has(node) && DNS_SUBDOMAIN.test(node)) nodes.add(node);
    } catch {
      // not a certificate: nothing to admit
    }
  }
  return [...nodes].sort();
}

export interface LeafAdmission {
  close(): void;
}

export function startLeafAdmission(o: { layout: Layout; reload: () => void; log: (line: string) => void }): LeafAdmission {
  const cs = adminClientset(o.layout);
  const local = new Set(nodeNames(o.layout));
  // Admitted nodes are kept in the state dir: the CSR cleaner deletes issued CSRs after an hour, a restart must not forget them.
  const file = join(o.layout.stateDir, LEAF_NODES_FILE);
  const kept = readKept(file);
  let admitted: string[] = [];
  // An informer on the CSRs (list, then watch): a node is admitted when its certificate is issued, no polling.
  const factory = new SharedInformerFactory(cs);
  const csrs = factory.certificates.certificateSigningRequests();
  const sync = () => {
    const all = [...new Set([...kept, ...admitted, ...issuedNodes(csrs.lister().list(), local)])].sort();
    if (all.join(',') === admitted.join(',')) return;
    for (const n of all.filter((n) => !admitted.includes(n))) o.log(`[leafnode] node "${n}" may connect its leaf node (NATS user CN=system:node:${n},O=system:nodes)`);
    writeFileSync(file, JSON.stringify(all) + '\n');
    writeFileSync(join(o.layout.stateDir, 'nats.conf'), natsConfig(o.layout, all));
    admitted = all;
    o.reload();
  };
  const safeSync = () => {
    try {
      sync();
    } catch (err) {
      o.log(`[leafnode] could not admit the joined nodes: ${(err as Error).message}`);
    }
  };
  // One sync per turn of the event loop however many CSRs arrive in it (the initial list, a burst of joins).
  let queued = false;
  const enqueue = () => {
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      safeSync();
    });
  };
  csrs.addEventHandler({ onAdd: enqueue, onUpdate: enqueue });
  factory.start();
  // The nodes kept from an earlier run are admitted at once, before the first list arrives.
  if (kept.length > 0) safeSync();
  return {
    close: () => {
      void factory.shutdown();
      cs.close();
    },
  };
}
