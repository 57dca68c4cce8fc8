// @kubelab/kube-network-policies: the per-node NetworkPolicy agent and its pure renderer.

export { startPolicyAgent, type PolicyAgentOptions, type PolicyAgentHandle } from './server.js';
export { parsePolicyAgentCommand, policyAgentFlags, type PolicyAgentCommand } from './options.js';
export { PolicyController, type PolicyControllerOptions, type RulesView } from './controller.js';
export {
  renderPolicies,
  toIptablesSave,
  restoreInput,
  parseSaved,
  policyPartOfSave,
  policyChainName,
  INGRESS_CHAIN,
  EGRESS_CHAIN,
  POLICY_JUMPS,
  type PolicyInputs,
  type PolicyRuleset,
  type Chain,
} from './render.js';
export { decisionInput, resolvePort, PolicySelection, type PolicyDecisionInput, type AllowEntry, type PortSpec } from './resolve.js';
export { writePolicyDecisionInput, POLICIES_FILE } from './socket-lb.js';
export { applyRuleset, probeIptables, readBack } from './apply.js';
export { execRunner, type CommandRunner, type CommandResult } from '@kubelab/component-base';
