// The default RBAC policy every cluster starts with, as data: upstream's
// bootstrap policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy: policy.go,
// controller_policy.go for the controllers kubelab's controller-manager runs,
// namespace_policy.go) and the objects `kubeadm init` adds (its bootstraptoken,
// kubelet, uploadconfig and kube-proxy phases). Upstream's objects carry the
// `kubernetes.io/bootstrapping: rbac-defaults` label and the autoupdate
// annotation; kubeadm's carry neither. Rules are written as upstream builds
// them (NewRule): every list sorted, duplicates dropped.

import { ANNOTATION_AUTOUPDATE, RBAC_GROUP, type ClusterRole, type ClusterRoleBinding, type KubeObject, type PolicyRule, type Role, type RoleBinding, type Subject } from '@kubelab/api';

type ObjectMeta = KubeObject['metadata'];

export const BOOTSTRAPPING_LABEL = 'kubernetes.io/bootstrapping';

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];
const READ_WRITE = [...READ, ...WRITE];

const core = '';
const apps = 'apps';
const authentication = 'authentication.k8s.io';
const authorization = 'authorization.k8s.io';
const autoscaling = 'autoscaling';
const batch = 'batch';
const certificates = 'certificates.k8s.io';
const coordination = 'coordination.k8s.io';
const discovery = 'discovery.k8s.io';
const events = 'events.k8s.io';
const extensions = 'extensions';
const networking = 'networking.k8s.io';
const policy = 'policy';
const rbac = RBAC_GROUP;
const storage = 'storage.k8s.io';

const sorted = (xs: readonly string[]): string[] => [...new Set(xs)].sort();

/** A resource rule (upstream NewRule(verbs).Groups(groups).Resources(resources).Names(names)). */
function rule(verbs: readonly string[], groups: readonly string[], resources: readonly string[], names: readonly string[] = []): PolicyRule {
  const r: PolicyRule = { verbs: sorted(verbs), apiGroups: sorted(groups), resources: sorted(resources) };
  if (names.length) r.resourceNames = sorted(names);
  return r;
}

/** A non-resource rule (NewRule(verbs).URLs(urls)). */
const urls = (verbs: readonly string[], paths: readonly string[]): PolicyRule => ({ verbs: sorted(verbs), nonResourceURLs: sorted(paths) });

/** Upstream eventsRule(): events in the core and events.k8s.io groups. */
const eventsRule = (): PolicyRule => rule(['create', 'update', 'patch'], [core, events], ['events']);

const AGGREGATE_TO = (role: 'admin' | 'edit' | 'view') => `rbac.authorization.k8s.io/aggregate-to-${role}`;

function upstreamMeta(name: string, namespace?: string, labels: Record<string, string> = {}): ObjectMeta {
  return { name, ...(namespace ? { namespace } : {}), labels: { [BOOTSTRAPPING_LABEL]: 'rbac-defaults', ...labels }, annotations: { [ANNOTATION_AUTOUPDATE]: 'true' } };
}

function clusterRole(name: string, rules: PolicyRule[], opts: { labels?: Record<string, string>; aggregate?: 'admin' | 'edit' | 'view' } = {}): ClusterRole {
  const r: ClusterRole = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: upstreamMeta(name, undefined, opts.labels) };
  // An aggregated role starts without rules (`rules: null` upstream): the clusterrole-aggregation controller fills them.
  if (opts.aggregate) r.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [AGGREGATE_TO(opts.aggregate)]: 'true' } }] };
  else r.rules = rules;
  return r;
}

const userSubject = (name: string): Subject => ({ kind: 'User', apiGroup: RBAC_GROUP, name });
const groupSubject = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC_GROUP, name });
const saSubject = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

function clusterRoleBinding(name: string, roleName: string, subjects: Subject[], meta: ObjectMeta = upstreamMeta(name)): ClusterRoleBinding {
  const b: ClusterRoleBinding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: meta, roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName } };
  if (subjects.length) b.subjects = subjects;
  return b;
}

const role = (namespace: string, name: string, rules: PolicyRule[], meta: ObjectMeta = upstreamMeta(name, namespace)): Role => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: meta,
  rules,
});

function roleBinding(namespace: string, name: string, roleName: string, subjects: Subject[], meta: ObjectMeta = upstreamMeta(name, namespace)): RoleBinding {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: meta, roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: roleName }, subjects };
}

