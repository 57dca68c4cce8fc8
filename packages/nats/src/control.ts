// The control path to a node (the dashboard's "stop a component", "inject a
// fault"): a NATS request on kubelab.control.<node>, answered by that node's
// agent — the local runner for its nodes, the node container's node-agent in
// compose — which runs the node's own systemctl or node-fault and replies
// with their output. Only the dashboard's identity may publish there and only
// the node's agent may subscribe (identities.ts): the message is the admin
// action, as `systemctl stop kubelet` in a root shell on the node.

import { criSubjectToken } from '@kubelab/proto/cri-record';

/** The units a control request may stop or start (the node's systemd units). */
export const CONTROL_UNITS = ['kubelet', 'containerd', 'kube-proxy', 'node-problem-detector', 'kube-network-policies'] as const;
/**
 * The control plane's components a request to the control-plane node may
 * stop or start: kubeadm's static pods, which the local runner runs as its
 * processes (on a kubeadm node one moves the manifest out of
 * /etc/kubernetes/manifests instead; a compose node's systemctl has no such unit).
 */
export const CONTROL_PLANE_COMPONENTS = ['kube-scheduler', 'kube-controller-manager'] as const;
export type ControlUnit = (typeof CONTROL_UNITS)[number] | (typeof CONTROL_PLANE_COMPONENTS)[number];
const ALL_UNITS: readonly string[] = [...CONTROL_UNITS, ...CONTROL_PLANE_COMPONENTS];

export type NodeControlRequest =
  | { action: 'stop' | 'start'; unit: ControlUnit }
  /** A fault of @kubelab/node's catalogue (`kubelab fault list`), or its clearing. */
  | { action: 'fault'; fault: string; clear: boolean };

export interface NodeControlReply {
  ok: boolean;
  /** What the node's command printed (systemctl's or node-fault's lines). */
  output: string;
}

const SUBJECT_ROOT = 'kubelab.control';

/** Where a node's agent listens. */
export function controlSubject(node: string): string {
  return `${SUBJECT_ROOT}.${criSubjectToken(node)}`;
}

/** Every node's control subject (one token per node). */
export const CONTROL_SUBJECT_ALL = `${SUBJECT_ROOT}.*`;

/** The dashboard's replies come back on its own inbox (identities.ts). */
const FAULT_NAME = /^[a-z][a-z0-9-]{0,62}$/;

/** Validates a request's JSON (from the wire or the dashboard's body); an Error's message says what is wrong. */
export function parseNodeControlRequest(v: unknown): NodeControlRequest {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('the request must be a JSON object');
  const r = v as Record<string, unknown>;
  if (r.action === 'stop' || r.action === 'start') {
    if (typeof r.unit !== 'string' || !ALL_UNITS.includes(r.unit)) {
      throw new Error(`unit: one of ${ALL_UNITS.join(', ')} is required, got ${JSON.stringify(r.unit)}`);
    }
    return { action: r.action, unit: r.unit as ControlUnit };
  }
  if (r.action === 'fault') {
    if (typeof r.fault !== 'string' || !FAULT_NAME.test(r.fault)) throw new Error(`fault: a fault name (kubelab fault list) is required, got ${JSON.stringify(r.fault)}`);
    if (r.clear !== undefined && typeof r.clear !== 'boolean') throw new Error(`clear: true or false, got ${JSON.stringify(r.clear)}`);
    return { action: 'fault', fault: r.fault, clear: r.clear === true };
  }
  throw new Error(`action: stop, start or fault is required, got ${JSON.stringify(r.action)}`);
}

/** The command line a request stands for, as a person would type it in the node's shell. */
export function controlCommandLine(req: NodeControlRequest): string {
  if (req.action === 'fault') return `node-fault ${req.fault}${req.clear ? ' --clear' : ''}`;
  return isControlPlaneComponent(req.unit) ? `${req.action} ${req.unit} (static pod)` : `systemctl ${req.action} ${req.unit}`;
}

export function isControlPlaneComponent(unit: string): boolean {
  return (CONTROL_PLANE_COMPONENTS as readonly string[]).includes(unit);
}
