// One realistic object of every built-in kind, as the apiserver serves them
// (server-set metadata, defaults, status written by controllers and the
// kubelet): the protobuf round-trip tests and the bench encode these.

import type { KubeObject } from '@kubelab/api';

const meta = (name: string, namespace?: string, extra: Record<string, unknown> = {}) => ({
  name,
  ...(namespace ? { namespace } : {}),
  uid: '3c5d7e2a-1b9f-4c1e-9a57-0d6a2f4b8c11',
  resourceVersion: '4242',
  creationTimestamp: '2025-06-01T11:55:00Z',
  labels: { app: 'web', 'app.kubernetes.io/part-of': 'shop' },
  annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"X"}\n' },
  managedFields: [
    {
      manager: 'kubectl-client-side-apply',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2025-06-01T11:55:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
    },
  ],
  ...extra,
});

const podSpec = {
  volumes: [
    {
      // As the ServiceAccount admission plugin writes it: a token, the cluster CA and the namespace.
      name: 'kube-api-access-x7k2p',
      projected: {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
          { secret: { name: 'extra', items: [{ key: 'k', path: 'k' }], optional: true } },
        ],
      },
    },
    { name: 'cache', emptyDir: { sizeLimit: '1Gi' } },
    { name: 'conf', configMap: { name: 'web-conf', items: [{ key: 'nginx.conf', path: 'nginx.conf' }], defaultMode: 420 } },
  ],
  initContainers: [
    {
      name: 'init',
      image: 'busybox:1.36',
      command: ['sh', '-c', 'echo init'],
      resources: {},
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      imagePullPolicy: 'IfNotPresent',
    },
  ],
  containers: [
    {
      name: 'nginx',
      image: 'nginx:1.27',
      args: ['-g', 'daemon off;'],
      ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
      env: [
        { name: 'MODE', value: 'prod' },
        { name: 'NODE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
        { name: 'KEY', valueFrom: { configMapKeyRef: { name: 'web-conf', key: 'key', optional: true } } },
      ],
      envFrom: [{ secretRef: { name: 'web-secret' } }],
      resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m', memory: '64Mi' } },
      volumeMounts: [
        { name: 'cache', mountPath: '/var/cache/nginx' },
        { name: 'kube-api-access-x7k2p', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
      ],
      livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, initialDelaySeconds: 5, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
      readinessProbe: { tcpSocket: { port: 80 }, timeoutSeconds: 1, periodSeconds: 5, successThreshold: 1, failureThreshold: 3 },
      lifecycle: { preStop: { exec: { command: ['nginx', '-s', 'quit'] } } },
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      imagePullPolicy: 'IfNotPresent',
      securityContext: { runAsNonRoot: true, runAsUser: 101, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    },
  ],
  restartPolicy: 'Always',
  terminationGracePeriodSeconds: 30,
  dnsPolicy: 'ClusterFirst',
  nodeSelector: { 'kubernetes.io/os': 'linux' },
  serviceAccountName: 'default',
  serviceAccount: 'default',
  nodeName: 'node-1',
  securityContext: { fsGroup: 101 },
  affinity: {
    podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' } }] },
  },
  schedulerName: 'default-scheduler',
  tolerations: [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ],
  priority: 0,
  enableServiceLinks: true,
  preemptionPolicy: 'PreemptLowerPriority',
};

const template = { metadata: { labels: { app: 'web' } }, spec: podSpec };
const selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'edge'] }] };

export const POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: meta('web-7c9f8d6b5-x2x4k', 'default', {
    generateName: 'web-7c9f8d6b5-',
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7c9f8d6b5', uid: '9a0e2c4b-5d7f-4e31-8b6a-1c2d3e4f5a6b', controller: true, blockOwnerDeletion: true }],
  }),
  spec: podSpec,
  status: {
    phase: 'Running',
    conditions: [
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-06-01T11:55:01Z' },
      { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-06-01T11:55:09Z' },
    ],
    hostIP: '172.18.0.3',
    hostIPs: [{ ip: '172.18.0.3' }],
    podIP: '10.244.1.5',
    podIPs: [{ ip: '10.244.1.5' }],
    startTime: '2025-06-01T11:55:01Z',
    initContainerStatuses: [
      {
        name: 'init',
        state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: '2025-06-01T11:55:02Z', finishedAt: '2025-06-01T11:55:03Z', containerID: 'containerd://aa11' } },
        lastState: {},
        ready: true,
        restartCount: 0,
        image: 'docker.io/library/busybox:1.36',
        imageID: 'docker.io/library/busybox@sha256:5eef5ed34e1e1ff0a4ae850395cbf665c4de6b4b83a32a0bc7bcb998e24e7bbb',
        containerID: 'containerd://aa11',
        started: false,
      },
    ],
    containerStatuses: [
      {
        name: 'nginx',
        state: { running: { startedAt: '2025-06-01T11:55:04Z' } },
        lastState: { terminated: { exitCode: 137, signal: 9, reason: 'OOMKilled', startedAt: '2025-06-01T11:50:00Z', finishedAt: '2025-06-01T11:54:00Z' } },
        ready: true,
        restartCount: 1,
        image: 'docker.io/library/nginx:1.27',
        imageID: 'docker.io/library/nginx@sha256:0a399eb16751829e1af26fea27b20c3ec28d7ab1fb72182879dcae1cca21206a',
        containerID: 'containerd://bb22',
        started: true,
      },
    ],
    qosClass: 'Burstable',
  },
};

