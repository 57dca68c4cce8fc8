// The backend for a --proxy-mode (upstream cmd/kube-proxy's choice of proxier).

import type { ProxyMode } from '../config.js';
import type { Backend } from './backend.js';
import { IptablesBackend } from './iptables/backend.js';
import { IpvsBackend } from './ipvs/backend.js';
import { NftablesBackend } from './nftables/backend.js';

/** A new backend for a mode; it keeps the state partial syncs need, so use one per proxier. */
export function backendFor(mode: ProxyMode, opts: { batchChains?: number } = {}): Backend {
  if (mode === 'nftables') return new NftablesBackend(opts.batchChains);
  if (mode === 'ipvs') return new IpvsBackend();
  return new IptablesBackend(opts.batchChains);
}
