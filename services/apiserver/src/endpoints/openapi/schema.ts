// A compact, hand-written description of the object types kubelab serves:
// fields, their types and a short description of each, written for kubelab.
// One source for the OpenAPI v3 documents (`kubectl explain`, apply
// validation), for strict decoding (unknown fields, wrong types) and, via the
// patch metadata of @kubelab/api, for strategic-merge extensions.
//
// A field type is one of: string, int32, int64, boolean, number, Time,
// MicroTime, IntOrString, Quantity, bytes (base64 string), object (free-form),
// a type name defined here, `[]T` or `map[string]T`.

export type Group = 'core' | 'apps' | 'meta' | 'discovery' | 'coordination' | 'autoscaling' | 'policy' | 'intstr' | 'resource';

/** [type, description, 'r' when required] */
export type FieldDef = [type: string, description: string, flags?: string];

export interface TypeDef {
  group: Group;
  description: string;
  fields?: Record<string, FieldDef>;
  /** The OpenAPI name's last segment when it differs from the key. */
  name?: string;
  /**
   * A primitive alias (Time, IntOrString, Quantity): its OpenAPI type/format;
   * the two-typed ones are a `oneOf` without `type`, as upstream, so that
   * `kubectl explain` prints their name (`<IntOrString>`) rather than `<string>`.
   */
  primitive?: { type?: string; format?: string; oneOf?: { type: string }[] };
}

const META_FIELD: FieldDef = ['ObjectMeta', "Standard object metadata: name, namespace, labels, annotations and the fields the system sets."];
const KIND: FieldDef = ['string', 'The REST resource kind this object represents, in CamelCase. Set by clients, checked by the server.'];
const API_VERSION: FieldDef = ['string', 'The versioned schema of this representation, e.g. "v1" or "apps/v1".'];
const top = (fields: Record<string, FieldDef>): Record<string, FieldDef> => ({ apiVersion: API_VERSION, kind: KIND, metadata: META_FIELD, ...fields });

const cond = (what: string): Record<string, FieldDef> => ({
  type: ['string', `The type of ${what} condition.`, 'r'],
  status: ['string', 'True, False or Unknown.', 'r'],
  lastTransitionTime: ['Time', 'When the condition last changed status.'],
  reason: ['string', 'A one-word CamelCase reason for the last transition.'],
  message: ['string', 'A human-readable message about the last transition.'],
});

