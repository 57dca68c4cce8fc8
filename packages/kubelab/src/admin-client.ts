// The runner's own API client: kubernetes-admin (admin.conf) over the local
// apiserver's gRPC port, as kubeadm's phases talk to the cluster they set up.

import { clientTlsFromKubeconfig, createClientset, type Clientset } from '@kubelab/client';
import { kubeadmFiles, type Layout } from './topology.js';

export function adminClientset(layout: Layout): Clientset {
  return createClientset({ address: `127.0.0.1:${layout.ports.apiserverGrpc}`, tls: clientTlsFromKubeconfig(kubeadmFiles(layout).admin), component: 'kubeadm' });
}
