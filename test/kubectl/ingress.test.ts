// kubectl against networking.k8s.io/v1 Ingresses and IngressClasses: the
// default class given by upstream's DefaultIngressClass admission, `kubectl
// create ingress` rules read back, `kubectl get` rows (CLASS, HOSTS,
// ADDRESS, PORTS; CONTROLLER, PARAMETERS) and upstream's validation texts.
// There is no ingress controller: ADDRESS stays empty, as on a kubeadm
// cluster before one is installed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { sdkKubectl, squash, startCluster, type Cluster } from './harness.js';

const run = requireTool('kubectl');

const CLASSES = `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
  annotations: {ingressclass.kubernetes.io/is-default-class: "true"}
spec: {controller: k8s.io/ingress-nginx}
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: traefik}
spec:
  controller: traefik.io/ingress-controller
  parameters: {apiGroup: k8s.example.com, kind: IngressParameters, name: external, scope: Cluster}
`;
const NO_PATH_TYPE = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: bad}
spec:
  rules:
  - host: 10.0.0.1
    http:
      paths:
      - path: /
        backend: {service: {name: web, port: {number: 80}}}
`;

describe.skipIf(!run)('kubectl: ingresses and ingressclasses', { timeout: 90_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('api-resources lists ing and ingressclasses; get ingressclass shows the controller and parameters', async () => {
    const resources = squash((await c.kubectl(['api-resources', '--api-group=networking.k8s.io', '--no-headers'])).stdout);
    expect(resources).toContain('ingresses ing networking.k8s.io/v1 true Ingress');
    expect(resources).toContain('ingressclasses networking.k8s.io/v1 false IngressClass');
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: CLASSES })).stdout).toBe('ingressclass.networking.k8s.io/nginx created\ningressclass.networking.k8s.io/traefik created\n');
    const rows = squash((await c.kubectl(['get', 'ingressclass'])).stdout);
    expect(rows[0]).toBe('NAME CONTROLLER PARAMETERS AGE');
    expect(rows[1]).toMatch(/^nginx k8s\.io\/ingress-nginx <none> \d+s$/);
    expect(rows[2]).toMatch(/^traefik traefik\.io\/ingress-controller IngressParameters\.k8s\.example\.com\/external \d+s$/);
  });

  it.each([27, 33])('kubectl 1.%i create ingress: the default class is filled in; get shows hosts and the TLS port', async (minor) => {
    const name = `shop-${minor}`;
    const created = await c.kubectl(['create', 'ingress', name, '--rule=shop.example.com/cart*=cart:8080,tls=shop-tls', '--rule=admin.example.com/=admin:http'], { bin: sdkKubectl(minor) });
    expect(created).toMatchObject({ code: 0, stdout: `ingress.networking.k8s.io/${name} created\n` });
    const rows = squash((await c.kubectl(['get', 'ingress', name], { bin: sdkKubectl(minor) })).stdout);
    expect(rows[0]).toBe('NAME CLASS HOSTS ADDRESS PORTS AGE');
    expect(rows[1]).toMatch(new RegExp(`^${name} nginx shop\\.example\\.com,admin\\.example\\.com 80, 443 \\d+s$`));
    const spec = JSON.parse((await c.kubectl(['get', 'ing', name, '-o', 'jsonpath={.spec}'])).stdout) as Record<string, unknown>;
    expect(spec).toEqual({
      ingressClassName: 'nginx',
      rules: [
        { host: 'shop.example.com', http: { paths: [{ path: '/cart', pathType: 'Prefix', backend: { service: { name: 'cart', port: { number: 8080 } } } }] } },
        { host: 'admin.example.com', http: { paths: [{ path: '/', pathType: 'Exact', backend: { service: { name: 'admin', port: { name: 'http' } } } }] } },
      ],
      tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
    });
  });

  it('an explicit class stays; without rules or a default backend, or with an IP host and no pathType, upstream refuses', async () => {
    expect((await c.kubectl(['create', 'ingress', 'edge', '--class=traefik', '--default-backend=web:80'])).code).toBe(0);
    expect(squash((await c.kubectl(['get', 'ingress', 'edge'])).stdout)[1]).toMatch(/^edge traefik \* 80 \d+s$/);
    const bad = await c.kubectl(['apply', '-f', '-'], { stdin: NO_PATH_TYPE });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'The Ingress "bad" is invalid: \n* spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address\n* spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified\n',
    );
  });
});
