// The schema of apps/v1 Deployment, ReplicaSet, DaemonSet (k8s.io/api/apps/v1 types.go).

import { cond, top, type TypeDef } from './definition.js';

export const APPS_TYPES: Record<string, TypeDef> = {
  Deployment: {
    group: 'apps',
    protobuf: true,
    description: 'A Deployment declares pods by a template and a replica count; it rolls changes out through ReplicaSets.',
    fields: top({ spec: ['DeploymentSpec', 'The desired state.', { protobuf: 2 }], status: ['DeploymentStatus', 'The observed state.'] }),
  },
  DeploymentSpec: {
    group: 'apps',
    description: 'The desired state of a deployment.',
    fields: {
      replicas: ['int32', 'Desired number of pods. Defaults to 1.', { protobuf: 1, keepZero: true }],
      selector: ['LabelSelector', 'Selects the pods it manages; must match the template labels. Immutable.', { required: true, protobuf: 2 }],
      template: ['PodTemplateSpec', 'The pods to create.', { required: true, protobuf: 3 }],
      strategy: ['DeploymentStrategy', 'How old pods are replaced by new ones.', { patchStrategy: 'retainKeys', protobuf: 4 }],
      minReadySeconds: ['int32', 'Seconds a new pod must be ready to count as available.', { protobuf: 5 }],
      revisionHistoryLimit: ['int32', 'Old ReplicaSets to keep for rollback. Defaults to 10.', { protobuf: 6, keepZero: true }],
      paused: ['boolean', 'Pause the rollout.', { protobuf: 7 }],
      progressDeadlineSeconds: ['int32', 'Seconds before a stalled rollout is reported. Defaults to 600.', { protobuf: 9, keepZero: true }],
    },
  },
  DeploymentStrategy: {
    group: 'apps',
    description: 'How a deployment replaces pods.',
    fields: { type: ['string', 'RollingUpdate (default) or Recreate.', { protobuf: 1 }], rollingUpdate: ['RollingUpdateDeployment', 'Rolling update parameters.', { protobuf: 2 }] },
  },
  RollingUpdateDeployment: {
    group: 'apps',
    description: 'Rolling update parameters.',
    fields: {
      maxUnavailable: ['IntOrString', 'Pods that may be unavailable during the update (number or percentage). Defaults to 25%.', { protobuf: 1 }],
      maxSurge: ['IntOrString', 'Pods that may be created above the desired count. Defaults to 25%.', { protobuf: 2 }],
    },
  },
  DeploymentStatus: {
    group: 'apps',
    description: 'The observed state of a deployment.',
    fields: {
      observedGeneration: ['int64', 'The generation observed.'],
      replicas: ['int32', 'Pods targeted.'],
      updatedReplicas: ['int32', 'Pods with the current template.'],
      readyReplicas: ['int32', 'Ready pods.'],
      availableReplicas: ['int32', 'Available pods.'],
      unavailableReplicas: ['int32', 'Unavailable pods.'],
      terminatingReplicas: ['int32', 'Terminating pods.'],
      conditions: ['[]DeploymentCondition', 'Available, Progressing, ReplicaFailure.', { patchStrategy: 'merge', patchMergeKey: 'type' }],
      collisionCount: ['int32', 'Hash collisions seen.'],
    },
  },
  DeploymentCondition: { group: 'apps', description: 'A deployment condition.', fields: { ...cond('deployment'), lastUpdateTime: ['Time', 'Last update.'] } },
  ReplicaSet: {
    group: 'apps',
    description: 'A ReplicaSet keeps a number of identical pods running.',
    fields: top({ spec: ['ReplicaSetSpec', 'The desired state.'], status: ['ReplicaSetStatus', 'The observed state.'] }),
  },
  ReplicaSetSpec: {
    group: 'apps',
    description: 'The desired state of a replica set.',
    fields: {
      replicas: ['int32', 'Desired pods. Defaults to 1.', { protobuf: 1, keepZero: true }],
      minReadySeconds: ['int32', 'Seconds ready to count as available.'],
      selector: ['LabelSelector', 'Selects its pods.', { required: true }],
      template: ['PodTemplateSpec', 'The pods to create.'],
    },
  },
  ReplicaSetStatus: {
    group: 'apps',
    description: 'The observed state of a replica set.',
    fields: {
      replicas: ['int32', 'Pods that exist.', { required: true }],
      fullyLabeledReplicas: ['int32', 'Pods with all template labels.'],
      readyReplicas: ['int32', 'Ready pods.'],
      availableReplicas: ['int32', 'Available pods.'],
      terminatingReplicas: ['int32', 'Terminating pods.'],
      observedGeneration: ['int64', 'Generation observed.'],
      conditions: ['[]ReplicaSetCondition', 'Conditions.', { patchStrategy: 'merge', patchMergeKey: 'type' }],
    },
  },
  ReplicaSetCondition: { group: 'apps', description: 'A replica set condition.', fields: cond('replica set') },
  DaemonSet: {
    group: 'apps',
    description: 'A DaemonSet runs one copy of a pod on every (selected) node, e.g. kube-proxy.',
    fields: top({ spec: ['DaemonSetSpec', 'The desired state.'], status: ['DaemonSetStatus', 'The observed state.'] }),
  },
  DaemonSetSpec: {
    group: 'apps',
    description: 'The desired state of a daemon set.',
    fields: {
      selector: ['LabelSelector', 'Selects its pods.', { required: true }],
      template: ['PodTemplateSpec', 'The pod to run on each node.', { required: true }],
      updateStrategy: ['DaemonSetUpdateStrategy', 'How pods are replaced.'],
      minReadySeconds: ['int32', 'Seconds ready to count as available.'],
      revisionHistoryLimit: ['int32', 'Old revisions to keep.'],
    },
  },
  DaemonSetUpdateStrategy: {
    group: 'apps',
    description: 'How a daemon set replaces pods.',
    fields: { type: ['string', 'RollingUpdate (default) or OnDelete.'], rollingUpdate: ['RollingUpdateDaemonSet', 'Rolling update parameters.'] },
  },
  RollingUpdateDaemonSet: {
    group: 'apps',
    description: 'Rolling update parameters.',
    fields: { maxUnavailable: ['IntOrString', 'Nodes whose pod may be unavailable.'], maxSurge: ['IntOrString', 'Nodes that may run an extra pod.'] },
  },
  DaemonSetStatus: {
    group: 'apps',
    description: 'The observed state of a daemon set.',
    fields: {
      currentNumberScheduled: ['int32', 'Nodes running a daemon pod.', { required: true }],
      numberMisscheduled: ['int32', 'Nodes running it that should not.', { required: true }],
      desiredNumberScheduled: ['int32', 'Nodes that should run it.', { required: true }],
      numberReady: ['int32', 'Nodes with a ready pod.', { required: true }],
      observedGeneration: ['int64', 'Generation observed.'],
      updatedNumberScheduled: ['int32', 'Nodes running the current template.'],
      numberAvailable: ['int32', 'Nodes with an available pod.'],
      numberUnavailable: ['int32', 'Nodes without an available pod.'],
      collisionCount: ['int32', 'Hash collisions seen.'],
      conditions: ['[]DaemonSetCondition', 'Conditions.', { patchStrategy: 'merge', patchMergeKey: 'type' }],
    },
  },
  DaemonSetCondition: { group: 'apps', description: 'A daemon set condition.', fields: cond('daemon set') },
};