export const OBJECTS: Record<string, object> = {
  Pod: POD,
  Node: {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: meta('node-1'),
    spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'], taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule', timeAdded: '2025-06-01T11:00:00Z' }] },
    status: {
      capacity: { cpu: '4', memory: '8023756Ki', pods: '110', 'ephemeral-storage': '61202244Ki' },
      allocatable: { cpu: '4', memory: '7921356Ki', pods: '110' },
      conditions: [
        { type: 'Ready', status: 'True', lastHeartbeatTime: '2025-06-01T12:00:00Z', lastTransitionTime: '2025-06-01T11:00:10Z', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
      addresses: [
        { type: 'InternalIP', address: '172.18.0.3' },
        { type: 'Hostname', address: 'node-1' },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: 'm1',
        systemUUID: 's1',
        bootID: 'b1',
        kernelVersion: '6.8.0',
        osImage: 'kubelab',
        containerRuntimeVersion: 'containerd://1.7.0-kubelab',
        kubeletVersion: 'v1.32.4-kubelab',
        kubeProxyVersion: 'v1.32.4-kubelab',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      images: [{ names: ['docker.io/library/nginx@sha256:0a39', 'docker.io/library/nginx:1.27'], sizeBytes: 72099410 }],
    },
  },
  Namespace: {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: meta('shop', undefined, { deletionTimestamp: '2025-06-01T12:00:00Z' }),
    spec: { finalizers: ['kubernetes'] },
    status: {
      phase: 'Terminating',
      conditions: [
        { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', lastTransitionTime: '2025-06-01T12:00:01Z', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
      ],
    },
  },
  Service: {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta('web', 'default'),
    spec: {
      ports: [
        { name: 'http', protocol: 'TCP', port: 80, targetPort: 'http', nodePort: 30080 },
        { name: 'metrics', protocol: 'TCP', port: 9090, targetPort: 9090 },
      ],
      selector: { app: 'web' },
      clusterIP: '10.96.12.34',
      clusterIPs: ['10.96.12.34'],
      type: 'NodePort',
      sessionAffinity: 'None',
      externalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    },
    status: { loadBalancer: {} },
  },
  Endpoints: {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: meta('web', 'default'),
    subsets: [
      {
        addresses: [{ ip: '10.244.1.5', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-7c9f8d6b5-x2x4k', uid: 'u1' } }],
        notReadyAddresses: [{ ip: '10.244.2.7' }],
        ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
      },
    ],
  },
  ConfigMap: {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta('web-conf', 'default'),
    data: { 'nginx.conf': 'events {}\nhttp { server { listen 80; } }\n', key: 'v' },
    binaryData: { blob: 'AAECAwQ=' },
    immutable: false,
  },
  Secret: { apiVersion: 'v1', kind: 'Secret', metadata: meta('web-secret', 'default'), type: 'Opaque', data: { password: 'aHVudGVyMg==', empty: '' } },
  Event: {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: meta('web.17f3a2b4c5d6e7f8', 'default'),
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', apiVersion: 'v1', resourceVersion: '41', fieldPath: 'spec.containers{nginx}' },
    reason: 'Pulled',
    message: 'Successfully pulled image "nginx:1.27" in 1.2s',
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: '2025-06-01T11:55:03Z',
    lastTimestamp: '2025-06-01T11:58:03Z',
    count: 4,
    type: 'Normal',
    eventTime: '2025-06-01T11:55:03.123456Z',
    series: { count: 3, lastObservedTime: '2025-06-01T11:58:03.654321Z' },
    action: 'Pulling',
    reportingComponent: 'kubelet',
    reportingInstance: 'node-1',
  },
  ServiceAccount: {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: meta('ci', 'default'),
    secrets: [{ name: 'ci-token' }],
    imagePullSecrets: [{ name: 'regcred' }],
    automountServiceAccountToken: false,
  },
  Deployment: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('web', 'default', { generation: 3, annotations: { 'deployment.kubernetes.io/revision': '2' } }),
    spec: {
      replicas: 3,
      selector,
      template,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      minReadySeconds: 0,
    },
    status: {
      observedGeneration: 3,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastUpdateTime: '2025-06-01T11:56:00Z',
          lastTransitionTime: '2025-06-01T11:56:00Z',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        },
      ],
    },
  },
  ReplicaSet: {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: meta('web-7c9f8d6b5', 'default', { generation: 1 }),
    spec: { replicas: 0, selector, template },
    status: { replicas: 0, fullyLabeledReplicas: 0, observedGeneration: 1 },
  },
  DaemonSet: {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: meta('kube-proxy', 'kube-system', { generation: 1 }),
    spec: { selector, template, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10 },
    status: { currentNumberScheduled: 2, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 2, observedGeneration: 1, updatedNumberScheduled: 2, numberAvailable: 2 },
  },
  EndpointSlice: {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: meta('web-abcde', 'default'),
    addressType: 'IPv4',
    endpoints: [
      { addresses: ['10.244.1.5'], conditions: { ready: true, serving: true, terminating: false }, nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u1' } },
    ],
    ports: [{ name: 'http', protocol: 'TCP', port: 80 }],
  },
  Lease: {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: meta('node-1', 'kube-node-lease'),
    spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40, renewTime: '2025-06-01T12:00:00.123456Z', acquireTime: '2025-06-01T11:00:00.000001Z', leaseTransitions: 0 },
  },
  Role: {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: meta('pod-reader', 'default'),
    rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'pods/log'], resourceNames: ['web'] }],
  },
  ClusterRole: {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: meta('monitoring'),
    rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }],
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-monitoring': 'true' } }] },
  },
  RoleBinding: {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: meta('read-pods', 'default'),
    subjects: [
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' },
      { kind: 'ServiceAccount', name: 'ci', namespace: 'default' },
    ],
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
  },
  ClusterRoleBinding: {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: meta('admins'),
    subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' }],
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
  },
  SelfSubjectAccessReview: {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    metadata: { creationTimestamp: null },
    spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods', subresource: 'exec' } },
    status: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "admins" of ClusterRole "cluster-admin" to Group "system:masters"' },
  },
  SelfSubjectRulesReview: {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectRulesReview',
    metadata: {},
    spec: { namespace: 'default' },
    status: { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }], incomplete: false },
  },
  SubjectAccessReview: {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    metadata: {},
    spec: {
      nonResourceAttributes: { path: '/metrics', verb: 'get' },
      user: 'system:serviceaccount:monitoring:prometheus',
      groups: ['system:serviceaccounts', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/pod-name': ['prometheus-0'] },
      uid: 'u2',
    },
    status: { allowed: false, denied: true, reason: 'no RBAC policy matched', evaluationError: '' },
  },
  LocalSubjectAccessReview: {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'LocalSubjectAccessReview',
    metadata: { namespace: 'default' },
    spec: { resourceAttributes: { namespace: 'default', verb: 'get', group: 'apps', resource: 'deployments', name: 'web' }, user: 'jane' },
    status: { allowed: true },
  },
  TokenReview: {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenReview',
    metadata: {},
    spec: { token: 'eyJhbGciOiJSUzI1NiJ9.e30.sig', audiences: ['https://kubernetes.default.svc.cluster.local'] },
    status: {
      authenticated: true,
      user: {
        username: 'system:serviceaccount:default:ci',
        uid: 'u3',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
        extra: { 'authentication.kubernetes.io/credential-id': ['JTI=abc'] },
      },
      audiences: ['https://kubernetes.default.svc.cluster.local'],
    },
  },
  SelfSubjectReview: {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'SelfSubjectReview',
    metadata: { creationTimestamp: null },
    status: { userInfo: { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] } },
  },
  CertificateSigningRequest: {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: meta('node-csr-abc'),
    spec: {
      request: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K',
      signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
      expirationSeconds: 86400,
      usages: ['digital signature', 'client auth'],
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:authenticated'],
    },
    status: {
      conditions: [
        {
          type: 'Approved',
          status: 'True',
          reason: 'AutoApproved',
          message: 'Auto approving kubelet client certificate after SubjectAccessReview.',
          lastUpdateTime: '2025-06-01T11:00:01Z',
          lastTransitionTime: '2025-06-01T11:00:01Z',
        },
      ],
      certificate: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==',
    },
  },
  PodDisruptionBudget: {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { ...meta('web'), generation: 2 },
    spec: { maxUnavailable: '25%', selector: { matchLabels: { app: 'web' } }, unhealthyPodEvictionPolicy: 'AlwaysAllow' },
    status: {
      observedGeneration: 2,
      disruptedPods: { 'web-1': '2025-06-01T11:00:01Z' },
      disruptionsAllowed: 1,
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 4,
      conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', observedGeneration: 2, lastTransitionTime: '2025-06-01T11:00:01Z' }],
    },
  },
  PriorityClass: {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: meta('high'),
    value: 1000,
    globalDefault: true,
    description: 'For the important pods.',
    preemptionPolicy: 'Never',
  },
  LimitRange: {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: meta('limits'),
    spec: {
      limits: [
        { type: 'Container', max: { cpu: '1' }, min: { cpu: '50m' }, default: { cpu: '500m', memory: '128Mi' }, defaultRequest: { cpu: '100m', memory: '64Mi' }, maxLimitRequestRatio: { cpu: '10' } },
        { type: 'Pod', max: { memory: '1Gi' } },
      ],
    },
  },
};

export type { KubeObject };
