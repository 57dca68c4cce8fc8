// @kubelab/kube-proxy: the service and its pure renderers.

export { startKubeProxy, type KubeProxyOptions, type KubeProxyHandle } from './server.js';
export {
  renderKubeProxyConfig,
  kubeProxyConfigMap,
  parseKubeProxyConfiguration,
  defaultKubeProxyConfiguration,
  ConfigError,
  PROXY_MODES,
  CONFIGMAP_NAMESPACE,
  CONFIGMAP_NAME,
  CONFIGMAP_KEY,
  type KubeProxyConfiguration,
  type ProxyMode,
} from './config.js';
export { parseKubeProxyCommand, kubeProxyFlags } from './options.js';

export type { ProxySnapshot, ProxyConfig, ServicePortInfo, EndpointInfo } from './proxy/types.js';
export { defaultProxyConfig, masqueradeMark } from './proxy/types.js';
export { buildSnapshot, ServiceChangeTracker, EndpointsChangeTracker, takeSnapshot } from './proxy/changetracker.js';
export { servicePortName } from './proxy/serviceport.js';
export type { Backend, Rendered, SyncRequest, ApplyReport } from './proxy/backend.js';
export { backendFor } from './proxy/backends.js';
export { APPLY_BATCH_CHAINS } from './proxy/batch.js';
export { IptablesBackend } from './proxy/iptables/backend.js';
export { NftablesBackend } from './proxy/nftables/backend.js';
export { IpvsBackend } from './proxy/ipvs/backend.js';
export { categorizeEndpoints, type CategorizedEndpoints } from './proxy/endpoints.js';
export { FULL_SYNC_PERIOD_MS, type RulesView } from './proxy/proxier.js';

export { renderIptables, restoreInput, probability, IPTABLES_JUMPS, type IptablesRuleset, type IptablesJump, type IptablesUnit } from './proxy/iptables/renderer.js';
export { servicePortChainName, servicePortEndpointChainName, serviceExternalChainName, serviceLocalChainName } from './proxy/iptables/chains.js';
export { toIptablesSave, normalizeSaveOutput } from './proxy/iptables/save.js';
export { parseRestore } from './proxy/iptables/parse.js';
export { traceNat, type Packet, type TraceOutcome } from './proxy/iptables/trace.js';

export { renderNftables, servicePortChainNameBase, servicePortEndpointChainNameBase } from './proxy/nftables/renderer.js';
export { toNftScript, toNftList, normalizeNftList, type NftRuleset, type NftUnit, type NftScriptOptions } from './proxy/nftables/model.js';

export { renderIpvs, toIpvsCommands, toIpvsScript, toIpvsadmList, type IpvsRuleset } from './proxy/ipvs/renderer.js';
