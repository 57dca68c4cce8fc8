import { describe, expect, it } from 'vitest';
import type { DaemonSet, Deployment, EndpointSlice, Namespace, Node, Pod, ReplicaSet, Secret, Service } from './index.js';
import { setDefaults } from './index.js';
import { defaultImagePullPolicy } from './core/v1/defaults.js';

describe('pod defaults', () => {
  it('fills the upstream pod defaults', () => {
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: {
        containers: [
          {
            name: 'c',
            image: 'nginx',
            ports: [{ containerPort: 80 }],
            resources: { limits: { cpu: '500m', memory: '128Mi' } },
            livenessProbe: { httpGet: { port: 80 } },
            readinessProbe: { grpc: { port: 9000 }, periodSeconds: 5 },
          },
        ],
      },
    };
    setDefaults(pod);
    expect(pod.spec).toEqual({
      containers: [
        {
          name: 'c',
          image: 'nginx',
          imagePullPolicy: 'Always',
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '500m', memory: '128Mi' } },
          livenessProbe: {
            httpGet: { port: 80, path: '/', scheme: 'HTTP' },
            timeoutSeconds: 1,
            periodSeconds: 10,
            successThreshold: 1,
            failureThreshold: 3,
          },
          readinessProbe: {
            grpc: { port: 9000, service: '' },
            timeoutSeconds: 1,
            periodSeconds: 5,
            successThreshold: 1,
            failureThreshold: 3,
          },
        },
      ],
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
      enableServiceLinks: true,
    });
  });

  it('a container that asked for nothing gets resources: {}, as Go serializes the ResourceRequirements value', () => {
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'probedemo' },
      spec: {
        initContainers: [{ name: 'init', image: 'busybox:1.36' }],
        containers: [{ name: 'app', image: 'busybox:1.36', livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5 } }],
        ephemeralContainers: [{ name: 'debug', image: 'busybox:1.36' }],
      },
    };
    setDefaults(pod);
    const app = pod.spec?.containers[0];
    expect(app).toEqual({
      name: 'app',
      image: 'busybox:1.36',
      imagePullPolicy: 'IfNotPresent',
      resources: {},
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
    });
    expect(pod.spec?.initContainers?.[0]?.resources).toEqual({});
    expect(pod.spec?.ephemeralContainers?.[0]?.resources).toEqual({});
    // Pod-level values the real apiserver fills for a bare pod (admission adds serviceAccountName).
    expect(pod.spec).toMatchObject({
      dnsPolicy: 'ClusterFirst',
      enableServiceLinks: true,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
    });
  });

  it('keeps values the user set, including terminationGracePeriodSeconds 0', () => {
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'x', imagePullPolicy: 'Never' }], restartPolicy: 'Never', terminationGracePeriodSeconds: 0 },
    };
    setDefaults(pod);
    expect(pod.spec?.restartPolicy).toBe('Never');
    expect(pod.spec?.terminationGracePeriodSeconds).toBe(0);
    expect(pod.spec?.containers[0]?.imagePullPolicy).toBe('Never');
  });

  it('rounds quantities up to milli and prints them canonically', () => {
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '0.5', memory: '1024Mi', x: '1n' } } }] },
    };
    setDefaults(pod);
    expect(pod.spec?.containers[0]?.resources?.requests).toEqual({ cpu: '500m', memory: '1Gi', x: '1m' });
  });

  it('volumes without a source become emptyDir; file modes 0644', () => {
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [], volumes: [{ name: 'a' }, { name: 'b', secret: { secretName: 's' } }, { name: 'c', hostPath: { path: '/x' } }] },
    };
    setDefaults(pod);
    expect(pod.spec?.volumes).toEqual([
      { name: 'a', emptyDir: {} },
      { name: 'b', secret: { secretName: 's', defaultMode: 420 } },
      { name: 'c', hostPath: { path: '/x', type: '' } },
    ]);
  });

  it('hostNetwork pods get hostPort = containerPort', () => {
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { hostNetwork: true, containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 10256 }] }] },
    };
    setDefaults(pod);
    expect(pod.spec?.containers[0]?.ports).toEqual([{ containerPort: 10256, hostPort: 10256, protocol: 'TCP' }]);
  });
});

