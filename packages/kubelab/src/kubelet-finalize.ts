// kubeadm init's kubelet-finalize phase (enable-client-cert-rotation): once
// the control-plane node's kubelet has put kubeadm's first client
// certificate into its store (<root-dir>/pki, from where it rotates it),
// kubelet.conf names kubelet-client-current.pem instead of embedding that
// first pair, so a restarted kubelet reads the certificate it keeps renewing.
// Upstream checks for the file once, after the kubelet is up; kubelab's
// runner starts this phase with the kubelet, so it waits (bounded) instead.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pointUserAtCertificateFile } from '@kubelab/pki/kubeconfig';

export interface KubeletFinalizeOptions {
  /** The node's kubelet.conf, as kubeadm init wrote it. */
  kubeconfigPath: string;
  /** The kubelet's --cert-dir (<root-dir>/pki). */
  certDir: string;
  log: (line: string) => void;
  cancelled: () => boolean;
  timeoutMs?: number;
}

/** Rewrites kubelet.conf once the store's current pair exists; false when it did not appear in time (kubelet.conf is then left as it was). */
export async function kubeletFinalizePhase(o: KubeletFinalizeOptions): Promise<boolean> {
  const pem = join(o.certDir, 'kubelet-client-current.pem');
  const deadline = Date.now() + (o.timeoutMs ?? 120_000);
  // A one-time wait for the kubelet to start (it stores the pair at once).
  while (!existsSync(pem)) {
    if (o.cancelled() || Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 250));
  }
  o.log(`[kubelet-finalize] Updating "${o.kubeconfigPath}" to point to a rotatable kubelet client certificate and key`);
  writeFileSync(o.kubeconfigPath, pointUserAtCertificateFile(readFileSync(o.kubeconfigPath, 'utf8'), pem), { mode: 0o600 });
  return true;
}
