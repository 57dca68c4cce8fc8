import { describe, expect, it } from 'vitest';
import type { DaemonSet, Deployment, KubeObject, Namespace, Node, Pod, Secret, Service } from '../index.js';
import { invalid as invalidStatus, setDefaults, validateObject } from '../index.js';
import { fieldErrorMessage } from '../meta/status.js';
import { utf8Length } from './meta.js';

/** Every error as kubectl shows it: `field: body`. */
const messages = (obj: KubeObject, old?: KubeObject): string[] => validateObject(obj, old).map((e) => `${e.field}: ${fieldErrorMessage(e)}`);
const defaulted = <T extends KubeObject>(o: T): T => {
  setDefaults(o);
  return o;
};
const clone = <T>(o: T): T => JSON.parse(JSON.stringify(o));

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function pod(mut: (p: Pod) => void = () => {}): Pod {
  const p: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default' },
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
  };
  mut(p);
  return defaulted(p);
}

describe('pod create', () => {
  it('a defaulted minimal pod is valid', () => {
    expect(messages(pod())).toEqual([]);
  });

  it.each<[string, (p: Pod) => void, string[]]>([
    ['missing image', (p) => delete p.spec!.containers[0]!.image, ['spec.containers[0].image: Required value']],
    ['bad pod name', (p) => (p.metadata.name = 'Foo_bar'), [`metadata.name: Invalid value: "Foo_bar": ${SUBDOMAIN_MSG}`]],
    ['missing name', (p) => delete p.metadata.name, ['metadata.name: Required value: name or generateName is required']],
    ['missing namespace', (p) => delete p.metadata.namespace, ['metadata.namespace: Required value']],
    ['no containers', (p) => (p.spec!.containers = []), ['spec.containers: Required value']],
    ['duplicate container names', (p) => p.spec!.containers.push({ name: 'nginx', image: 'x' }), ['spec.containers[1].name: Duplicate value: "nginx"']],
    ['bad container name', (p) => (p.spec!.containers[0]!.name = 'Web'), [`spec.containers[0].name: Invalid value: "Web": ${LABEL_MSG}`]],
    [
      'container port out of range',
      (p) => (p.spec!.containers[0]!.ports = [{ containerPort: 70000 }]),
      ['spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive'],
    ],
    ['bad restart policy', (p) => (p.spec!.restartPolicy = 'Sometimes' as 'Always'), ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']],
    [
      'probe with two handlers',
      (p) => (p.spec!.containers[0]!.livenessProbe = { exec: { command: ['true'] }, httpGet: { port: 80 } }),
      ['spec.containers[0].livenessProbe.httpGet: Forbidden: may not specify more than 1 handler type'],
    ],
    ['probe with no handler', (p) => (p.spec!.containers[0]!.readinessProbe = { periodSeconds: 5 }), ['spec.containers[0].readinessProbe: Required value: must specify a handler type']],
    [
      'liveness successThreshold must be 1',
      (p) => (p.spec!.containers[0]!.livenessProbe = { tcpSocket: { port: 80 }, successThreshold: 2 }),
      ['spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1'],
    ],
    [
      'negative cpu request',
      (p) => (p.spec!.containers[0]!.resources = { requests: { cpu: '-1' } }),
      ['spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0'],
    ],
    [
      'request over limit',
      (p) => (p.spec!.containers[0]!.resources = { requests: { cpu: '2' }, limits: { cpu: '1' } }),
      ['spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1'],
    ],
    [
      'unparsable quantity',
      (p) => (p.spec!.containers[0]!.resources = { limits: { memory: '1Gb' } }),
      [
        'spec.containers[0].resources.limits[memory]: Invalid value: "1Gb": quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
        // Pod defaulting copied the limit into requests, so it is reported there too.
        'spec.containers[0].resources.requests[memory]: Invalid value: "1Gb": quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
      ],
    ],
    ['mount of an unknown volume', (p) => (p.spec!.containers[0]!.volumeMounts = [{ name: 'data', mountPath: '/data' }]), ['spec.containers[0].volumeMounts[0].name: Not found: "data"']],
    ['label value too odd', (p) => (p.metadata.labels = { app: 'web!' }), [`metadata.labels: Invalid value: "web!": ${LABEL_VALUE_MSG}`]],
    [
      'toleration with empty key must be Exists',
      (p) => (p.spec!.tolerations = [{ value: 'x' }]),
      ['spec.tolerations[0].operator: Invalid value: "": operator must be Exists when `key` is empty, which means "match all values and all keys"'],
    ],
    [
      'tolerationSeconds needs NoExecute',
      (p) => (p.spec!.tolerations = [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }]),
      ['spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set'],
    ],
    [
      'init container with a liveness probe',
      (p) => (p.spec!.initContainers = [{ name: 'init', image: 'busybox', livenessProbe: { exec: { command: ['true'] } } }]),
      ['spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always'],
    ],
  ])('%s', (_name, mut, want) => {
    expect(messages(pod(mut))).toEqual(want);
  });

  it('undefaulted pods report the fields defaults would fill', () => {
    const p: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'x' }] } };
    expect(messages(p)).toEqual([
      'spec.terminationGracePeriodSeconds: Required value',
      'spec.containers[0].terminationMessagePolicy: Required value',
      'spec.containers[0].imagePullPolicy: Required value',
      'spec.restartPolicy: Required value',
      'spec.dnsPolicy: Required value',
    ]);
  });

  it('renders as the 422 kubectl prints', () => {
    const p = pod((x) => delete x.spec!.containers[0]!.image);
    const err = invalidStatus('Pod', '', 'web', validateObject(p));
    expect(err.status.message).toBe('Pod "web" is invalid: spec.containers[0].image: Required value');
    expect(err.status.details?.causes).toEqual([{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' }]);
  });
});

describe('pod update', () => {
  const base = (): Pod => {
    const p = pod((x) => (x.spec!.tolerations = [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }]));
    p.metadata.resourceVersion = '5';
    p.metadata.uid = 'u1';
    return p;
  };

  it.each<[string, (p: Pod) => void, string[]]>([
    ['image change allowed', (p) => (p.spec!.containers[0]!.image = 'nginx:1.26'), []],
    ['added toleration allowed', (p) => p.spec!.tolerations!.push({ key: 'b', operator: 'Exists' }), []],
    ['tolerationSeconds change allowed', (p) => (p.spec!.tolerations![0]!.tolerationSeconds = 10), []],
    ['activeDeadlineSeconds added', (p) => (p.spec!.activeDeadlineSeconds = 60), []],
    ['toleration removed', (p) => (p.spec!.tolerations = []), ['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds']],
    [
      'container added',
      (p) => p.spec!.containers.push({ name: 'b', image: 'x', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' }),
      ['spec.containers: Forbidden: pod updates may not add or remove containers'],
    ],
    ['name change', (p) => (p.metadata.name = 'other'), ['metadata.name: Invalid value: "other": field is immutable']],
    ['missing resourceVersion', (p) => delete p.metadata.resourceVersion, ['metadata.resourceVersion: Invalid value: "": must be specified for an update']],
  ])('%s', (_name, mut, want) => {
    const old = base();
    const next = clone(old);
    mut(next);
    expect(messages(next, old)).toEqual(want);
  });

  it('other spec changes are forbidden with upstream text and a diff', () => {
    const old = base();
    const next = clone(old);
    next.spec!.restartPolicy = 'Never';
    const [msg, ...rest] = messages(next, old);
    expect(rest).toEqual([]);
    expect(msg).toMatch(
      /^spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`,`spec.initContainers\[\*\].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` \(only additions to existing tolerations\),`spec.terminationGracePeriodSeconds` \(allow it to be set to 1 if it was previously negative\)\n/,
    );
    expect(msg).toContain('- restartPolicy: "Always"\n+ restartPolicy: "Never"');
  });

  it('activeDeadlineSeconds may only decrease', () => {
    const old = base();
    old.spec!.activeDeadlineSeconds = 30;
    const next = clone(old);
    next.spec!.activeDeadlineSeconds = 60;
    expect(messages(next, old)).toEqual(['spec.activeDeadlineSeconds: Invalid value: 60: must be less than or equal to previous value']);
  });
});

describe('pod status update', () => {
  it('forbids changing nodeName and un-terminating a Never pod', () => {
    const old = pod((p) => {
      p.spec!.restartPolicy = 'Never';
      p.spec!.nodeName = 'node-1';
      p.metadata.resourceVersion = '3';
      p.status = { containerStatuses: [{ name: 'nginx', ready: false, restartCount: 0, image: 'nginx', imageID: '', state: { terminated: { exitCode: 0 } } }] };
    });
    const next = clone(old);
    next.spec!.nodeName = 'node-2';
    next.status!.containerStatuses![0]!.state = { running: { startedAt: '2024-01-01T00:00:00Z' } };
    expect(validateObject(next, old, 'status').map((e) => `${e.field}: ${fieldErrorMessage(e)}`)).toEqual([
      'status.nodeName: Forbidden: may not be changed directly',
      'status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state',
    ]);
  });
});

function deployment(mut: (d: Deployment) => void = () => {}): Deployment {
  const d: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } },
    },
  };
  mut(d);
  return defaulted(d);
}

describe('deployment', () => {
  it.each<[string, (d: Deployment) => void, string[]]>([
    ['valid', () => {}, []],
    [
      'selector does not match template',
      (d) => (d.spec!.template.metadata!.labels = { app: 'other' }),
      ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`'],
    ],
    [
      'empty selector',
      (d) => (d.spec!.selector = {}),
      ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment'],
    ],
    ['negative replicas', (d) => (d.spec!.replicas = -1), ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    ['restartPolicy must be Always', (d) => (d.spec!.template.spec!.restartPolicy = 'Never'), ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']],
    [
      'maxUnavailable and maxSurge both 0',
      (d) => (d.spec!.strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } }),
      ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0'],
    ],
    [
      'bad percent',
      (d) => (d.spec!.strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25', maxSurge: 1 } }),
      [
        "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"25\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ],
    ],
    [
      'template label key invalid',
      (d) => (d.spec!.template.metadata!.labels = { app: 'web', 'bad key': 'x' }),
      [
        "spec.template.labels: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    ],
  ])('%s', (_name, mut, want) => {
    expect(messages(deployment(mut))).toEqual(want);
  });

  it('selector is immutable in apps/v1', () => {
    const old = deployment((d) => (d.metadata.resourceVersion = '7'));
    const next = clone(old);
    next.spec!.selector = { matchLabels: { app: 'web2' } };
    next.spec!.template.metadata!.labels = { app: 'web2' };
    expect(messages(next, old)).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    ]);
  });

  it('status counts are bounded', () => {
    const old = deployment((d) => (d.metadata.resourceVersion = '7'));
    const next = clone(old);
    next.status = { replicas: 1, readyReplicas: 2, availableReplicas: 1 };
    expect(validateObject(next, old, 'status').map((e) => `${e.field}: ${fieldErrorMessage(e)}`)).toEqual(['status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas']);
  });
});

describe('daemonset', () => {
  it('maxSurge and maxUnavailable both non-zero', () => {
    const ds: DaemonSet = defaulted({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'kube-proxy', namespace: 'kube-system' },
      spec: {
        selector: { matchLabels: { k: 'p' } },
        template: { metadata: { labels: { k: 'p' } }, spec: { containers: [{ name: 'p', image: 'p' }] } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } },
      },
    });
    expect(messages(ds)).toEqual(['spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero']);
  });
});

function service(mut: (s: Service) => void = () => {}): Service {
  const s: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default' },
    spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
  };
  mut(s);
  return defaulted(s);
}