export const TYPES: Record<string, TypeDef> = {
  // ---- meta/v1 and primitives
  Time: { group: 'meta', description: 'A timestamp in RFC 3339 form with second precision, in UTC.', primitive: { type: 'string', format: 'date-time' } },
  MicroTime: { group: 'meta', description: 'A timestamp in RFC 3339 form with microsecond precision.', primitive: { type: 'string', format: 'date-time' } },
  IntOrString: { group: 'intstr', description: 'Either an integer or a string (a port number or a port name, a count or a percentage).', primitive: { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] } },
  Quantity: { group: 'resource', description: 'A fixed-point amount with an optional suffix: "100m" CPU is a tenth of a core, "128Mi" memory is 128 mebibytes.', primitive: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
  ObjectMeta: {
    group: 'meta',
    description: 'Metadata every persisted object has: identity (name, namespace, uid), labels and annotations, and bookkeeping the system maintains.',
    fields: {
      name: ['string', 'The object name, unique within its namespace (or the cluster, for cluster-scoped kinds). Cannot be changed after creation.'],
      generateName: ['string', 'A prefix the server completes with random characters to form a unique name, when name is empty.'],
      namespace: ['string', 'The namespace the object lives in. Empty for cluster-scoped kinds; defaults to "default" for namespaced ones.'],
      uid: ['string', 'A unique identifier the server assigns at creation. Read-only.'],
      resourceVersion: ['string', 'An opaque version the server changes on every write; used for optimistic concurrency and watches. Read-only.'],
      generation: ['int64', 'A sequence number of changes to the desired state (spec). Read-only.'],
      creationTimestamp: ['Time', 'When the server created the object. Read-only.'],
      deletionTimestamp: ['Time', 'When the object is to be deleted; set by the server when a graceful deletion is requested. Read-only.'],
      deletionGracePeriodSeconds: ['int64', 'Seconds the object is given to terminate gracefully before it is removed. Read-only.'],
      labels: ['map[string]string', 'Key/value pairs used to organize and select objects (by selectors of services, controllers, kubectl -l).'],
      annotations: ['map[string]string', 'Key/value pairs for arbitrary, non-identifying metadata that tools store on the object.'],
      ownerReferences: ['[]OwnerReference', 'Objects this one depends on; when all owners are gone the garbage collector deletes it.'],
      finalizers: ['[]string', 'Names of cleanups that must finish before the object is removed from storage.'],
      managedFields: ['[]ManagedFieldsEntry', 'Which field manager set which fields; maintained by the server.'],
      selfLink: ['string', 'Deprecated and unused.'],
    },
  },
  OwnerReference: {
    group: 'meta',
    description: 'Points to an object that owns this one (for example the ReplicaSet of a Pod).',
    fields: {
      apiVersion: ['string', 'API version of the owner.', 'r'],
      kind: ['string', 'Kind of the owner.', 'r'],
      name: ['string', 'Name of the owner.', 'r'],
      uid: ['string', 'UID of the owner.', 'r'],
      controller: ['boolean', 'True when the owner is the managing controller; at most one owner may be.'],
      blockOwnerDeletion: ['boolean', 'Foreground deletion of the owner waits for this object to be deleted first.'],
    },
  },
  ManagedFieldsEntry: {
    group: 'meta',
    description: 'A record of the fields one manager set by one operation.',
    fields: {
      manager: ['string', 'The name of the field manager.'],
      operation: ['string', 'Apply or Update.'],
      apiVersion: ['string', 'The version of the object the fields refer to.'],
      time: ['Time', 'When the entry was last changed.'],
      fieldsType: ['string', 'The format of fieldsV1; always "FieldsV1".'],
      fieldsV1: ['object', 'The set of fields, as a trie of field names.'],
      subresource: ['string', 'The subresource the write went through, if any.'],
    },
  },
  LabelSelector: {
    group: 'meta',
    description: 'A query over labels. The requirements are ANDed; an empty selector matches everything.',
    fields: {
      matchLabels: ['map[string]string', 'Exact key=value pairs the labels must contain.'],
      matchExpressions: ['[]LabelSelectorRequirement', 'Set-based requirements (In, NotIn, Exists, DoesNotExist).'],
    },
  },
  LabelSelectorRequirement: {
    group: 'meta',
    description: 'A selector requirement: a key, an operator and values.',
    fields: {
      key: ['string', 'The label key.', 'r'],
      operator: ['string', 'In, NotIn, Exists or DoesNotExist.', 'r'],
      values: ['[]string', 'Values for In and NotIn; must be empty for Exists and DoesNotExist.'],
    },
  },
  Condition: { group: 'meta', description: 'A generic condition of an object.', fields: { ...cond('this'), observedGeneration: ['int64', 'The generation the condition was computed for.'] } },
  Preconditions: {
    group: 'meta',
    description: 'Conditions that must hold for a delete to proceed.',
    fields: { uid: ['string', 'The object must have this UID.'], resourceVersion: ['string', 'The object must be at this resourceVersion.'] },
  },
  DeleteOptions: {
    group: 'meta',
    description: 'Options of a delete request.',
    fields: {
      apiVersion: API_VERSION,
      kind: KIND,
      gracePeriodSeconds: ['int64', 'Seconds before the object is deleted; 0 deletes immediately.'],
      preconditions: ['Preconditions', 'Must hold for the deletion to proceed.'],
      orphanDependents: ['boolean', 'Deprecated: use propagationPolicy.'],
      propagationPolicy: ['string', 'Orphan, Background or Foreground: what happens to dependents.'],
      dryRun: ['[]string', 'When "All", the deletion is checked but not persisted.'],
    },
  },

  // ---- core/v1: Pod
  Pod: {
    group: 'core',
    description: 'A Pod is a group of containers that run together on one node, sharing a network identity and volumes. It is the smallest unit the scheduler places.',
    fields: top({
      spec: ['PodSpec', 'The desired behavior of the pod.'],
      status: ['PodStatus', 'The most recently observed status of the pod, written by the kubelet. Read-only.'],
    }),
  },
  PodSpec: {
    group: 'core',
    description: 'The desired state of a pod: its containers, volumes and how and where it runs.',
    fields: {
      volumes: ['[]Volume', 'Volumes the containers of this pod can mount.'],
      initContainers: ['[]Container', 'Containers run one after another, each to completion, before the app containers start. An init container with restartPolicy Always is a sidecar that keeps running.'],
      containers: ['[]Container', 'The containers of the pod. There must be at least one. Cannot be changed after creation.', 'r'],
      ephemeralContainers: ['[]EphemeralContainer', 'Containers added to a running pod for debugging.'],
      restartPolicy: ['string', 'Restart policy of all containers: Always (default), OnFailure or Never.'],
      terminationGracePeriodSeconds: ['int64', 'Seconds the pod is given to stop after SIGTERM before it is killed. Defaults to 30.'],
      activeDeadlineSeconds: ['int64', 'Seconds the pod may be active before the kubelet fails it.'],
      dnsPolicy: ['string', 'How DNS is set up in the pod: ClusterFirst (default), ClusterFirstWithHostNet, Default or None.'],
      nodeSelector: ['map[string]string', 'Labels a node must have for the pod to be scheduled there.'],
      serviceAccountName: ['string', 'The ServiceAccount the pod runs as.'],
      serviceAccount: ['string', 'Deprecated alias of serviceAccountName.'],
      automountServiceAccountToken: ['boolean', 'Whether a service account token is mounted automatically.'],
      nodeName: ['string', 'The node the pod is bound to. The scheduler sets it through the binding subresource; setting it yourself skips scheduling.'],
      hostNetwork: ['boolean', "Use the node's network namespace."],
      hostPID: ['boolean', "Use the node's PID namespace."],
      hostIPC: ['boolean', "Use the node's IPC namespace."],
      shareProcessNamespace: ['boolean', 'Share one PID namespace between all containers of the pod.'],
      securityContext: ['PodSecurityContext', 'Security settings that apply to the whole pod.'],
      imagePullSecrets: ['[]LocalObjectReference', 'Secrets holding registry credentials for pulling images.'],
      hostname: ['string', "The pod's hostname; defaults to the pod name."],
      subdomain: ['string', 'With a headless service of this name, gives the pod a DNS name <hostname>.<subdomain>.<namespace>.svc.'],
      affinity: ['Affinity', 'Node and pod (anti-)affinity scheduling constraints.'],
      schedulerName: ['string', 'The scheduler that places this pod. Defaults to "default-scheduler".'],
      tolerations: ['[]Toleration', 'Taints this pod tolerates.'],
      hostAliases: ['[]HostAlias', "Extra entries for the pod's /etc/hosts."],
      priorityClassName: ['string', 'The PriorityClass of the pod.'],
      priority: ['int32', 'The priority value, resolved from priorityClassName by admission.'],
      dnsConfig: ['PodDNSConfig', 'DNS parameters merged with those from dnsPolicy.'],
      readinessGates: ['[]PodReadinessGate', 'Extra conditions that must be True for the pod to be Ready.'],
      runtimeClassName: ['string', 'The RuntimeClass used to run the pod.'],
      enableServiceLinks: ['boolean', 'Whether environment variables of services are injected. Defaults to true.'],
      preemptionPolicy: ['string', 'PreemptLowerPriority (default) or Never.'],
      overhead: ['map[string]Quantity', 'Resources the pod sandbox uses beyond its containers.'],
      topologySpreadConstraints: ['[]TopologySpreadConstraint', 'How pods are spread across topology domains.'],
      setHostnameAsFQDN: ['boolean', "Use the pod's FQDN as its hostname."],
      os: ['PodOS', 'The operating system the pod needs.'],
      hostUsers: ['boolean', "Use the node's user namespace (default true)."],
      schedulingGates: ['[]PodSchedulingGate', 'While any gate is present the pod is not scheduled.'],
    },
  },
  Container: {
    group: 'core',
    description: 'A single application container that runs in a pod.',
    fields: {
      name: ['string', 'Name of the container, unique within the pod (a DNS label). Cannot be changed.', 'r'],
      image: ['string', 'The container image to run, e.g. "nginx:1.27".'],
      command: ['[]string', "The entrypoint, overriding the image's ENTRYPOINT. Not run in a shell; $(VAR) references are expanded."],
      args: ['[]string', "Arguments to the entrypoint, overriding the image's CMD."],
      workingDir: ['string', 'The working directory; defaults to the image default.'],
      ports: ['[]ContainerPort', 'Ports the container exposes. Informational, except that named ports can be referenced by services and probes.'],
      envFrom: ['[]EnvFromSource', 'Sources of environment variables (all keys of a ConfigMap or Secret).'],
      env: ['[]EnvVar', 'Environment variables to set in the container.'],
      resources: ['ResourceRequirements', 'CPU and memory the container requests and may use at most.'],
      resizePolicy: ['[]ContainerResizePolicy', 'How a change of resources is applied.'],
      restartPolicy: ['string', 'Only for init containers: Always makes it a sidecar that starts before, and keeps running beside, the app containers.'],
      volumeMounts: ['[]VolumeMount', "Pod volumes to mount into the container's filesystem."],
      volumeDevices: ['[]VolumeDevice', 'Block devices the container uses.'],
      livenessProbe: ['Probe', 'Periodic check that the container is alive; the kubelet restarts it after failureThreshold failures.'],
      readinessProbe: ['Probe', 'Periodic check that the container can serve; while it fails the pod is removed from service endpoints.'],
      startupProbe: ['Probe', 'Check that the container has started; the other probes wait until it succeeds.'],
      lifecycle: ['Lifecycle', 'Actions the kubelet runs after the container starts and before it stops.'],
      terminationMessagePath: ['string', 'File whose contents become the termination message. Defaults to /dev/termination-log.'],
      terminationMessagePolicy: ['string', 'File (default) or FallbackToLogsOnError.'],
      imagePullPolicy: ['string', 'Always, Never or IfNotPresent. Defaults to Always for the :latest tag (or no tag), otherwise IfNotPresent.'],
      securityContext: ['SecurityContext', 'Security options of the container.'],
      stdin: ['boolean', 'Keep a stdin buffer open for the container.'],
      stdinOnce: ['boolean', 'Close stdin after the first attach session ends.'],
      tty: ['boolean', 'Allocate a TTY (needs stdin).'],
    },
  },
  EphemeralContainer: { group: 'core', description: 'A temporary container added to a running pod, e.g. by kubectl debug.', fields: {} },
  ContainerPort: {
    group: 'core',
    description: 'A network port of a container.',
    fields: {
      name: ['string', 'An IANA_SVC_NAME that services can refer to.'],
      hostPort: ['int32', 'Port to expose on the node.'],
      containerPort: ['int32', 'The port number on the pod IP (1-65535).', 'r'],
      protocol: ['string', 'TCP (default), UDP or SCTP.'],
      hostIP: ['string', 'The node IP to bind the host port to.'],
    },
  },
  EnvVar: {
    group: 'core',
    description: 'An environment variable in a container.',
    fields: {
      name: ['string', 'The variable name.', 'r'],
      value: ['string', 'The value; $(VAR) references to earlier variables are expanded.'],
      valueFrom: ['EnvVarSource', 'Where to take the value from, instead of value.'],
    },
  },
  EnvVarSource: {
    group: 'core',
    description: 'A source for the value of an environment variable.',
    fields: {
      fieldRef: ['ObjectFieldSelector', 'A field of the pod, e.g. metadata.name or status.podIP.'],
      resourceFieldRef: ['ResourceFieldSelector', 'A resource limit or request of a container.'],
      configMapKeyRef: ['ConfigMapKeySelector', 'A key of a ConfigMap.'],
      secretKeyRef: ['SecretKeySelector', 'A key of a Secret.'],
    },
  },
  ObjectFieldSelector: { group: 'core', description: 'Selects a field of the object.', fields: { apiVersion: ['string', 'Version of the schema the path is written in.'], fieldPath: ['string', 'Path of the field.', 'r'] } },
  ResourceFieldSelector: {
    group: 'core',
    description: 'Selects a resource of a container.',
    fields: { containerName: ['string', 'The container.'], resource: ['string', 'The resource, e.g. limits.cpu.', 'r'], divisor: ['Quantity', 'Output unit.'] },
  },
  ConfigMapKeySelector: {
    group: 'core',
    description: 'Selects a key of a ConfigMap.',
    fields: { name: ['string', 'The ConfigMap.'], key: ['string', 'The key.', 'r'], optional: ['boolean', 'Whether the ConfigMap or key may be missing.'] },
  },
  SecretKeySelector: {
    group: 'core',
    description: 'Selects a key of a Secret.',
    fields: { name: ['string', 'The Secret.'], key: ['string', 'The key.', 'r'], optional: ['boolean', 'Whether the Secret or key may be missing.'] },
  },
  EnvFromSource: {
    group: 'core',
    description: 'A set of environment variables taken from a ConfigMap or Secret.',
    fields: { prefix: ['string', 'Prefix prepended to each key.'], configMapRef: ['ConfigMapEnvSource', 'The ConfigMap.'], secretRef: ['SecretEnvSource', 'The Secret.'] },
  },
  ConfigMapEnvSource: { group: 'core', description: 'A ConfigMap whose keys become variables.', fields: { name: ['string', 'The ConfigMap.'], optional: ['boolean', 'Whether it may be missing.'] } },
  SecretEnvSource: { group: 'core', description: 'A Secret whose keys become variables.', fields: { name: ['string', 'The Secret.'], optional: ['boolean', 'Whether it may be missing.'] } },
  ResourceRequirements: {
    group: 'core',
    description: 'Compute resources of a container.',
    fields: {
      limits: ['map[string]Quantity', 'The most the container may use. Memory over the limit gets the container OOM-killed; CPU over it is throttled.'],
      requests: ['map[string]Quantity', 'What the scheduler reserves for the container on a node. Defaults to the limits when only those are set.'],
      claims: ['[]ResourceClaim', 'Dynamic resource claims the container uses.'],
    },
  },
  ResourceClaim: { group: 'core', description: 'A reference to a pod resource claim.', fields: { name: ['string', 'The claim name.', 'r'], request: ['string', 'A request within the claim.'] } },
  VolumeMount: {
    group: 'core',
    description: 'Where a pod volume is mounted in a container.',
    fields: {
      name: ['string', 'The name of a volume of the pod.', 'r'],
      readOnly: ['boolean', 'Mount read-only.'],
      recursiveReadOnly: ['string', 'Whether read-only applies to submounts.'],
      mountPath: ['string', 'The path in the container; must not contain ":".', 'r'],
      subPath: ['string', 'A path inside the volume to mount instead of its root.'],
      mountPropagation: ['string', 'None, HostToContainer or Bidirectional.'],
      subPathExpr: ['string', 'Like subPath, with $(VAR) expansion.'],
    },
  },
  VolumeDevice: { group: 'core', description: 'A raw block device in a container.', fields: { name: ['string', 'The PVC volume name.', 'r'], devicePath: ['string', 'The device path in the container.', 'r'] } },
  Probe: {
    group: 'core',
    description: 'A periodic health check the kubelet runs against a container: exactly one of exec, httpGet, tcpSocket or grpc.',
    fields: {
      exec: ['ExecAction', 'Run a command in the container; exit code 0 is success.'],
      httpGet: ['HTTPGetAction', 'An HTTP GET; a status from 200 to 399 is success.'],
      tcpSocket: ['TCPSocketAction', 'A TCP connection that can be opened is success.'],
      grpc: ['GRPCAction', 'A gRPC health check.'],
      initialDelaySeconds: ['int32', 'Seconds after the container starts before the first probe.'],
      timeoutSeconds: ['int32', 'Seconds before a probe times out. Defaults to 1.'],
      periodSeconds: ['int32', 'Seconds between probes. Defaults to 10.'],
      successThreshold: ['int32', 'Consecutive successes to count as success after a failure. Defaults to 1 (must be 1 for liveness and startup).'],
      failureThreshold: ['int32', 'Consecutive failures to count as failure. Defaults to 3.'],
      terminationGracePeriodSeconds: ['int64', 'Grace period when a failing probe kills the container.'],
    },
  },
  ExecAction: { group: 'core', description: 'A command run inside the container.', fields: { command: ['[]string', 'The command and its arguments; not run in a shell.'] } },
  HTTPGetAction: {
    group: 'core',
    description: 'An HTTP GET request.',
    fields: {
      path: ['string', 'The path to request.'],
      port: ['IntOrString', 'Port number or name.', 'r'],
      host: ['string', 'Host to connect to; defaults to the pod IP.'],
      scheme: ['string', 'HTTP (default) or HTTPS.'],
      httpHeaders: ['[]HTTPHeader', 'Extra request headers.'],
    },
  },
  HTTPHeader: { group: 'core', description: 'An HTTP header.', fields: { name: ['string', 'Header name.', 'r'], value: ['string', 'Header value.', 'r'] } },
  TCPSocketAction: { group: 'core', description: 'A TCP connection attempt.', fields: { port: ['IntOrString', 'Port number or name.', 'r'], host: ['string', 'Host; defaults to the pod IP.'] } },
  GRPCAction: { group: 'core', description: 'A gRPC health check.', fields: { port: ['int32', 'Port number.', 'r'], service: ['string', 'Service name sent in the request.'] } },
  SleepAction: { group: 'core', description: 'Sleep for a while.', fields: { seconds: ['int64', 'Seconds to sleep.', 'r'] } },
  Lifecycle: {
    group: 'core',
    description: 'Hooks run by the kubelet around the life of a container.',
    fields: { postStart: ['LifecycleHandler', 'Run right after the container is created.'], preStop: ['LifecycleHandler', 'Run before the container is stopped.'] },
  },
  LifecycleHandler: {
    group: 'core',
    description: 'One action of a lifecycle hook.',
    fields: { exec: ['ExecAction', 'Run a command.'], httpGet: ['HTTPGetAction', 'Send an HTTP GET.'], tcpSocket: ['TCPSocketAction', 'Deprecated.'], sleep: ['SleepAction', 'Sleep.'] },
  },
  SecurityContext: {
    group: 'core',
    description: 'Security options of a container; they override the pod-level ones.',
    fields: {
      capabilities: ['Capabilities', 'Linux capabilities to add or drop.'],
      privileged: ['boolean', 'Run as privileged (root on the host).'],
      seLinuxOptions: ['SELinuxOptions', 'SELinux context.'],
      windowsOptions: ['object', 'Windows-specific options.'],
      runAsUser: ['int64', 'UID to run the entrypoint as.'],
      runAsGroup: ['int64', 'GID to run the entrypoint as.'],
      runAsNonRoot: ['boolean', 'Refuse to start if the image would run as root.'],
      readOnlyRootFilesystem: ['boolean', 'Mount the root filesystem read-only.'],
      allowPrivilegeEscalation: ['boolean', 'Whether a process may gain more privileges than its parent.'],
      procMount: ['string', 'Default or Unmasked.'],
      seccompProfile: ['SeccompProfile', 'The seccomp profile.'],
      appArmorProfile: ['object', 'The AppArmor profile.'],
    },
  },
  Capabilities: { group: 'core', description: 'Linux capabilities.', fields: { add: ['[]string', 'Capabilities to add.'], drop: ['[]string', 'Capabilities to drop.'] } },
  SELinuxOptions: {
    group: 'core',
    description: 'SELinux labels.',
    fields: { user: ['string', 'User label.'], role: ['string', 'Role label.'], type: ['string', 'Type label.'], level: ['string', 'Level label.'] },
  },
  SeccompProfile: {
    group: 'core',
    description: 'A seccomp profile.',
    fields: { type: ['string', 'Unconfined, RuntimeDefault or Localhost.', 'r'], localhostProfile: ['string', 'Path of a profile on the node.'] },
  },
  ContainerResizePolicy: {
    group: 'core',
    description: 'How one resource of a container is resized.',
    fields: { resourceName: ['string', 'cpu or memory.', 'r'], restartPolicy: ['string', 'NotRequired or RestartContainer.', 'r'] },
  },
  Volume: {
    group: 'core',
    description: 'A named volume of a pod, with exactly one source.',
    fields: {
      name: ['string', 'The volume name, referred to by volumeMounts.', 'r'],
      emptyDir: ['EmptyDirVolumeSource', 'An empty directory that lives as long as the pod.'],
      configMap: ['ConfigMapVolumeSource', 'The keys of a ConfigMap as files.'],
      secret: ['SecretVolumeSource', 'The keys of a Secret as files.'],
      hostPath: ['HostPathVolumeSource', 'A file or directory of the node.'],
      persistentVolumeClaim: ['PersistentVolumeClaimVolumeSource', 'A PersistentVolumeClaim.'],
      downwardAPI: ['DownwardAPIVolumeSource', 'Pod fields as files.'],
      projected: ['ProjectedVolumeSource', 'Several sources in one directory.'],
      nfs: ['object', 'An NFS export.'],
      csi: ['object', 'A CSI driver volume.'],
      ephemeral: ['object', 'A volume provisioned for the pod.'],
      image: ['object', 'An OCI image as a volume.'],
    },
  },
  EmptyDirVolumeSource: {
    group: 'core',
    description: 'An empty directory.',
    fields: { medium: ['string', '"" (node disk) or Memory (tmpfs).'], sizeLimit: ['Quantity', 'Maximum size.'] },
  },
  KeyToPath: {
    group: 'core',
    description: 'Maps a key to a file path.',
    fields: { key: ['string', 'The key.', 'r'], path: ['string', 'Relative file path.', 'r'], mode: ['int32', 'File mode bits.'] },
  },
  ConfigMapVolumeSource: {
    group: 'core',
    description: 'A ConfigMap as files.',
    fields: { name: ['string', 'The ConfigMap.'], items: ['[]KeyToPath', 'Only these keys, at these paths.'], defaultMode: ['int32', 'File mode bits; defaults to 0644.'], optional: ['boolean', 'Whether it may be missing.'] },
  },
  SecretVolumeSource: {
    group: 'core',
    description: 'A Secret as files.',
    fields: { secretName: ['string', 'The Secret.'], items: ['[]KeyToPath', 'Only these keys, at these paths.'], defaultMode: ['int32', 'File mode bits; defaults to 0644.'], optional: ['boolean', 'Whether it may be missing.'] },
  },
  HostPathVolumeSource: { group: 'core', description: 'A path on the node.', fields: { path: ['string', 'The path.', 'r'], type: ['string', 'What must exist at the path.'] } },
  PersistentVolumeClaimVolumeSource: {
    group: 'core',
    description: 'A claim in the same namespace.',
    fields: { claimName: ['string', 'The claim.', 'r'], readOnly: ['boolean', 'Mount read-only.'] },
  },
  DownwardAPIVolumeSource: {
    group: 'core',
    description: 'Pod information as files.',
    fields: { items: ['[]DownwardAPIVolumeFile', 'The files.'], defaultMode: ['int32', 'File mode bits.'] },
  },
  DownwardAPIVolumeFile: {
    group: 'core',
    description: 'One downward API file.',
    fields: { path: ['string', 'Relative path.', 'r'], fieldRef: ['ObjectFieldSelector', 'A pod field.'], resourceFieldRef: ['ResourceFieldSelector', 'A container resource.'], mode: ['int32', 'File mode bits.'] },
  },
  ProjectedVolumeSource: { group: 'core', description: 'Several volume sources in one directory.', fields: { sources: ['[]VolumeProjection', 'The sources.'], defaultMode: ['int32', 'File mode bits.'] } },
  VolumeProjection: {
    group: 'core',
    description: 'One source of a projected volume.',
    fields: {
      secret: ['object', 'A Secret.'],
      configMap: ['object', 'A ConfigMap.'],
      downwardAPI: ['object', 'Pod fields.'],
      serviceAccountToken: ['object', 'A service account token.'],
      clusterTrustBundle: ['object', 'A trust bundle.'],
    },
  },
  Toleration: {
    group: 'core',
    description: 'Lets a pod be scheduled onto (or stay on) nodes with a matching taint.',
    fields: {
      key: ['string', 'The taint key; empty with operator Exists matches all taints.'],
      operator: ['string', 'Exists or Equal (default).'],
      value: ['string', 'The taint value to match with Equal.'],
      effect: ['string', 'NoSchedule, PreferNoSchedule or NoExecute; empty matches all.'],
      tolerationSeconds: ['int64', 'For NoExecute: how long the pod stays bound after the taint appears.'],
    },
  },
  Affinity: {
    group: 'core',
    description: 'Scheduling constraints relative to nodes and other pods.',
    fields: { nodeAffinity: ['NodeAffinity', 'Node affinity.'], podAffinity: ['PodAffinity', 'Co-locate with pods.'], podAntiAffinity: ['PodAffinity', 'Keep away from pods.'] },
  },
  NodeAffinity: {
    group: 'core',
    description: 'Node affinity rules.',
    fields: {
      requiredDuringSchedulingIgnoredDuringExecution: ['NodeSelector', 'Rules that must hold.'],
      preferredDuringSchedulingIgnoredDuringExecution: ['[]PreferredSchedulingTerm', 'Weighted preferences.'],
    },
  },
  NodeSelector: { group: 'core', description: 'ORed node selector terms.', fields: { nodeSelectorTerms: ['[]NodeSelectorTerm', 'The terms.', 'r'] } },
  NodeSelectorTerm: {
    group: 'core',
    description: 'ANDed requirements on node labels and fields.',
    fields: { matchExpressions: ['[]NodeSelectorRequirement', 'On labels.'], matchFields: ['[]NodeSelectorRequirement', 'On fields.'] },
  },
  NodeSelectorRequirement: {
    group: 'core',
    description: 'A requirement on a node label or field.',
    fields: { key: ['string', 'The key.', 'r'], operator: ['string', 'In, NotIn, Exists, DoesNotExist, Gt or Lt.', 'r'], values: ['[]string', 'The values.'] },
  },
  PreferredSchedulingTerm: {
    group: 'core',
    description: 'A weighted node preference.',
    fields: { weight: ['int32', '1-100.', 'r'], preference: ['NodeSelectorTerm', 'The term.', 'r'] },
  },
  PodAffinity: {
    group: 'core',
    description: 'Pod (anti-)affinity rules.',
    fields: {
      requiredDuringSchedulingIgnoredDuringExecution: ['[]PodAffinityTerm', 'Rules that must hold.'],
      preferredDuringSchedulingIgnoredDuringExecution: ['[]WeightedPodAffinityTerm', 'Weighted preferences.'],
    },
  },
  PodAffinityTerm: {
    group: 'core',
    description: 'Pods matching a selector in a topology domain.',
    fields: {
      labelSelector: ['LabelSelector', 'Which pods.'],
      namespaces: ['[]string', 'In which namespaces.'],
      topologyKey: ['string', 'The node label that defines the domain.', 'r'],
      namespaceSelector: ['LabelSelector', 'Namespaces by label.'],
      matchLabelKeys: ['[]string', 'Label keys whose values are taken from the incoming pod.'],
      mismatchLabelKeys: ['[]string', 'Label keys whose values must differ.'],
    },
  },
  WeightedPodAffinityTerm: {
    group: 'core',
    description: 'A weighted pod affinity term.',
    fields: { weight: ['int32', '1-100.', 'r'], podAffinityTerm: ['PodAffinityTerm', 'The term.', 'r'] },
  },
  TopologySpreadConstraint: {
    group: 'core',
    description: 'How matching pods spread across a topology.',
    fields: {
      maxSkew: ['int32', 'Maximum difference of matching pods between domains.', 'r'],
      topologyKey: ['string', 'Node label defining the domains.', 'r'],
      whenUnsatisfiable: ['string', 'DoNotSchedule or ScheduleAnyway.', 'r'],
      labelSelector: ['LabelSelector', 'Which pods count.'],
      minDomains: ['int32', 'Minimum number of eligible domains.'],
      nodeAffinityPolicy: ['string', 'Honor or Ignore.'],
      nodeTaintsPolicy: ['string', 'Honor or Ignore.'],
      matchLabelKeys: ['[]string', 'Label keys taken from the incoming pod.'],
    },
  },
  PodSecurityContext: {
    group: 'core',
    description: 'Security settings of a pod.',
    fields: {
      seLinuxOptions: ['SELinuxOptions', 'SELinux context.'],
      windowsOptions: ['object', 'Windows-specific options.'],
      runAsUser: ['int64', 'UID of the container processes.'],
      runAsGroup: ['int64', 'GID of the container processes.'],
      runAsNonRoot: ['boolean', 'Refuse to run as root.'],
      supplementalGroups: ['[]int64', 'Extra groups.'],
      supplementalGroupsPolicy: ['string', 'Merge or Strict.'],
      fsGroup: ['int64', 'Group that owns mounted volumes.'],
      sysctls: ['[]Sysctl', 'Namespaced sysctls.'],
      fsGroupChangePolicy: ['string', 'OnRootMismatch or Always.'],
      seccompProfile: ['SeccompProfile', 'The seccomp profile.'],
      appArmorProfile: ['object', 'The AppArmor profile.'],
      seLinuxChangePolicy: ['string', 'How SELinux labels are applied.'],
    },
  },
  Sysctl: { group: 'core', description: 'A kernel parameter.', fields: { name: ['string', 'Name.', 'r'], value: ['string', 'Value.', 'r'] } },
  PodDNSConfig: {
    group: 'core',
    description: 'DNS settings of a pod.',
    fields: { nameservers: ['[]string', 'DNS servers.'], searches: ['[]string', 'Search domains.'], options: ['[]PodDNSConfigOption', 'resolver options.'] },
  },
  PodDNSConfigOption: { group: 'core', description: 'A resolver option.', fields: { name: ['string', 'Name.'], value: ['string', 'Value.'] } },
  HostAlias: { group: 'core', description: 'An /etc/hosts entry.', fields: { ip: ['string', 'IP address.', 'r'], hostnames: ['[]string', 'Names for it.'] } },
  PodReadinessGate: { group: 'core', description: 'A readiness gate.', fields: { conditionType: ['string', 'The pod condition type.', 'r'] } },
  PodOS: { group: 'core', description: 'The OS of a pod.', fields: { name: ['string', 'linux or windows.', 'r'] } },
  PodSchedulingGate: { group: 'core', description: 'A scheduling gate.', fields: { name: ['string', 'The gate name.', 'r'] } },
  LocalObjectReference: { group: 'core', description: 'A reference to an object in the same namespace.', fields: { name: ['string', 'Its name.'] } },
  ObjectReference: {
    group: 'core',
    description: 'A reference to any object.',
    fields: {
      kind: ['string', 'Kind.'],
      namespace: ['string', 'Namespace.'],
      name: ['string', 'Name.'],
      uid: ['string', 'UID.'],
      apiVersion: ['string', 'API version.'],
      resourceVersion: ['string', 'Resource version.'],
      fieldPath: ['string', 'A part of the object, e.g. spec.containers{web}.'],
    },
  },
  PodStatus: {
    group: 'core',
    description: 'The observed state of a pod, reported by the kubelet.',
    fields: {
      phase: ['string', 'Pending, Running, Succeeded, Failed or Unknown: a summary of where the pod is in its lifecycle.'],
      conditions: ['[]PodCondition', 'PodScheduled, Initialized, ContainersReady, Ready and others.'],
      message: ['string', 'Why the pod is in this state.'],
      reason: ['string', 'A brief CamelCase reason, e.g. Evicted.'],
      nominatedNodeName: ['string', 'The node the scheduler nominated after preemption.'],
      hostIP: ['string', 'IP of the node.'],
      hostIPs: ['[]HostIP', 'IPs of the node.'],
      podIP: ['string', 'IP of the pod.'],
      podIPs: ['[]PodIP', 'IPs of the pod.'],
      startTime: ['Time', 'When the kubelet acknowledged the pod.'],
      initContainerStatuses: ['[]ContainerStatus', 'Status of the init containers.'],
      containerStatuses: ['[]ContainerStatus', 'Status of the containers.'],
      qosClass: ['string', 'Guaranteed, Burstable or BestEffort.'],
      ephemeralContainerStatuses: ['[]ContainerStatus', 'Status of ephemeral containers.'],
      resize: ['string', 'Status of a resources resize.'],
      resourceClaimStatuses: ['object', 'Resource claims of the pod.'],
    },
  },
  PodCondition: {
    group: 'core',
    description: 'A condition of a pod.',
    fields: { ...cond('pod'), lastProbeTime: ['Time', 'When the condition was last probed.'], observedGeneration: ['int64', 'The pod generation observed.'] },
  },
  ContainerStatus: {
    group: 'core',
    description: 'The state of one container of a pod.',
    fields: {
      name: ['string', 'The container name.', 'r'],
      state: ['ContainerState', 'The current state.'],
      lastState: ['ContainerState', 'The state of the previous run, e.g. why it last terminated.'],
      ready: ['boolean', 'Whether the readiness probe passes.', 'r'],
      restartCount: ['int32', 'How many times the container was restarted.', 'r'],
      image: ['string', 'The image it runs.', 'r'],
      imageID: ['string', 'The image ID.', 'r'],
      containerID: ['string', 'The runtime container ID, <type>://<id>.'],
      started: ['boolean', 'Whether the startup probe passed.'],
      allocatedResources: ['map[string]Quantity', 'Resources allocated on the node.'],
      resources: ['ResourceRequirements', 'Resources in effect.'],
      volumeMounts: ['object', 'Mounted volumes.'],
      user: ['object', 'Identity of the process.'],
      allocatedResourcesStatus: ['object', 'Health of allocated resources.'],
      stopSignal: ['string', 'The signal used to stop it.'],
    },
  },
  ContainerState: {
    group: 'core',
    description: 'The state of a container: one of waiting, running or terminated.',
    fields: { waiting: ['ContainerStateWaiting', 'Not running yet.'], running: ['ContainerStateRunning', 'Running.'], terminated: ['ContainerStateTerminated', 'Finished.'] },
  },
  ContainerStateWaiting: { group: 'core', description: 'A waiting container.', fields: { reason: ['string', 'Why, e.g. ContainerCreating or CrashLoopBackOff.'], message: ['string', 'Details.'] } },
  ContainerStateRunning: { group: 'core', description: 'A running container.', fields: { startedAt: ['Time', 'When it (re)started.'] } },
  ContainerStateTerminated: {
    group: 'core',
    description: 'A terminated container.',
    fields: {
      exitCode: ['int32', 'Exit status.', 'r'],
      signal: ['int32', 'Signal that killed it.'],
      reason: ['string', 'Why, e.g. Completed, Error or OOMKilled.'],
      message: ['string', 'Details.'],
      startedAt: ['Time', 'When it started.'],
      finishedAt: ['Time', 'When it terminated.'],
      containerID: ['string', 'Runtime container ID.'],
    },
  },
  PodIP: { group: 'core', description: 'An IP of a pod.', fields: { ip: ['string', 'The IP.', 'r'] } },
  HostIP: { group: 'core', description: 'An IP of the node.', fields: { ip: ['string', 'The IP.', 'r'] } },
  PodTemplateSpec: {
    group: 'core',
    description: 'The pods a controller creates: their metadata and spec.',
    fields: { metadata: META_FIELD, spec: ['PodSpec', 'The spec of the pods.'] },
  },
  Binding: {
    group: 'core',
    description: 'Binds a pod to a node; the scheduler posts it to pods/<name>/binding.',
    fields: { apiVersion: API_VERSION, kind: KIND, metadata: META_FIELD, target: ['ObjectReference', 'The node to bind to.', 'r'] },
  },

  // ---- core/v1: Node
  Node: {
    group: 'core',
    description: 'A Node is a worker machine. Its kubelet registers it and reports its status; the scheduler places pods on it.',
    fields: top({ spec: ['NodeSpec', 'How the node is configured.'], status: ['NodeStatus', 'The most recently observed status of the node. Read-only.'] }),
  },
  NodeSpec: {
    group: 'core',
    description: 'The configuration of a node.',
    fields: {
      podCIDR: ['string', 'The pod IP range assigned to the node.'],
      podCIDRs: ['[]string', 'The pod IP ranges assigned to the node.'],
      providerID: ['string', 'The cloud provider ID.'],
      unschedulable: ['boolean', 'When true, no new pods are scheduled here (kubectl cordon).'],
      taints: ['[]Taint', 'Taints that repel pods not tolerating them.'],
      configSource: ['object', 'Deprecated.'],
      externalID: ['string', 'Deprecated.'],
    },
  },
  Taint: {
    group: 'core',
    description: 'A taint repels pods that do not tolerate it.',
    fields: {
      key: ['string', 'The taint key.', 'r'],
      value: ['string', 'The taint value.'],
      effect: ['string', 'NoSchedule, PreferNoSchedule or NoExecute.', 'r'],
      timeAdded: ['Time', 'When a NoExecute taint was added.'],
    },
  },
  NodeStatus: {
    group: 'core',
    description: 'The observed state of a node.',
    fields: {
      capacity: ['map[string]Quantity', 'Total resources of the node.'],
      allocatable: ['map[string]Quantity', 'Resources available to pods.'],
      phase: ['string', 'Deprecated.'],
      conditions: ['[]NodeCondition', 'Ready, MemoryPressure, DiskPressure, PIDPressure, NetworkUnavailable.'],
      addresses: ['[]NodeAddress', 'Addresses of the node.'],
      daemonEndpoints: ['NodeDaemonEndpoints', 'Ports of daemons on the node.'],
      nodeInfo: ['NodeSystemInfo', 'Versions and IDs of the node.'],
      images: ['[]ContainerImage', 'Images on the node.'],
      volumesInUse: ['[]string', 'Volumes in use.'],
      volumesAttached: ['[]AttachedVolume', 'Volumes attached.'],
      config: ['object', 'Dynamic config status.'],
      runtimeHandlers: ['object', 'Runtime handlers.'],
      features: ['object', 'Node features.'],
    },
  },
  NodeCondition: {
    group: 'core',
    description: 'A condition of a node.',
    fields: { ...cond('node'), lastHeartbeatTime: ['Time', 'When the kubelet last reported it.'] },
  },
  NodeAddress: { group: 'core', description: 'An address of a node.', fields: { type: ['string', 'Hostname, InternalIP, ExternalIP, InternalDNS or ExternalDNS.', 'r'], address: ['string', 'The address.', 'r'] } },
  NodeDaemonEndpoints: { group: 'core', description: 'Ports of daemons on a node.', fields: { kubeletEndpoint: ['DaemonEndpoint', 'The kubelet endpoint.'] } },
  DaemonEndpoint: { group: 'core', description: 'A daemon port.', fields: { Port: ['int32', 'The port.', 'r'] } },
  NodeSystemInfo: {
    group: 'core',
    description: 'Identity and versions of a node.',
    fields: {
      machineID: ['string', 'Machine ID.', 'r'],
      systemUUID: ['string', 'System UUID.', 'r'],
      bootID: ['string', 'Boot ID.', 'r'],
      kernelVersion: ['string', 'Kernel version (uname -r).', 'r'],
      osImage: ['string', 'OS image (/etc/os-release).', 'r'],
      containerRuntimeVersion: ['string', 'Runtime and version, e.g. containerd://1.7.', 'r'],
      kubeletVersion: ['string', 'Kubelet version.', 'r'],
      kubeProxyVersion: ['string', 'Deprecated.', 'r'],
      operatingSystem: ['string', 'linux.', 'r'],
      architecture: ['string', 'amd64, arm64, ...', 'r'],
      swap: ['object', 'Swap information.'],
    },
  },
  ContainerImage: { group: 'core', description: 'An image on a node.', fields: { names: ['[]string', 'Names of the image.'], sizeBytes: ['int64', 'Size in bytes.'] } },
  AttachedVolume: { group: 'core', description: 'An attached volume.', fields: { name: ['string', 'Name.', 'r'], devicePath: ['string', 'Device path.', 'r'] } },

  // ---- core/v1: the rest
  Namespace: {
    group: 'core',
    description: 'A Namespace is a scope for names; it divides cluster objects between teams or apps.',
    fields: top({ spec: ['NamespaceSpec', 'The namespace spec.'], status: ['NamespaceStatus', 'The namespace status.'] }),
  },
  NamespaceSpec: { group: 'core', description: 'Spec of a namespace.', fields: { finalizers: ['[]string', 'Cleanups to run before the namespace is removed.'] } },
  NamespaceStatus: {
    group: 'core',
    description: 'Status of a namespace.',
    fields: { phase: ['string', 'Active or Terminating.'], conditions: ['[]NamespaceCondition', 'Conditions.'] },
  },
  NamespaceCondition: { group: 'core', description: 'A namespace condition.', fields: cond('namespace') },
  Service: {
    group: 'core',
    description: 'A Service gives a set of pods, chosen by a label selector, one stable virtual IP and DNS name; kube-proxy spreads connections over the ready pods.',
    fields: top({ spec: ['ServiceSpec', 'The service definition.'], status: ['ServiceStatus', 'Observed status, e.g. load balancer addresses.'] }),
  },
  ServiceSpec: {
    group: 'core',
    description: 'The definition of a service.',
    fields: {
      ports: ['[]ServicePort', 'The ports the service exposes.'],
      selector: ['map[string]string', 'Traffic goes to pods with these labels. Without a selector, endpoints are managed by hand.'],
      clusterIP: ['string', 'The virtual IP; allocated when empty, "None" for a headless service.'],
      clusterIPs: ['[]string', 'The virtual IPs (one per IP family).'],
      type: ['string', 'ClusterIP (default), NodePort, LoadBalancer or ExternalName.'],
      externalIPs: ['[]string', 'Extra IPs nodes accept traffic for.'],
      sessionAffinity: ['string', 'ClientIP or None (default).'],
      loadBalancerIP: ['string', 'Deprecated.'],
      loadBalancerSourceRanges: ['[]string', 'Client ranges allowed through the load balancer.'],
      externalName: ['string', 'The DNS name an ExternalName service aliases.'],
      externalTrafficPolicy: ['string', 'Cluster (default) or Local.'],
      healthCheckNodePort: ['int32', 'Health check port for Local traffic policy.'],
      publishNotReadyAddresses: ['boolean', 'Publish endpoints of pods that are not ready.'],
      sessionAffinityConfig: ['SessionAffinityConfig', 'Session affinity settings.'],
      ipFamilies: ['[]string', 'IPv4 and/or IPv6.'],
      ipFamilyPolicy: ['string', 'SingleStack, PreferDualStack or RequireDualStack.'],
      allocateLoadBalancerNodePorts: ['boolean', 'Whether LoadBalancer services get node ports.'],
      loadBalancerClass: ['string', 'The load balancer implementation.'],
      internalTrafficPolicy: ['string', 'Cluster (default) or Local.'],
      trafficDistribution: ['string', 'Preference for how traffic is spread.'],
    },
  },
  ServicePort: {
    group: 'core',
    description: 'A port of a service.',
    fields: {
      name: ['string', 'Port name; required when there are several ports.'],
      protocol: ['string', 'TCP (default), UDP or SCTP.'],
      appProtocol: ['string', 'Application protocol hint.'],
      port: ['int32', 'The port the service listens on.', 'r'],
      targetPort: ['IntOrString', 'Port number or name on the pods; defaults to port.'],
      nodePort: ['int32', 'Port on every node, for NodePort and LoadBalancer services.'],
    },
  },
  SessionAffinityConfig: { group: 'core', description: 'Session affinity settings.', fields: { clientIP: ['ClientIPConfig', 'ClientIP settings.'] } },
  ClientIPConfig: { group: 'core', description: 'ClientIP affinity settings.', fields: { timeoutSeconds: ['int32', 'Sticky time; defaults to 10800.'] } },
  ServiceStatus: {
    group: 'core',
    description: 'The status of a service.',
    fields: { loadBalancer: ['LoadBalancerStatus', 'Load balancer status.'], conditions: ['[]Condition', 'Conditions.'] },
  },
  LoadBalancerStatus: { group: 'core', description: 'A load balancer.', fields: { ingress: ['[]LoadBalancerIngress', 'Its addresses.'] } },
  LoadBalancerIngress: {
    group: 'core',
    description: 'A load balancer address.',
    fields: { ip: ['string', 'IP.'], hostname: ['string', 'Host name.'], ipMode: ['string', 'VIP or Proxy.'], ports: ['[]PortStatus', 'Port statuses.'] },
  },
  PortStatus: { group: 'core', description: 'A port status.', fields: { port: ['int32', 'Port.', 'r'], protocol: ['string', 'Protocol.', 'r'], error: ['string', 'Error.'] } },
  Endpoints: {
    group: 'core',
    description: 'The addresses and ports that implement a service (superseded by EndpointSlice).',
    fields: top({ subsets: ['[]EndpointSubset', 'Groups of addresses with their ports.'] }),
  },
  EndpointSubset: {
    group: 'core',
    description: 'Addresses sharing a set of ports.',
    fields: { addresses: ['[]EndpointAddress', 'Ready addresses.'], notReadyAddresses: ['[]EndpointAddress', 'Addresses not ready.'], ports: ['[]EndpointPort', 'The ports.'] },
  },
  EndpointAddress: {
    group: 'core',
    description: 'One endpoint address.',
    fields: { ip: ['string', 'The IP.', 'r'], hostname: ['string', 'Host name.'], nodeName: ['string', 'The node.'], targetRef: ['ObjectReference', 'The pod.'] },
  },
  EndpointPort: {
    group: 'core',
    description: 'An endpoint port.',
    fields: { name: ['string', 'Name.'], port: ['int32', 'Port.', 'r'], protocol: ['string', 'Protocol.'], appProtocol: ['string', 'Application protocol.'] },
  },
  ConfigMap: {
    group: 'core',
    description: 'A ConfigMap holds non-confidential configuration as key/value pairs, for pods to use as environment variables, arguments or files.',
    fields: top({
      immutable: ['boolean', 'When true, data cannot be changed.'],
      data: ['map[string]string', 'UTF-8 configuration data.'],
      binaryData: ['map[string]bytes', 'Binary data, base64-encoded.'],
    }),
  },
  Secret: {
    group: 'core',
    description: 'A Secret holds a small amount of sensitive data such as a password, a token or a key.',
    fields: top({
      immutable: ['boolean', 'When true, data cannot be changed.'],
      data: ['map[string]bytes', 'The secret data, base64-encoded.'],
      stringData: ['map[string]string', 'Write-only convenience: plain values merged into data on write.'],
      type: ['string', 'The secret type, e.g. Opaque or kubernetes.io/tls.'],
    }),
  },
  ServiceAccount: {
    group: 'core',
    description: 'A ServiceAccount is an identity for processes that run in pods.',
    fields: top({
      secrets: ['[]ObjectReference', 'Secrets of the account (legacy).'],
      imagePullSecrets: ['[]LocalObjectReference', 'Registry credentials for pods using the account.'],
      automountServiceAccountToken: ['boolean', 'Whether pods mount a token by default.'],
    }),
  },
  Event: {
    group: 'core',
    description: 'An Event reports something that happened to an object: a pod scheduled, an image pulled, a probe failed.',
    fields: top({
      involvedObject: ['ObjectReference', 'The object the event is about.', 'r'],
      reason: ['string', 'A short CamelCase reason, e.g. Scheduled, Pulled, Unhealthy.'],
      message: ['string', 'A human-readable description.'],
      source: ['EventSource', 'The component that reported it.'],
      firstTimestamp: ['Time', 'When the event was first recorded.'],
      lastTimestamp: ['Time', 'When it was most recently recorded.'],
      count: ['int32', 'How many times it occurred.'],
      type: ['string', 'Normal or Warning.'],
      eventTime: ['MicroTime', 'When it was first observed.'],
      series: ['EventSeries', 'Data about a series of this event.'],
      action: ['string', 'What was done or failed.'],
      related: ['ObjectReference', 'A secondary object.'],
      reportingComponent: ['string', 'The controller that emitted it.'],
      reportingInstance: ['string', 'The instance of that controller.'],
    }),
  },
  EventSource: { group: 'core', description: 'The source of an event.', fields: { component: ['string', 'Component.'], host: ['string', 'Node name.'] } },
  EventSeries: { group: 'core', description: 'A series of events.', fields: { count: ['int32', 'Occurrences.'], lastObservedTime: ['MicroTime', 'Last occurrence.'] } },

  // ---- apps/v1
  Deployment: {
    group: 'apps',
    description: 'A Deployment declares pods by a template and a replica count; it rolls changes out through ReplicaSets.',
    fields: top({ spec: ['DeploymentSpec', 'The desired state.'], status: ['DeploymentStatus', 'The observed state.'] }),
  },
  DeploymentSpec: {
    group: 'apps',
    description: 'The desired state of a deployment.',
    fields: {
      replicas: ['int32', 'Desired number of pods. Defaults to 1.'],
      selector: ['LabelSelector', 'Selects the pods it manages; must match the template labels. Immutable.', 'r'],
      template: ['PodTemplateSpec', 'The pods to create.', 'r'],
      strategy: ['DeploymentStrategy', 'How old pods are replaced by new ones.'],
      minReadySeconds: ['int32', 'Seconds a new pod must be ready to count as available.'],
      revisionHistoryLimit: ['int32', 'Old ReplicaSets to keep for rollback. Defaults to 10.'],
      paused: ['boolean', 'Pause the rollout.'],
      progressDeadlineSeconds: ['int32', 'Seconds before a stalled rollout is reported. Defaults to 600.'],
    },
  },
  DeploymentStrategy: {
    group: 'apps',
    description: 'How a deployment replaces pods.',
    fields: { type: ['string', 'RollingUpdate (default) or Recreate.'], rollingUpdate: ['RollingUpdateDeployment', 'Rolling update parameters.'] },
  },
  RollingUpdateDeployment: {
    group: 'apps',
    description: 'Rolling update parameters.',
    fields: {
      maxUnavailable: ['IntOrString', 'Pods that may be unavailable during the update (number or percentage). Defaults to 25%.'],
      maxSurge: ['IntOrString', 'Pods that may be created above the desired count. Defaults to 25%.'],
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
      conditions: ['[]DeploymentCondition', 'Available, Progressing, ReplicaFailure.'],
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
      replicas: ['int32', 'Desired pods. Defaults to 1.'],
      minReadySeconds: ['int32', 'Seconds ready to count as available.'],
      selector: ['LabelSelector', 'Selects its pods.', 'r'],
      template: ['PodTemplateSpec', 'The pods to create.'],
    },
  },
  ReplicaSetStatus: {
    group: 'apps',
    description: 'The observed state of a replica set.',
    fields: {
      replicas: ['int32', 'Pods that exist.', 'r'],
      fullyLabeledReplicas: ['int32', 'Pods with all template labels.'],
      readyReplicas: ['int32', 'Ready pods.'],
      availableReplicas: ['int32', 'Available pods.'],
      terminatingReplicas: ['int32', 'Terminating pods.'],
      observedGeneration: ['int64', 'Generation observed.'],
      conditions: ['[]ReplicaSetCondition', 'Conditions.'],
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
      selector: ['LabelSelector', 'Selects its pods.', 'r'],
      template: ['PodTemplateSpec', 'The pod to run on each node.', 'r'],
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
      currentNumberScheduled: ['int32', 'Nodes running a daemon pod.', 'r'],
      numberMisscheduled: ['int32', 'Nodes running it that should not.', 'r'],
      desiredNumberScheduled: ['int32', 'Nodes that should run it.', 'r'],
      numberReady: ['int32', 'Nodes with a ready pod.', 'r'],
      observedGeneration: ['int64', 'Generation observed.'],
      updatedNumberScheduled: ['int32', 'Nodes running the current template.'],
      numberAvailable: ['int32', 'Nodes with an available pod.'],
      numberUnavailable: ['int32', 'Nodes without an available pod.'],
      collisionCount: ['int32', 'Hash collisions seen.'],
      conditions: ['[]DaemonSetCondition', 'Conditions.'],
    },
  },
  DaemonSetCondition: { group: 'apps', description: 'A daemon set condition.', fields: cond('daemon set') },

  // ---- discovery.k8s.io/v1, coordination.k8s.io/v1, autoscaling/v1, policy/v1
  EndpointSlice: {
    group: 'discovery',
    description: 'An EndpointSlice lists some of the endpoints of a service; kube-proxy programs rules from them.',
    fields: top({
      addressType: ['string', 'IPv4, IPv6 or FQDN.', 'r'],
      endpoints: ['[]Endpoint', 'The endpoints.', 'r'],
      ports: ['[]DiscoveryEndpointPort', 'The ports of every endpoint.'],
    }),
  },
  Endpoint: {
    group: 'discovery',
    description: 'One endpoint of a slice.',
    fields: {
      addresses: ['[]string', 'Its addresses.', 'r'],
      conditions: ['EndpointConditions', 'ready, serving, terminating.'],
      hostname: ['string', 'Host name.'],
      targetRef: ['ObjectReference', 'The pod.'],
      deprecatedTopology: ['map[string]string', 'Deprecated.'],
      nodeName: ['string', 'The node.'],
      zone: ['string', 'The zone.'],
      hints: ['EndpointHints', 'Topology hints.'],
    },
  },
  EndpointConditions: {
    group: 'discovery',
    description: 'Conditions of an endpoint.',
    fields: { ready: ['boolean', 'Ready to receive traffic.'], serving: ['boolean', 'Serving (even if terminating).'], terminating: ['boolean', 'Terminating.'] },
  },
  EndpointHints: { group: 'discovery', description: 'Topology hints.', fields: { forZones: ['object', 'Zones.'], forNodes: ['object', 'Nodes.'] } },
  DiscoveryEndpointPort: {
    group: 'discovery',
    name: 'EndpointPort',
    description: 'A port of an endpoint slice.',
    fields: { name: ['string', 'Name.'], protocol: ['string', 'Protocol.'], port: ['int32', 'Port.'], appProtocol: ['string', 'Application protocol.'] },
  },
  Lease: {
    group: 'coordination',
    description: 'A Lease is a lock with a holder and a renew time, used for node heartbeats and leader election.',
    fields: top({ spec: ['LeaseSpec', 'The lease.'] }),
  },
  LeaseSpec: {
    group: 'coordination',
    description: 'The content of a lease.',
    fields: {
      holderIdentity: ['string', 'Who holds it.'],
      leaseDurationSeconds: ['int32', 'How long a holder keeps it without renewing.'],
      acquireTime: ['MicroTime', 'When it was acquired.'],
      renewTime: ['MicroTime', 'When it was last renewed.'],
      leaseTransitions: ['int32', 'How many times the holder changed.'],
      strategy: ['string', 'Leader election strategy.'],
      preferredHolder: ['string', 'The preferred next holder.'],
    },
  },
  Scale: {
    group: 'autoscaling',
    description: 'Scale is the scale subresource of a deployment or replica set: its desired and current replicas.',
    fields: top({ spec: ['ScaleSpec', 'Desired scale.'], status: ['ScaleStatus', 'Current scale.'] }),
  },
  ScaleSpec: { group: 'autoscaling', description: 'Desired scale.', fields: { replicas: ['int32', 'Desired replicas.'] } },
  ScaleStatus: {
    group: 'autoscaling',
    description: 'Current scale.',
    fields: { replicas: ['int32', 'Current replicas.', 'r'], selector: ['string', 'The label selector of the pods, as a string.'] },
  },
  Eviction: {
    group: 'policy',
    description: 'An Eviction, posted to pods/<name>/eviction, deletes a pod gracefully (as kubectl drain does).',
    fields: { apiVersion: API_VERSION, kind: KIND, metadata: META_FIELD, deleteOptions: ['DeleteOptions', 'Options of the deletion.'] },
  },
};

/** The OpenAPI component name of a type, e.g. io.k8s.api.core.v1.Pod. */
export function openapiName(typeName: string): string {
  const t = TYPES[typeName];
  if (!t) throw new Error(`unknown schema type ${typeName}`);
  const last = t.name ?? typeName;
  switch (t.group) {
    case 'meta':
      return `io.k8s.apimachinery.pkg.apis.meta.v1.${last}`;
    case 'intstr':
      return `io.k8s.apimachinery.pkg.util.intstr.${last}`;
    case 'resource':
      return `io.k8s.apimachinery.pkg.api.resource.${last}`;
    default:
      return `io.k8s.api.${t.group}.v1.${last}`;
  }
}

// EphemeralContainer: a Container plus the container whose namespaces it targets.
TYPES.EphemeralContainer!.fields = { ...TYPES.Container!.fields, targetContainerName: ['string', 'The container whose namespaces it joins.'] };