/** The node rules (upstream NodeRules): what a kubelet may do, before the Node authorizer narrows it to its own node. */
export const NODE_RULES: readonly PolicyRule[] = [
  rule(['create'], [authentication], ['tokenreviews']),
  rule(['create'], [authorization], ['subjectaccessreviews', 'localsubjectaccessreviews']),
  rule(READ, [core], ['services']),
  rule(['create', 'get', 'list', 'watch'], [core], ['nodes']),
  rule(['update', 'patch'], [core], ['nodes/status']),
  rule(['update', 'patch'], [core], ['nodes']),
  rule(['create', 'update', 'patch'], [core], ['events']),
  rule(READ, [core], ['pods']),
  rule(['create', 'delete'], [core], ['pods']),
  rule(['update', 'patch'], [core], ['pods/status']),
  rule(['create'], [core], ['pods/eviction']),
  rule(['get', 'list', 'watch'], [core], ['secrets', 'configmaps']),
  rule(['get'], [core], ['persistentvolumeclaims', 'persistentvolumes']),
  rule(['get'], [core], ['endpoints']),
  rule(['create', 'get', 'list', 'watch'], [certificates], ['certificatesigningrequests']),
  rule(['get', 'create', 'update', 'patch', 'delete'], [coordination], ['leases']),
  rule(['get'], [storage], ['volumeattachments']),
  rule(['create'], [core], ['serviceaccounts/token']),
  rule(['get', 'update', 'patch'], [core], ['persistentvolumeclaims/status']),
  rule(['get', 'watch', 'list'], [storage], ['csidrivers']),
  rule(['get', 'create', 'update', 'patch', 'delete'], [storage], ['csinodes']),
  rule(['get', 'list', 'watch'], ['node.k8s.io'], ['runtimeclasses']),
];