describe('service', () => {
  it.each<[string, (s: Service) => void, string[]]>([
    ['valid', () => {}, []],
    ['name must be a DNS-1035 label', (s) => (s.metadata.name = '1web'), [`metadata.name: Invalid value: "1web": ${DNS1035_MSG}`]],
    ['no ports', (s) => (s.spec!.ports = []), ['spec.ports: Required value']],
    ['two ports need names', (s) => s.spec!.ports!.push({ port: 443 }), ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value']],
    [
      'duplicate port',
      (s) => {
        s.spec!.ports = [
          { name: 'a', port: 80 },
          { name: 'b', port: 80 },
        ];
      },
      ['spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}'],
    ],
    ['nodePort on ClusterIP', (s) => (s.spec!.ports![0]!.nodePort = 30080), ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]],
    ['bad type', (s) => (s.spec!.type = 'Magic' as 'ClusterIP'), ['spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']],
    [
      'healthCheckNodePort without Local policy',
      (s) => Object.assign(s.spec!, { type: 'LoadBalancer', externalTrafficPolicy: 'Cluster', healthCheckNodePort: 31000 }),
      ["spec.healthCheckNodePort: Invalid value: 31000: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"],
    ],
    ['bad cluster IP', (s) => (s.spec!.clusterIP = '10.96.0.300'), ['spec.clusterIPs[0]: Invalid value: "10.96.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']],
  ])('%s', (_name, mut, want) => {
    expect(messages(service(mut))).toEqual(want);
  });

  it('clusterIP may not change once set', () => {
    const old = service((s) => {
      s.spec!.clusterIP = '10.96.0.10';
      s.metadata.resourceVersion = '1';
    });
    const next = clone(old);
    next.spec!.clusterIP = '10.96.0.11';
    next.spec!.clusterIPs = ['10.96.0.11'];
    expect(messages(next, old)).toEqual(['spec.clusterIPs[0]: Invalid value: []string{"10.96.0.11"}: may not change once set']);
  });
});

