// What every handler gets: the registry and the injectable edges.

import type { Registry } from '../registry/interface.js';
import type { RequestRecorder } from '../registry/store.js';
import type { KubeletClientConfig } from './kubelet-client.js';
import type { TokenRequestREST } from '../serviceaccount/token-request.js';
import type { PodDialer } from './pod-tunnel.js';

export interface KubeletAddress {
  host: string;
  port: number;
}

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

export interface HandlerEnv {
  registry: Registry;
  now: () => Date;
  maxBodyBytes: number;
  version: VersionInfo;
  kubeletAddress: (nodeName: string) => Promise<KubeletAddress>;
  /** The apiserver's TLS towards kubelets (--kubelet-client-certificate, …). */
  kubeletClient: KubeletClientConfig;
  /** How pods/proxy and services/proxy reach a pod (kubelab: through its kubelet); absent: its IP is dialled, as upstream. */
  podDialer?: PodDialer;
  /** serviceaccounts/token; absent (no signing key) the subresource is not served, as upstream without an issuer. */
  tokenRequest?: TokenRequestREST;
  /** Request metrics for what the handlers serve themselves (subresources). */
  requestMetrics?: RequestRecorder;
}