/** Upstream's default ClusterRoles (policy.go), by name. */
function upstreamClusterRoles(): ClusterRole[] {
  return [
    clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
    clusterRole('system:discovery', [urls(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'])]),
    clusterRole('system:monitoring', [urls(['get'], ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'])]),
    clusterRole('system:basic-user', [rule(['create'], [authorization], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']), rule(['create'], [authentication], ['selfsubjectreviews'])]),
    clusterRole('system:public-info-viewer', [urls(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/'])]),
    clusterRole('admin', [], { aggregate: 'admin' }),
    clusterRole('edit', [], { aggregate: 'edit', labels: { [AGGREGATE_TO('admin')]: 'true' } }),
    clusterRole('view', [], { aggregate: 'view', labels: { [AGGREGATE_TO('edit')]: 'true' } }),
    clusterRole('system:aggregate-to-admin', [rule(['create'], [authorization], ['localsubjectaccessreviews']), rule(READ_WRITE, [rbac], ['roles', 'rolebindings'])], {
      labels: { [AGGREGATE_TO('admin')]: 'true' },
    }),
    clusterRole(
      'system:aggregate-to-edit',
      [
        rule(READ, [core], ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
        rule(['impersonate'], [core], ['serviceaccounts']),
        rule(WRITE, [core], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
        rule(['create'], [core], ['pods/eviction']),
        rule(WRITE, [core], ['replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets', 'events']),
        rule(['create'], [core], ['serviceaccounts/token']),
        rule(WRITE, [apps], ['statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'replicasets', 'replicasets/scale']),
        rule(WRITE, [autoscaling], ['horizontalpodautoscalers']),
        rule(WRITE, [batch], ['jobs', 'cronjobs']),
        rule(
          WRITE,
          [extensions],
          ['daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'ingresses', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale', 'networkpolicies'],
        ),
        rule(WRITE, [policy], ['poddisruptionbudgets']),
        rule(WRITE, [networking], ['networkpolicies', 'ingresses']),
        rule(READ_WRITE, [coordination], ['leases']),
      ],
      { labels: { [AGGREGATE_TO('edit')]: 'true' } },
    ),
    clusterRole(
      'system:aggregate-to-view',
      [
        rule(
          READ,
          [core],
          [
            'pods',
            'replicationcontrollers',
            'replicationcontrollers/scale',
            'serviceaccounts',
            'services',
            'services/status',
            'endpoints',
            'persistentvolumeclaims',
            'persistentvolumeclaims/status',
            'configmaps',
          ],
        ),
        rule(READ, [core], ['limitranges', 'resourcequotas', 'bindings', 'events', 'pods/status', 'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log']),
        rule(READ, [core], ['namespaces']),
        rule(READ, [discovery], ['endpointslices']),
        rule(
          READ,
          [apps],
          [
            'controllerrevisions',
            'statefulsets',
            'statefulsets/status',
            'statefulsets/scale',
            'daemonsets',
            'daemonsets/status',
            'deployments',
            'deployments/status',
            'deployments/scale',
            'replicasets',
            'replicasets/status',
            'replicasets/scale',
          ],
        ),
        rule(READ, [autoscaling], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
        rule(READ, [batch], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
        rule(
          READ,
          [extensions],
          [
            'daemonsets',
            'daemonsets/status',
            'deployments',
            'deployments/scale',
            'deployments/status',
            'ingresses',
            'ingresses/status',
            'replicasets',
            'replicasets/scale',
            'replicasets/status',
            'replicationcontrollers/scale',
            'networkpolicies',
          ],
        ),
        rule(READ, [policy], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
        rule(READ, [networking], ['ingresses', 'ingresses/status', 'networkpolicies']),
      ],
      { labels: { [AGGREGATE_TO('view')]: 'true' } },
    ),
    clusterRole('system:heapster', [rule(READ, [core], ['events', 'pods', 'nodes', 'namespaces']), rule(READ, [extensions], ['deployments'])]),
    clusterRole('system:node', [...NODE_RULES]),
    clusterRole('system:node-problem-detector', [rule(['get'], [core], ['nodes']), rule(['patch'], [core], ['nodes/status']), eventsRule()]),
    clusterRole('system:kubelet-api-admin', [rule(READ, [core], ['nodes']), rule(['proxy'], [core], ['nodes']), rule(['*'], [core], ['nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log'])]),
    clusterRole('system:node-bootstrapper', [rule(['create', 'get', 'list', 'watch'], [certificates], ['certificatesigningrequests'])]),
    clusterRole('system:auth-delegator', [rule(['create'], [authentication], ['tokenreviews']), rule(['create'], [authorization], ['subjectaccessreviews'])]),
    clusterRole('system:kube-aggregator', [rule(READ, [core], ['services', 'endpoints'])]),
    clusterRole('system:kube-controller-manager', [
      eventsRule(),
      rule(['create'], [coordination], ['leases']),
      rule(['get', 'update'], [coordination], ['leases'], ['kube-controller-manager']),
      rule(['create'], [core], ['secrets', 'serviceaccounts']),
      rule(['delete'], [core], ['secrets']),
      rule(['get'], [core], ['namespaces', 'secrets', 'serviceaccounts', 'configmaps']),
      rule(['update'], [core], ['secrets', 'serviceaccounts']),
      rule(['create'], [authentication], ['tokenreviews']),
      rule(['create'], [authorization], ['subjectaccessreviews']),
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['create'], [core], ['serviceaccounts/token']),
    ]),
    clusterRole('system:kube-dns', [rule(['list', 'watch'], [core], ['endpoints', 'services'])]),
    clusterRole('system:persistent-volume-provisioner', [
      rule(['get', 'list', 'watch', 'create', 'delete'], [core], ['persistentvolumes']),
      rule(['get', 'list', 'watch', 'update'], [core], ['persistentvolumeclaims']),
      rule(READ, [storage], ['storageclasses']),
      rule(['watch'], [core], ['events']),
      eventsRule(),
    ]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [rule(['create'], [certificates], ['certificatesigningrequests/nodeclient'])]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [rule(['create'], [certificates], ['certificatesigningrequests/selfnodeclient'])]),
    clusterRole('system:volume-scheduler', [
      rule(['get', 'list', 'watch', 'patch', 'update'], [core], ['persistentvolumes']),
      rule(READ, [storage], ['storageclasses']),
      rule(['get', 'list', 'watch', 'patch', 'update'], [core], ['persistentvolumeclaims']),
    ]),
    clusterRole('system:certificates.k8s.io:legacy-unknown-approver', [rule(['approve'], [certificates], ['signers'], ['kubernetes.io/legacy-unknown'])]),
    clusterRole('system:certificates.k8s.io:kubelet-serving-approver', [rule(['approve'], [certificates], ['signers'], ['kubernetes.io/kubelet-serving'])]),
    clusterRole('system:certificates.k8s.io:kube-apiserver-client-approver', [rule(['approve'], [certificates], ['signers'], ['kubernetes.io/kube-apiserver-client'])]),
    clusterRole('system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', [rule(['approve'], [certificates], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet'])]),
    clusterRole('system:service-account-issuer-discovery', [urls(['get'], ['/.well-known/openid-configuration', '/openid/v1/jwks'])]),
    clusterRole('system:node-proxier', [
      rule(['list', 'watch'], [core], ['services', 'endpoints']),
      rule(READ, [core], ['nodes']),
      eventsRule(),
      rule(['list', 'watch'], [discovery], ['endpointslices']),
    ]),
    clusterRole('system:kube-scheduler', [
      eventsRule(),
      rule(['create'], [coordination], ['leases']),
      rule(['get', 'update'], [coordination], ['leases'], ['kube-scheduler']),
      rule(READ, [core], ['nodes']),
      rule(['get', 'list', 'watch', 'delete'], [core], ['pods']),
      rule(['create'], [core], ['pods/binding', 'bindings']),
      rule(['patch', 'update'], [core], ['pods/status']),
      rule(READ, [core], ['services', 'replicationcontrollers']),
      rule(READ, [apps, extensions], ['replicasets']),
      rule(READ, [apps], ['statefulsets']),
      rule(READ, [policy], ['poddisruptionbudgets']),
      rule(READ, [core], ['persistentvolumeclaims', 'persistentvolumes']),
      rule(['create'], [authentication], ['tokenreviews']),
      rule(['create'], [authorization], ['subjectaccessreviews']),
      rule(READ, [storage], ['csinodes']),
      rule(READ, [core], ['namespaces']),
      rule(READ, [storage], ['csidrivers']),
      rule(READ, [storage], ['csistoragecapacities']),
    ]),
  ];
}

/** Upstream's default ClusterRoleBindings (policy.go ClusterRoleBindings). */
function upstreamClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    clusterRoleBinding('cluster-admin', 'cluster-admin', [groupSubject('system:masters')]),
    clusterRoleBinding('system:monitoring', 'system:monitoring', [groupSubject('system:monitoring')]),
    clusterRoleBinding('system:discovery', 'system:discovery', [groupSubject('system:authenticated')]),
    clusterRoleBinding('system:basic-user', 'system:basic-user', [groupSubject('system:authenticated')]),
    clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', [groupSubject('system:authenticated'), groupSubject('system:unauthenticated')]),
    clusterRoleBinding('system:node-proxier', 'system:node-proxier', [userSubject('system:kube-proxy')]),
    clusterRoleBinding('system:kube-controller-manager', 'system:kube-controller-manager', [userSubject('system:kube-controller-manager')]),
    clusterRoleBinding('system:kube-dns', 'system:kube-dns', [saSubject('kube-system', 'kube-dns')]),
    clusterRoleBinding('system:kube-scheduler', 'system:kube-scheduler', [userSubject('system:kube-scheduler')]),
    clusterRoleBinding('system:volume-scheduler', 'system:volume-scheduler', [userSubject('system:kube-scheduler')]),
    // Kept without subjects since the Node authorizer (1.7): nodes get system:node's rules through it.
    clusterRoleBinding('system:node', 'system:node', []),
    clusterRoleBinding('system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', [groupSubject('system:serviceaccounts')]),
  ];
}

/**
 * The controllers' own roles (controller_policy.go), those of controllers
 * kubelab does not run included, each bound to its
 * ServiceAccount in kube-system (used with --use-service-account-credentials).
 */
function controllerRoles(): ClusterRole[] {
  const c = (name: string, rules: PolicyRule[]) => clusterRole(`system:controller:${name}`, rules);
  return [
    c('certificate-controller', [
      rule(['get', 'list', 'watch', 'delete'], [certificates], ['certificatesigningrequests']),
      rule(['update'], [certificates], ['certificatesigningrequests/status', 'certificatesigningrequests/approval']),
      rule(['approve'], [certificates], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
      rule(
        ['sign'],
        [certificates],
        ['signers'],
        ['kubernetes.io/legacy-unknown', 'kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving'],
      ),
      rule(['create'], [authorization], ['subjectaccessreviews']),
      eventsRule(),
    ]),
    c('clusterrole-aggregation-controller', [rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], [rbac], ['clusterroles'])]),
    c('daemon-set-controller', [
      rule(READ, [apps, extensions], ['daemonsets']),
      rule(['update'], [apps, extensions], ['daemonsets/status']),
      rule(['update'], [apps, extensions], ['daemonsets/finalizers']),
      rule(['list', 'watch'], [core], ['nodes']),
      rule(['list', 'watch', 'create', 'delete', 'patch'], [core], ['pods']),
      rule(['create'], [core], ['pods/binding']),
      rule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], [apps], ['controllerrevisions']),
      eventsRule(),
    ]),
    c('deployment-controller', [
      rule(['get', 'list', 'watch', 'update'], [apps, extensions], ['deployments']),
      rule(['update'], [apps, extensions], ['deployments/status']),
      rule(['update'], [apps, extensions], ['deployments/finalizers']),
      rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], [apps, extensions], ['replicasets']),
      rule(['get', 'list', 'watch', 'update'], [core], ['pods']),
      eventsRule(),
    ]),
    c('disruption-controller', [
      rule(READ, [extensions, apps], ['deployments']),
      rule(READ, [apps, extensions], ['replicasets']),
      rule(READ, [core], ['replicationcontrollers']),
      rule(READ, [policy], ['poddisruptionbudgets']),
      rule(READ, [apps], ['statefulsets']),
      rule(['update'], [policy], ['poddisruptionbudgets/status']),
      rule(['get'], ['*'], ['*/scale']),
      rule(['patch', 'update'], [core], ['pods/status']),
      eventsRule(),
    ]),
    c('resourcequota-controller', [
      // Quota counts anything, so it may list and watch everything.
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['update'], [core], ['resourcequotas/status']),
      eventsRule(),
    ]),
    c('endpoint-controller', [
      rule(READ, [core], ['services', 'pods']),
      rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [core], ['endpoints']),
      rule(['create'], [core], ['endpoints/restricted']),
      eventsRule(),
    ]),
    c('endpointslice-controller', [
      rule(READ, [core], ['services', 'pods', 'nodes']),
      rule(['update'], [core], ['services/finalizers']),
      rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [discovery], ['endpointslices']),
      eventsRule(),
    ]),
    c('generic-garbage-collector', [rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']), eventsRule()]),
    c('namespace-controller', [
      rule(['get', 'list', 'watch', 'delete'], [core], ['namespaces']),
      rule(['update'], [core], ['namespaces/finalize', 'namespaces/status']),
      rule(['get', 'list', 'watch', 'delete', 'deletecollection'], ['*'], ['*']),
    ]),
    c('node-controller', [
      rule(['get', 'list', 'update', 'delete', 'patch', 'watch'], [core], ['nodes']),
      rule(['patch', 'update'], [core], ['nodes/status']),
      rule(['patch', 'update'], [core], ['pods/status']),
      rule(['list', 'watch', 'delete', 'get'], [core], ['pods']),
      eventsRule(),
    ]),
    c('pod-garbage-collector', [rule(['list', 'watch', 'delete'], [core], ['pods']), rule(READ, [core], ['nodes']), rule(['patch'], [core], ['pods/status'])]),
    c('replicaset-controller', [
      rule(['get', 'list', 'watch', 'update'], [apps, extensions], ['replicasets']),
      rule(['update'], [apps, extensions], ['replicasets/status']),
      rule(['update'], [apps, extensions], ['replicasets/finalizers']),
      rule(['list', 'watch', 'patch', 'create', 'delete'], [core], ['pods']),
      eventsRule(),
    ]),
    c('root-ca-cert-publisher', [rule(['create', 'update'], [core], ['configmaps']), eventsRule()]),
    c('service-account-controller', [rule(['create'], [core], ['serviceaccounts']), eventsRule()]),
    c('service-controller', [
      rule(READ, [core], ['services']),
      rule(['patch', 'update'], [core], ['services']),
      rule(['patch', 'update'], [core], ['services/status']),
      rule(['list', 'watch'], [core], ['nodes']),
      eventsRule(),
    ]),
    c('statefulset-controller', [
      rule(['list', 'watch'], [core], ['pods']),
      rule(READ, [apps], ['statefulsets']),
      rule(['update'], [apps], ['statefulsets/status']),
      rule(['update'], [apps], ['statefulsets/finalizers']),
      rule(['get', 'create', 'delete', 'update', 'patch'], [core], ['pods']),
      rule(['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'], [apps], ['controllerrevisions']),
      rule(['get', 'create'], [core], ['persistentvolumeclaims']),
      rule(['update', 'delete'], [core], ['persistentvolumeclaims']),
      eventsRule(),
    ]),
    c('job-controller', [
      rule(['get', 'list', 'watch', 'update', 'patch'], [batch], ['jobs']),
      rule(['update', 'patch'], [batch], ['jobs/status']),
      rule(['update'], [batch], ['jobs/finalizers']),
      rule(['list', 'watch', 'create', 'delete', 'patch'], [core], ['pods']),
      eventsRule(),
    ]),
    c('cronjob-controller', [
      rule(['get', 'list', 'watch', 'update'], [batch], ['cronjobs']),
      rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], [batch], ['jobs']),
      rule(['update'], [batch], ['cronjobs/status']),
      rule(['update'], [batch], ['cronjobs/finalizers']),
      rule(['list', 'delete'], [core], ['pods']),
      eventsRule(),
    ]),
    c('ttl-after-finished-controller', [rule(['get', 'list', 'watch', 'delete'], [batch], ['jobs']), eventsRule()]),
    // Persistent storage: the binder (with kubelab's local-path provisioner in it) and the protection controllers.
    c('persistent-volume-binder', [
      rule(['get', 'list', 'watch', 'update', 'create', 'delete'], [core], ['persistentvolumes']),
      rule(['update'], [core], ['persistentvolumes/status']),
      rule(['get', 'list', 'watch', 'update'], [core], ['persistentvolumeclaims']),
      rule(['update'], [core], ['persistentvolumeclaims/status']),
      rule(['list', 'watch', 'get', 'create', 'delete'], [core], ['pods']),
      rule(READ, [storage], ['storageclasses']),
      rule(['list', 'watch'], [core], ['nodes']),
      eventsRule(),
    ]),
    c('pvc-protection-controller', [rule(['get', 'list', 'watch', 'update'], [core], ['persistentvolumeclaims']), rule(['list', 'watch', 'get'], [core], ['pods']), eventsRule()]),
    c('pv-protection-controller', [rule(['get', 'list', 'watch', 'update'], [core], ['persistentvolumes']), eventsRule()]),
    // Roles of controllers kubelab does not run: upstream's bootstrap policy has them whatever runs.
    c('attachdetach-controller', [
      rule(['list', 'watch'], [core], ['persistentvolumes', 'persistentvolumeclaims']),
      rule(READ, [core], ['nodes']),
      rule(['patch', 'update'], [core], ['nodes/status']),
      rule(['list', 'watch'], [core], ['pods']),
      eventsRule(),
      rule(['get', 'create', 'delete', 'list', 'watch'], [storage], ['volumeattachments']),
      rule(READ, [storage], ['csidrivers']),
      rule(READ, [storage], ['csinodes']),
    ]),
    c('endpointslicemirroring-controller', [
      rule(READ, [core], ['services', 'endpoints']),
      rule(['update'], [core], ['services/finalizers']),
      rule(['update'], [core], ['endpoints/finalizers']),
      rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [discovery], ['endpointslices']),
      eventsRule(),
    ]),
    c('expand-controller', [
      rule(['get', 'list', 'watch', 'update', 'patch'], [core], ['persistentvolumes']),
      rule(['update', 'patch'], [core], ['persistentvolumeclaims/status']),
      rule(READ, [core], ['persistentvolumeclaims']),
      eventsRule(),
      rule(['get'], [core], ['services']),
    ]),
    c('ephemeral-volume-controller', [
      rule(READ, [core], ['pods']),
      rule(['update'], [core], ['pods/finalizers']),
      rule(['get', 'list', 'watch', 'create'], [core], ['persistentvolumeclaims']),
      eventsRule(),
    ]),
    c('replication-controller', [
      rule(['get', 'list', 'watch', 'update'], [core], ['replicationcontrollers']),
      rule(['update'], [core], ['replicationcontrollers/status']),
      rule(['update'], [core], ['replicationcontrollers/finalizers']),
      rule(['list', 'watch', 'patch', 'create', 'delete'], [core], ['pods']),
      eventsRule(),
    ]),
    c('route-controller', [rule(['list', 'watch'], [core], ['nodes']), rule(['patch'], [core], ['nodes/status']), eventsRule()]),
    c('ttl-controller', [rule(['update', 'patch', 'list', 'watch'], [core], ['nodes']), eventsRule()]),
    c('validatingadmissionpolicy-status-controller', [
      rule(READ, ['admissionregistration.k8s.io'], ['validatingadmissionpolicies']),
      rule(['get', 'patch', 'update'], ['admissionregistration.k8s.io'], ['validatingadmissionpolicies/status']),
      eventsRule(),
    ]),
    c('legacy-service-account-token-cleaner', [rule(['get'], [core], ['configmaps'], ['kube-apiserver-legacy-service-account-token-tracking']), rule(['patch', 'delete'], [core], ['secrets'])]),
    c('horizontal-pod-autoscaler', [
      rule(READ, [autoscaling], ['horizontalpodautoscalers']),
      rule(['update'], [autoscaling], ['horizontalpodautoscalers/status']),
      rule(['get', 'update'], ['*'], ['*/scale']),
      rule(['list'], [core], ['pods']),
      rule(['get'], [core], ['services/proxy'], ['https:heapster:', 'http:heapster:']),
      rule(['list'], ['metrics.k8s.io'], ['pods']),
      rule(['get', 'list'], ['custom.metrics.k8s.io'], ['*']),
      rule(['get', 'list'], ['external.metrics.k8s.io'], ['*']),
      eventsRule(),
    ]),
  ];
}

function controllerRoleBindings(roles: readonly ClusterRole[]): ClusterRoleBinding[] {
  return roles.map((r) => {
    const name = r.metadata.name!;
    return clusterRoleBinding(name, name, [saSubject('kube-system', name.slice('system:controller:'.length))]);
  });
}

/** Roles in kube-system and kube-public (namespace_policy.go). */
function upstreamRoles(): Role[] {
  const leaderLocking = [rule(['watch', 'get', 'list', 'create', 'update'], [coordination], ['leases']), rule(['watch', 'get', 'list', 'create', 'update'], [coordination], ['leasecandidates'])];
  return [
    role('kube-system', 'extension-apiserver-authentication-reader', [rule(READ, [core], ['configmaps'], ['extension-apiserver-authentication'])]),
    role('kube-system', 'system::leader-locking-kube-controller-manager', leaderLocking),
    role('kube-system', 'system::leader-locking-kube-scheduler', leaderLocking),
    role('kube-system', 'system:controller:bootstrap-signer', [rule(READ, [core], ['secrets'])]),
    role('kube-system', 'system:controller:token-cleaner', [rule(['delete', 'get', 'list', 'watch'], [core], ['secrets']), eventsRule()]),
    role('kube-public', 'system:controller:bootstrap-signer', [rule(READ, [core], ['configmaps']), rule(['update'], [core], ['configmaps'], ['cluster-info']), eventsRule()]),
  ];
}

function upstreamRoleBindings(): RoleBinding[] {
  return [
    roleBinding('kube-system', 'system::extension-apiserver-authentication-reader', 'extension-apiserver-authentication-reader', [
      userSubject('system:kube-controller-manager'),
      userSubject('system:kube-scheduler'),
    ]),
    roleBinding('kube-system', 'system::leader-locking-kube-controller-manager', 'system::leader-locking-kube-controller-manager', [
      userSubject('system:kube-controller-manager'),
      saSubject('kube-system', 'kube-controller-manager'),
      saSubject('kube-system', 'leader-election-controller'),
    ]),
    roleBinding('kube-system', 'system::leader-locking-kube-scheduler', 'system::leader-locking-kube-scheduler', [userSubject('system:kube-scheduler'), saSubject('kube-system', 'kube-scheduler')]),
    roleBinding('kube-system', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [saSubject('kube-system', 'bootstrap-signer')]),
    roleBinding('kube-system', 'system:controller:token-cleaner', 'system:controller:token-cleaner', [saSubject('kube-system', 'token-cleaner')]),
    roleBinding('kube-public', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [saSubject('kube-system', 'bootstrap-signer')]),
  ];
}

/** kubeadm's bootstrap-token group: kubelets joining with the default token (constants.NodeBootstrapTokenAuthGroup). */
export const KUBEADM_BOOTSTRAP_GROUP = 'system:bootstrappers:kubeadm:default-node-token';
/** The group of admin.conf's user (kubeadm ≥1.29; bound to cluster-admin instead of being system:masters). */
export const KUBEADM_CLUSTER_ADMINS_GROUP = 'kubeadm:cluster-admins';

/** What `kubeadm init` creates: plain objects, no bootstrapping label or autoupdate annotation. */
function kubeadmPolicy(): { clusterRoles: ClusterRole[]; clusterRoleBindings: ClusterRoleBinding[]; roles: Role[]; roleBindings: RoleBinding[] } {
  const meta = (name: string, namespace?: string): ObjectMeta => ({ name, ...(namespace ? { namespace } : {}) });
  const getConfigMap = (ns: string, name: string, cm: string) => role(ns, name, [rule(['get'], [core], ['configmaps'], [cm])], meta(name, ns));
  const nodeGroups = [groupSubject('system:nodes'), groupSubject(KUBEADM_BOOTSTRAP_GROUP)];
  return {
    clusterRoles: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: meta('kubeadm:get-nodes'), rules: [rule(['get'], [core], ['nodes'])] }],
    clusterRoleBindings: [
      clusterRoleBinding('kubeadm:cluster-admins', 'cluster-admin', [groupSubject(KUBEADM_CLUSTER_ADMINS_GROUP)], meta('kubeadm:cluster-admins')),
      clusterRoleBinding('kubeadm:get-nodes', 'kubeadm:get-nodes', [groupSubject(KUBEADM_BOOTSTRAP_GROUP)], meta('kubeadm:get-nodes')),
      clusterRoleBinding('kubeadm:kubelet-bootstrap', 'system:node-bootstrapper', [groupSubject(KUBEADM_BOOTSTRAP_GROUP)], meta('kubeadm:kubelet-bootstrap')),
      clusterRoleBinding(
        'kubeadm:node-autoapprove-bootstrap',
        'system:certificates.k8s.io:certificatesigningrequests:nodeclient',
        [groupSubject(KUBEADM_BOOTSTRAP_GROUP)],
        meta('kubeadm:node-autoapprove-bootstrap'),
      ),
      clusterRoleBinding(
        'kubeadm:node-autoapprove-certificate-rotation',
        'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
        [groupSubject('system:nodes')],
        meta('kubeadm:node-autoapprove-certificate-rotation'),
      ),
      clusterRoleBinding('kubeadm:node-proxier', 'system:node-proxier', [saSubject('kube-system', 'kube-proxy')], meta('kubeadm:node-proxier')),
    ],
    roles: [
      getConfigMap('kube-system', 'kube-proxy', 'kube-proxy'),
      getConfigMap('kube-system', 'kubeadm:kubelet-config', 'kubelet-config'),
      getConfigMap('kube-system', 'kubeadm:nodes-kubeadm-config', 'kubeadm-config'),
      getConfigMap('kube-public', 'kubeadm:bootstrap-signer-clusterinfo', 'cluster-info'),
      // kubelab: kube-proxy publishes its own ConfigMap (kubeadm uploads it in its addon phase), so its identity may write that one.
      role(
        'kube-system',
        'kubelab:kube-proxy-config',
        [rule(['create'], [core], ['configmaps']), rule(['get', 'update', 'patch'], [core], ['configmaps'], ['kube-proxy'])],
        meta('kubelab:kube-proxy-config', 'kube-system'),
      ),
    ],
    roleBindings: [
      roleBinding('kube-system', 'kube-proxy', 'kube-proxy', [groupSubject(KUBEADM_BOOTSTRAP_GROUP)], meta('kube-proxy', 'kube-system')),
      roleBinding(
        'kube-system',
        'kubelab:kube-proxy-config',
        'kubelab:kube-proxy-config',
        [userSubject('system:kube-proxy'), saSubject('kube-system', 'kube-proxy')],
        meta('kubelab:kube-proxy-config', 'kube-system'),
      ),
      roleBinding('kube-system', 'kubeadm:kubelet-config', 'kubeadm:kubelet-config', nodeGroups, meta('kubeadm:kubelet-config', 'kube-system')),
      roleBinding('kube-system', 'kubeadm:nodes-kubeadm-config', 'kubeadm:nodes-kubeadm-config', nodeGroups, meta('kubeadm:nodes-kubeadm-config', 'kube-system')),
      roleBinding(
        'kube-public',
        'kubeadm:bootstrap-signer-clusterinfo',
        'kubeadm:bootstrap-signer-clusterinfo',
        [userSubject('system:anonymous')],
        meta('kubeadm:bootstrap-signer-clusterinfo', 'kube-public'),
      ),
    ],
  };
}

export interface BootstrapPolicy {
  clusterRoles: ClusterRole[];
  clusterRoleBindings: ClusterRoleBinding[];
  roles: Role[];
  roleBindings: RoleBinding[];
}

/** Everything the apiserver reconciles at start: upstream's policy, then kubeadm's. Fresh objects on every call. */
export function bootstrapPolicy(): BootstrapPolicy {
  const controllers = controllerRoles();
  const kubeadm = kubeadmPolicy();
  return {
    clusterRoles: [...upstreamClusterRoles(), ...controllers, ...kubeadm.clusterRoles],
    clusterRoleBindings: [...upstreamClusterRoleBindings(), ...controllerRoleBindings(controllers), ...kubeadm.clusterRoleBindings],
    roles: [...upstreamRoles(), ...kubeadm.roles],
    roleBindings: [...upstreamRoleBindings(), ...kubeadm.roleBindings],
  };
}