describe('other kinds', () => {
  it('namespace names are DNS labels', () => {
    const ns: Namespace = defaulted({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'my.ns' } });
    expect(messages(ns)).toEqual(['metadata.name: Invalid value: "my.ns": must not contain dots']);
  });

  it('secret types require their keys; type is immutable', () => {
    const s: Secret = defaulted({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' }, type: 'kubernetes.io/tls', data: {} });
    expect(messages(s)).toEqual(['data[tls.crt]: Required value', 'data[tls.key]: Required value']);
    const old: Secret = defaulted({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default', resourceVersion: '1' } });
    const next = clone(old);
    next.type = 'kubernetes.io/basic-auth';
    next.data = { username: 'dQ==' };
    expect(messages(next, old)).toEqual(['type: Invalid value: "kubernetes.io/basic-auth": field is immutable']);
  });

  it('node taints must be unique by key and effect; podCIDRs are write-once', () => {
    const n: Node = defaulted({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-1', resourceVersion: '1' },
      spec: {
        podCIDR: '10.244.1.0/24',
        taints: [
          { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
          { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
        ],
      },
    });
    expect(messages(n)).toEqual([
      'metadata.taints[1]: Duplicate value: core.Taint{Key:"node.kubernetes.io/not-ready", Value:"", Effect:"NoExecute", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
    ]);
    n.spec!.taints = [];
    const next = clone(n);
    next.spec!.podCIDRs = ['10.244.2.0/24'];
    next.spec!.podCIDR = '10.244.2.0/24';
    expect(messages(next, n)).toEqual(['spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid']);
  });

  it('events must be in their involved object namespace', () => {
    expect(
      messages({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'web.1', namespace: 'default' },
        involvedObject: { kind: 'Pod', name: 'web', namespace: 'other' },
      } as KubeObject),
    ).toEqual(['involvedObject.namespace: Invalid value: "other": does not match event.namespace']);
  });

  it('leases need a positive duration; endpoint slices need addresses', () => {
    expect(messages({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'n', namespace: 'kube-node-lease' }, spec: { leaseDurationSeconds: 0 } } as KubeObject)).toEqual([
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
    ]);
    expect(
      messages({
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: 'web-abc', namespace: 'default' },
        addressType: 'IPv4',
        endpoints: [{ addresses: [] }, { addresses: ['10.0.0.300'] }],
        ports: [{ name: '', port: 80, protocol: 'TCP' }],
      } as KubeObject),
    ).toEqual(['endpoints[0].addresses: Required value: must contain at least 1 address', 'endpoints[1].addresses[0]: Invalid value: "10.0.0.300": must be a valid IPv4 address']);
  });

  it('junk objects yield a field error instead of a crash', () => {
    expect(validateObject(null as never)).toEqual([{ type: 'FieldValueRequired', field: 'metadata' }]);
    expect(() => validateObject({ apiVersion: 'v1', kind: 'Pod', metadata: {} } as KubeObject)).not.toThrow();
    expect(() => validateObject({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x', namespace: 'y' } } as KubeObject)).not.toThrow();
  });
});

describe('utf8Length', () => {
  it('counts UTF-8 bytes as TextEncoder does, surrogate pairs and lone surrogates included', () => {
    for (const s of ['', 'ascii', 'größe', '€uro', '日本語', 'emoji 😀 pair', 'lone \ud800 high', 'lone \udc00 low', '\ud83d']) {
      expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
    }
  });
});