describe('imagePullPolicy from the tag', () => {
  it.each([
    ['no tag means latest', 'nginx', 'Always'],
    ['explicit latest', 'nginx:latest', 'Always'],
    ['versioned tag', 'nginx:1.25', 'IfNotPresent'],
    ['registry with port, no tag', 'localhost:5000/app', 'Always'],
    ['registry with port and tag', 'localhost:5000/app:v1', 'IfNotPresent'],
    ['digest only', 'nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'IfNotPresent'],
    ['unparsable (upper case)', 'NGINX', 'IfNotPresent'],
    ['empty image', '', 'IfNotPresent'],
  ])('%s: %j → %s', (_name, image, want) => {
    expect(defaultImagePullPolicy(image)).toBe(want);
  });
});

describe('workload defaults', () => {
  it('deployment: replicas 1, RollingUpdate 25%/25%, history 10, deadline 600; template not given requests', () => {
    const d: Deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx', resources: { limits: { cpu: '1' } } }] },
        },
      },
    };
    setDefaults(d);
    expect(d.spec?.replicas).toBe(1);
    expect(d.spec?.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    expect(d.spec?.revisionHistoryLimit).toBe(10);
    expect(d.spec?.progressDeadlineSeconds).toBe(600);
    expect(d.spec?.template.spec?.restartPolicy).toBe('Always');
    expect(d.spec?.template.spec?.containers[0]?.resources).toEqual({ limits: { cpu: '1' } });
    expect(d.spec?.template.spec?.enableServiceLinks).toBeUndefined();
  });

  it('pod templates: creationTimestamp null in metadata, resources {} and the PodSpec defaults, no pod-only fields', () => {
    const template = () => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] } });
    const want = {
      metadata: { creationTimestamp: null, labels: { app: 'web' } },
      spec: {
        containers: [
          {
            name: 'nginx',
            image: 'nginx:1.27',
            imagePullPolicy: 'IfNotPresent',
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            resources: {},
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
          },
        ],
        dnsPolicy: 'ClusterFirst',
        restartPolicy: 'Always',
        schedulerName: 'default-scheduler',
        securityContext: {},
        terminationGracePeriodSeconds: 30,
      },
    };
    const d: Deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { selector: {}, template: template() } };
    const rs: ReplicaSet = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-1' }, spec: { selector: {}, template: template() } };
    const ds: DaemonSet = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { selector: {}, template: template() } };
    for (const o of [d, rs, ds]) {
      setDefaults(o);
      expect(o.spec?.template).toEqual(want);
    }
    // A template without metadata still serializes its (zero) ObjectMeta.
    const bare: Deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { selector: {}, template: {} } };
    setDefaults(bare);
    expect(bare.spec?.template.metadata).toEqual({ creationTimestamp: null });
  });

  it('deployment with Recreate gets no rollingUpdate', () => {
    const d: Deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 0, strategy: { type: 'Recreate' }, selector: {}, template: {} },
    };
    setDefaults(d);
    expect(d.spec?.replicas).toBe(0);
    expect(d.spec?.strategy).toEqual({ type: 'Recreate' });
  });

  it('daemonset: RollingUpdate maxUnavailable 1 maxSurge 0', () => {
    const ds: DaemonSet = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'kp' }, spec: { selector: {}, template: {} } };
    setDefaults(ds);
    expect(ds.spec?.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(ds.spec?.revisionHistoryLimit).toBe(10);
  });
});

describe('other kinds', () => {
  it('service: ClusterIP, None, TCP, targetPort = port, internalTrafficPolicy Cluster', () => {
    const svc: Service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }], selector: { app: 'web' } } };
    setDefaults(svc);
    expect(svc.spec).toEqual({
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      selector: { app: 'web' },
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
    });
  });

  it('NodePort service gets externalTrafficPolicy Cluster; ClientIP affinity gets 10800 s', () => {
    const svc: Service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { type: 'NodePort', sessionAffinity: 'ClientIP', ports: [{ port: 80, targetPort: 'http' }] },
    };
    setDefaults(svc);
    expect(svc.spec?.externalTrafficPolicy).toBe('Cluster');
    expect(svc.spec?.sessionAffinityConfig).toEqual({ clientIP: { timeoutSeconds: 10800 } });
    expect(svc.spec?.ports?.[0]?.targetPort).toBe('http');
  });

  it('namespace: phase Active and the metadata.name label', () => {
    const ns: Namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dev' } };
    setDefaults(ns);
    expect(ns).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'dev', labels: { 'kubernetes.io/metadata.name': 'dev' } },
      status: { phase: 'Active' },
    });
  });

  it('secret: Opaque; node: allocatable from capacity; slice ports: name "" and TCP', () => {
    const s: Secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } };
    setDefaults(s);
    expect(s.type).toBe('Opaque');
    const n: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, status: { capacity: { cpu: '2', memory: '4096Mi' } } };
    setDefaults(n);
    expect(n.status?.allocatable).toEqual({ cpu: '2', memory: '4Gi' });
    const es: EndpointSlice = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'e' }, addressType: 'IPv4', endpoints: [], ports: [{ port: 80 }] };
    setDefaults(es);
    expect(es.ports).toEqual([{ port: 80, name: '', protocol: 'TCP' }]);
  });

  it('unknown kinds and junk are left alone', () => {
    const o = { apiVersion: 'v9', kind: 'Thing', metadata: { name: 'x' } };
    setDefaults(o);
    expect(o).toEqual({ apiVersion: 'v9', kind: 'Thing', metadata: { name: 'x' } });
    expect(() => setDefaults(null as never)).not.toThrow();
  });
});
