// CustomResourceDefinitions with the real kubectl (1.32 and 1.27): the
// upstream docs' CronTab task end to end — apply the CRD, wait for
// Established, apply and get objects (printer columns, short name, the
// "all" category, api-resources), explain, scale, an invalid object's 422,
// deleting the CRD taking its objects — and RBAC treating custom resources
// as any other.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { KUBECTL, sdkKubectl, squash, startCluster, type Cluster } from './harness.js';

const run = requireTool('kubectl');

const CRD_YAML = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
    categories: [all]
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: CronTab runs an image on a schedule.
        properties:
          spec:
            type: object
            description: What to run and when.
            required: [cronSpec]
            properties:
              cronSpec:
                type: string
                description: The schedule, in cron format.
                pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
              image:
                type: string
              replicas:
                type: integer
                minimum: 1
                maximum: 10
                default: 1
          status:
            type: object
            properties:
              replicas:
                type: integer
              labelSelector:
                type: string
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
        labelSelectorPath: .status.labelSelector
    additionalPrinterColumns:
    - name: Spec
      type: string
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
`;

const cronTabYaml = (name: string, cronSpec = '* * * * */5') => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
spec:
  cronSpec: "${cronSpec}"
  image: my-awesome-cron-image
`;

describe.skipIf(!run).each([
  ['1.32', KUBECTL],
  ['1.27', sdkKubectl(27)],
])('kubectl %s: CustomResourceDefinitions', (_, bin) => {
  let c: Cluster;
  const kubectl = (args: string[], stdin?: string) => c.kubectl(args, { bin, ...(stdin !== undefined ? { stdin } : {}) });

  beforeAll(async () => {
    c = await startCluster({ authorizationModes: ['Node', 'RBAC'] });
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('apply the CRD, wait for Established, get crd', async () => {
    expect((await kubectl(['apply', '-f', '-'], CRD_YAML)).stdout).toBe('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n');
    const wait = await kubectl(['wait', '--for', 'condition=established', '--timeout=30s', 'crd/crontabs.stable.example.com']);
    expect(wait.stdout).toBe('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met\n');
    const lines = squash((await kubectl(['get', 'crd'])).stdout);
    expect(lines[0]).toBe('NAME CREATED AT');
    expect(lines[1]).toMatch(/^crontabs\.stable\.example\.com \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('apply and get objects: printer columns, the short name, the "all" category, api-resources', async () => {
    expect((await kubectl(['apply', '-f', '-'], cronTabYaml('my-new-cron-object'))).stdout).toBe('crontab.stable.example.com/my-new-cron-object created\n');
    const get = squash((await kubectl(['get', 'crontab'])).stdout);
    expect(get[0]).toBe('NAME SPEC REPLICAS AGE');
    expect(get[1]).toMatch(/^my-new-cron-object \* \* \* \* \*\/5 1 \d+s$/);
    expect(squash((await kubectl(['get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas} {.metadata.generation}'])).stdout)).toEqual(['1 1']);
    const all = (await kubectl(['get', 'all'])).stdout;
    expect(all).toContain('crontab.stable.example.com/my-new-cron-object');
    const resources = squash((await kubectl(['api-resources', '--api-group=stable.example.com'])).stdout);
    expect(resources).toEqual(['NAME SHORTNAMES APIVERSION NAMESPACED KIND', 'crontabs ct stable.example.com/v1 true CronTab']);
  });

  it('explain reads the schema', async () => {
    const out = (await kubectl(['explain', 'crontab.spec'])).stdout;
    expect(out).toContain('KIND:       CronTab');
    expect(out).toContain('What to run and when.');
    expect(out).toMatch(/cronSpec\s+<string> -required-\n\s+The schedule, in cron format\./);
  });

  it('scale writes through the scale subresource', async () => {
    expect((await kubectl(['scale', 'crontab', 'my-new-cron-object', '--replicas=3'])).stdout).toBe('crontab.stable.example.com/my-new-cron-object scaled\n');
    expect(squash((await kubectl(['get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas} {.metadata.generation}'])).stdout)).toEqual(['3 2']);
  });

  it('an invalid object is refused with upstream 422 text', async () => {
    const r = await kubectl(['apply', '-f', '-'], cronTabYaml('bad', 'every minute'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('The CronTab "bad" is invalid: spec.cronSpec: Invalid value: "every minute": spec.cronSpec in body should match \'^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$\'');
  });

  it('custom resources are authorized like any other: forbidden until a role grants them', async () => {
    expect((await kubectl(['auth', 'can-i', 'list', 'crontabs.stable.example.com', '--as=jane'])).stdout.trim()).toBe('no');
    const get = await kubectl(['get', 'crontabs', '--as=jane']);
    expect(get.stderr).toContain(
      'Error from server (Forbidden): crontabs.stable.example.com is forbidden: User "jane" cannot list resource "crontabs" in API group "stable.example.com" in the namespace "default"',
    );
    expect((await kubectl(['create', 'clusterrole', 'crontab-reader', '--verb=get,list,watch', '--resource=crontabs.stable.example.com'])).code).toBe(0);
    expect((await kubectl(['create', 'rolebinding', 'jane-crontabs', '--clusterrole=crontab-reader', '--user=jane'])).code).toBe(0);
    expect((await kubectl(['auth', 'can-i', 'list', 'crontabs.stable.example.com', '--as=jane'])).stdout.trim()).toBe('yes');
    expect(squash((await kubectl(['get', 'ct', '--as=jane', '-o', 'name'])).stdout)).toEqual(['crontab.stable.example.com/my-new-cron-object']);
    expect((await kubectl(['auth', 'can-i', 'delete', 'crontabs.stable.example.com', '--as=jane'])).stdout.trim()).toBe('no');
  });

  it('delete the CRD: its objects go, then the CRD, and the resource is no longer served', async () => {
    expect((await kubectl(['delete', 'crd', 'crontabs.stable.example.com'])).stdout).toBe('customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted\n');
    expect(await c.get('customresourcedefinitions', undefined, 'crontabs.stable.example.com', 'apiextensions.k8s.io')).toBeUndefined();
    // Discovery no longer lists it (api-resources refreshes kubectl's discovery cache), so kubectl knows no such type.
    expect(squash((await kubectl(['api-resources', '--api-group=stable.example.com'])).stdout)).toEqual(['NAME SHORTNAMES APIVERSION NAMESPACED KIND']);
    const gone = await kubectl(['get', 'crontabs']);
    expect(gone.stderr).toContain(`error: the server doesn't have a resource type "crontabs"`);
    expect(c.api.cache.list('/registry/stable.example.com/crontabs')).toEqual([]);
  });
});
