// kubectl 1.32 against networking.k8s.io/v1 NetworkPolicies: api-resources,
// `kubectl create -f` with upstream's defaults (policyTypes, TCP), `kubectl
// get networkpolicy` (NAME, POD-SELECTOR, AGE), kubectl's own describe view
// of the rules, and upstream's validation texts for a bad ipBlock and port.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { squash, startCluster, type Cluster } from './harness.js';

const run = requireTool('kubectl');

const DENY = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: default-deny}
spec:
  podSelector: {}
`;
const ALLOW = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: allow-client}
spec:
  podSelector: {matchLabels: {app: web}}
  ingress:
  - from:
    - podSelector: {matchLabels: {app: client}}
    ports:
    - port: http
  egress:
  - to:
    - ipBlock: {cidr: 10.0.0.0/8, except: [10.1.0.0/16]}
`;

describe.skipIf(!run)('kubectl 1.32: networkpolicies', { timeout: 90_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('api-resources lists netpol; create -f defaults policyTypes and protocol; get shows the pod selector', async () => {
    expect(squash((await c.kubectl(['api-resources', '--api-group=networking.k8s.io'])).stdout)).toEqual([
      'NAME SHORTNAMES APIVERSION NAMESPACED KIND',
      'ingressclasses networking.k8s.io/v1 false IngressClass',
      'ingresses ing networking.k8s.io/v1 true Ingress',
      'networkpolicies netpol networking.k8s.io/v1 true NetworkPolicy',
    ]);
    expect((await c.kubectl(['create', '-f', '-'], { stdin: DENY })).stdout.trim()).toBe('networkpolicy.networking.k8s.io/default-deny created');
    expect((await c.kubectl(['create', '-f', '-'], { stdin: ALLOW })).stdout.trim()).toBe('networkpolicy.networking.k8s.io/allow-client created');
    expect(squash((await c.kubectl(['get', 'networkpolicy'])).stdout)).toEqual([
      'NAME POD-SELECTOR AGE',
      expect.stringMatching(/^allow-client app=web \d+s$/),
      expect.stringMatching(/^default-deny <none> \d+s$/),
    ]);
    const deny = JSON.parse((await c.kubectl(['get', 'netpol', 'default-deny', '-o', 'json'])).stdout);
    expect(deny.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress'] });
    expect(deny.metadata.generation).toBe(1);
    const allow = JSON.parse((await c.kubectl(['get', 'netpol', 'allow-client', '-o', 'json'])).stdout);
    expect(allow.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(allow.spec.ingress[0].ports).toEqual([{ port: 'http', protocol: 'TCP' }]);
  });

  it('describe shows the rules as kubectl words them', async () => {
    const out = (await c.kubectl(['describe', 'networkpolicy', 'allow-client'])).stdout;
    expect(squash(out).filter((l) => !l.startsWith('Created on'))).toEqual([
      'Name: allow-client',
      'Namespace: default',
      'Labels: <none>',
      'Annotations: <none>',
      'Spec:',
      'PodSelector: app=web',
      'Allowing ingress traffic:',
      'To Port: http/TCP',
      'From:',
      'PodSelector: app=client',
      'Allowing egress traffic:',
      'To Port: <any> (traffic allowed to all ports)',
      'To:',
      'IPBlock:',
      'CIDR: 10.0.0.0/8',
      'Except: 10.1.0.0/16',
      'Policy Types: Ingress, Egress',
    ]);
  });

  it('refuses an except outside the cidr, a bad port and an unknown policy type with upstream’s texts', async () => {
    const r = await c.kubectl(['create', '-f', '-'], {
      stdin: `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: bad}
spec:
  podSelector: {}
  policyTypes: [Ingress, Sideways]
  ingress:
  - from:
    - ipBlock: {cidr: 192.168.0.0/24, except: [192.168.1.0/24]}
    ports:
    - {port: 80, endPort: 70}
`,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'The NetworkPolicy "bad" is invalid: \n' +
        '* spec.ingress[0].ports[0].endPort: Invalid value: 80: must be greater than or equal to `port`\n' +
        '* spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "192.168.1.0/24": must be a strict subset of `cidr`\n' +
        '* spec.policyTypes[1]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"\n',
    );
  });
});
