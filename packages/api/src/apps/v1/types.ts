// apps/v1 (k8s.io/api/apps/v1): Deployment, ReplicaSet, DaemonSet with upstream field names.
import type { IntOrString, KubeList, KubeObject, LabelSelector, ObjectMeta, Time } from '../../meta/types.js';
import type { ConditionStatus, PersistentVolumeClaim, PodTemplateSpec } from '../../core/v1/types.js';

export type DeploymentStrategyType = 'Recreate' | 'RollingUpdate';

export interface RollingUpdateDeployment {
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
}

export interface DeploymentStrategy {
  type?: DeploymentStrategyType;
  rollingUpdate?: RollingUpdateDeployment;
}

export interface DeploymentSpec {
  replicas?: number;
  selector: LabelSelector;
  template: PodTemplateSpec;
  strategy?: DeploymentStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}

/** Deployment condition types: Available, Progressing, ReplicaFailure. */
export type DeploymentConditionType = 'Available' | 'Progressing' | 'ReplicaFailure';

export interface DeploymentCondition {
  type: DeploymentConditionType;
  status: ConditionStatus;
  lastUpdateTime?: Time;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  terminatingReplicas?: number;
  conditions?: DeploymentCondition[];
  collisionCount?: number;
}

export interface Deployment extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'Deployment';
  metadata: ObjectMeta;
  spec?: DeploymentSpec;
  status?: DeploymentStatus;
}
export type DeploymentList = KubeList<Deployment>;

export interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector: LabelSelector;
  template?: PodTemplateSpec;
}

export type ReplicaSetConditionType = 'ReplicaFailure';

export interface ReplicaSetCondition {
  type: ReplicaSetConditionType | (string & {});
  status: ConditionStatus;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface ReplicaSetStatus {
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  terminatingReplicas?: number;
  observedGeneration?: number;
  conditions?: ReplicaSetCondition[];
}

export interface ReplicaSet extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'ReplicaSet';
  metadata: ObjectMeta;
  spec?: ReplicaSetSpec;
  status?: ReplicaSetStatus;
}
export type ReplicaSetList = KubeList<ReplicaSet>;

export type DaemonSetUpdateStrategyType = 'RollingUpdate' | 'OnDelete';

export interface RollingUpdateDaemonSet {
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
}

export interface DaemonSetUpdateStrategy {
  type?: DaemonSetUpdateStrategyType;
  rollingUpdate?: RollingUpdateDaemonSet;
}

export interface DaemonSetSpec {
  selector: LabelSelector;
  template: PodTemplateSpec;
  updateStrategy?: DaemonSetUpdateStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
}

export interface DaemonSetCondition {
  type: string;
  status: ConditionStatus;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface DaemonSetStatus {
  currentNumberScheduled: number;
  numberMisscheduled: number;
  desiredNumberScheduled: number;
  numberReady: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
  conditions?: DaemonSetCondition[];
}

export interface DaemonSet extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'DaemonSet';
  metadata: ObjectMeta;
  spec?: DaemonSetSpec;
  status?: DaemonSetStatus;
}
export type DaemonSetList = KubeList<DaemonSet>;

export type PodManagementPolicyType = 'OrderedReady' | 'Parallel';
export type StatefulSetUpdateStrategyType = 'RollingUpdate' | 'OnDelete';
export type PersistentVolumeClaimRetentionPolicyType = 'Retain' | 'Delete';

export interface RollingUpdateStatefulSetStrategy {
  partition?: number;
  maxUnavailable?: IntOrString;
}

export interface StatefulSetUpdateStrategy {
  type?: StatefulSetUpdateStrategyType;
  rollingUpdate?: RollingUpdateStatefulSetStrategy;
}

export interface StatefulSetPersistentVolumeClaimRetentionPolicy {
  whenDeleted?: PersistentVolumeClaimRetentionPolicyType;
  whenScaled?: PersistentVolumeClaimRetentionPolicyType;
}

export interface StatefulSetOrdinals {
  start?: number;
}

/** A volumeClaimTemplates item: an embedded PersistentVolumeClaim (its metadata and spec). */
export type StatefulSetVolumeClaimTemplate = PersistentVolumeClaim;

export interface StatefulSetSpec {
  replicas?: number;
  selector: LabelSelector;
  template: PodTemplateSpec;
  volumeClaimTemplates?: StatefulSetVolumeClaimTemplate[];
  serviceName?: string;
  podManagementPolicy?: PodManagementPolicyType;
  updateStrategy?: StatefulSetUpdateStrategy;
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  persistentVolumeClaimRetentionPolicy?: StatefulSetPersistentVolumeClaimRetentionPolicy;
  ordinals?: StatefulSetOrdinals;
}

export interface StatefulSetCondition {
  type: string;
  status: ConditionStatus;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  conditions?: StatefulSetCondition[];
  availableReplicas?: number;
}

export interface StatefulSet extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'StatefulSet';
  metadata: ObjectMeta;
  spec?: StatefulSetSpec;
  status?: StatefulSetStatus;
}
export type StatefulSetList = KubeList<StatefulSet>;

/** An immutable snapshot of a controller's state (a DaemonSet's or StatefulSet's template patch), numbered by revision. */
export interface ControllerRevision extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'ControllerRevision';
  metadata: ObjectMeta;
  /** runtime.RawExtension: any JSON object. */
  data?: Record<string, unknown>;
  revision: number;
}
export type ControllerRevisionList = KubeList<ControllerRevision>;
