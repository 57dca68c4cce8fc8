// The cluster map as the server sends it to the page (type imports only: the page bundles this file).

import type { TaintView, TolerationView } from './countdown.js';

export type { TaintView, TolerationView };

export interface NodeView {
  name: string;
  /** The Ready condition's status: True, False, Unknown (no condition yet). */
  ready: string;
  reason?: string;
  /** The kubelet's last lease renewal (ms), its heartbeat. */
  heartbeat?: number;
  leaseDurationSeconds?: number;
  /** The last CRI record from this node's runtime (ms). */
  lastCri?: number;
  taints: string[];
  /** The same taints with their timeAdded, for the eviction countdowns. */
  taintDetails?: TaintView[];
  /** Conditions other than Ready that are True (a fault's, e.g. KernelDeadlock, DiskPressure), as `Type` or `Type (Reason)`. */
  problems?: string[];
  controlPlane: boolean;
  unschedulable: boolean;
}

export interface PodView {
  namespace: string;
  name: string;
  node?: string;
  phase: string;
  ready: boolean;
  deleting: boolean;
  owner?: string;
  /** The tolerations that can apply to NoExecute taints (the taint eviction countdown). */
  tolerations?: TolerationView[];
}

export interface ComponentView {
  name: string;
  state: 'up' | 'down' | 'unknown';
  detail?: string;
  /** A leader's last lease renewal (ms): the page greys the component once it is older than the lease. */
  heartbeat?: number;
  leaseDurationSeconds?: number;
}

export interface DeploymentView {
  namespace: string;
  name: string;
  replicas: number;
  readyReplicas: number;
}

export interface MapState {
  nodes: NodeView[];
  deployments: DeploymentView[];
  pods: PodView[];
  components: ComponentView[];
  /** The controller-manager's --node-monitor-grace-period as the dashboard was told (for the countdown). */
  nodeMonitorGracePeriodMs: number;
}
