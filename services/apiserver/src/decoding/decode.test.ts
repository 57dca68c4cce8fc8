import { describe, expect, it } from 'vitest';
import { decodeObject, typeErrorOf } from './decode.js';

const deployment = { kind: 'Deployment', version: 'v1' };
const body = (spec: unknown) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } }, spec });

// Bodies that fit go through a check that builds no messages; the rest are walked for upstream's texts. Both must agree.
describe('decoding a body against its kind', () => {
  it.each([
    ['a body that fits', body({ replicas: 2, selector: { matchLabels: { app: 'web' } } }), { warnings: [] }],
    ['an unknown field, warned with its path', body({ replicas: 2, replicaz: 3 }), { warnings: ['unknown field "spec.replicaz"'] }],
    [
      'an unknown field in a list item',
      body({ template: { spec: { containers: [{ name: 'c', image: 'nginx', imagePolicy: 'x' }] } } }),
      { warnings: ['unknown field "spec.template.spec.containers[0].imagePolicy"'] },
    ],
    [
      'a string where an int32 goes',
      body({ replicas: 'two' }),
      { error: 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32' },
    ],
    [
      'an int32 out of range',
      body({ replicas: 2147483648 }),
      { error: 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32' },
    ],
    [
      'a number where a map value must be a string',
      body({ selector: { matchLabels: { app: 1 } } }),
      { error: 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number into Go struct field LabelSelector.spec.selector.matchLabels of type string' },
    ],
  ])('%s', (_name, input, want) => {
    const run = () => decodeObject(deployment, structuredClone(input), 'Warn', 'Deployment', { json: { text: JSON.stringify(input), duplicates: [] } });
    if ('error' in want) expect(run).toThrow(want.error);
    else expect(run().warnings).toEqual(want.warnings);
  });

  it('drops unknown fields from the decoded object and keeps the rest', () => {
    const { object } = decodeObject(deployment, body({ replicas: 2, replicaz: 3 }), 'Ignore');
    expect((object as unknown as { spec: object }).spec).toEqual({ replicas: 2 });
  });

  it.each([
    ['fits', body({ replicas: 1 }), undefined],
    ['unknown fields are left alone', body({ replicaz: 1 }), undefined],
    [
      'a wrong type in a list',
      body({ template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: '80' }] }] } } }),
      'json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32',
    ],
  ])('typeErrorOf: %s', (_name, input, want) => {
    expect(typeErrorOf('Deployment', input)).toBe(want);
  });
});
