// framework.Handle: what a plugin may use besides its arguments — the node
// snapshot, the framework itself (preemption re-runs filters) and the API
// actions (binding, deleting victims) the scheduler wires to its client.

import type { PersistentVolume, PersistentVolumeClaim, Pod, PodDisruptionBudget, StorageClass } from '@kubelab/api';
import type { CycleState } from './cycle-state.js';
import type { NodeInfo } from './node-info.js';
import type { Status } from './status.js';

export interface SnapshotLister {
  /** Every node the scheduler knows, in scheduling order. */
  list(): readonly NodeInfo[];
  get(name: string): NodeInfo | undefined;
}

/** API side effects; unset ones make the plugin report an Error status. */
export interface ClusterActions {
  /** POST pods/{name}/binding. */
  bind?(pod: Pod, nodeName: string): Promise<void>;
  /** Deletes a preemption victim (marked DisruptionTarget first, naming the preemptor's scheduler). */
  deletePod?(pod: Pod, preemptor?: Pod): Promise<void>;
  /** Writes status.nominatedNodeName. */
  setNominatedNodeName?(pod: Pod, nodeName: string): Promise<void>;
  /** The PodDisruptionBudgets the preemption dry run weighs victims against (upstream: the Evaluator's PDB lister). */
  podDisruptionBudgets?(): readonly PodDisruptionBudget[];
  /** Records an event about `regarding` (pod), with the related object when there is one. */
  event?(regarding: Pod, type: 'Normal' | 'Warning', reason: string, action: string, message: string, related?: Pod): void;
  /** Writes a claim (VolumeBinding: the selected-node annotation) and a volume (its claimRef). */
  updateClaim?(claim: PersistentVolumeClaim): Promise<void>;
  updateVolume?(volume: PersistentVolume): Promise<void>;
}

/** The storage objects VolumeBinding reads (upstream: the PVC, PV and StorageClass listers of the informer factory). */
export interface VolumeListers {
  claim(namespace: string, name: string): PersistentVolumeClaim | undefined;
  volumes(): PersistentVolume[];
  storageClass(name: string): StorageClass | undefined;
  /** Resolves once every named claim (`ns/name`) is bound, as the PV controller finishes binding; rejects after timeoutMs. */
  waitForBound(claims: readonly string[], timeoutMs: number): Promise<void>;
}

export interface Handle {
  snapshot: SnapshotLister;
  actions: ClusterActions;
  /** Absent: no storage informers (VolumeBinding reports an Error status for pods with claims). */
  volumes?: VolumeListers;
  /** Filters of the profile, with nothing skipped, counting pods nominated to the node (used by preemption dry runs). */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined;
}
