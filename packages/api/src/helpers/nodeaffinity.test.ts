import { describe, expect, it } from 'vitest';
import type { Node, NodeSelectorTerm, Pod } from '../index.js';
import type { NodeSelectorRequirement } from '../core/v1/types.js';
import { matchNodeSelector, matchNodeSelectorTerm, podMatchesNodeSelectorAndAffinityTerms } from '../index.js';

const node: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', labels: { zone: 'a', cores: '8', disk: 'ssd' } } };
const expr = (key: string, operator: NodeSelectorRequirement['operator'], values?: string[]): NodeSelectorTerm => ({
  matchExpressions: [{ key, operator, ...(values ? { values } : {}) }],
});
const field = (operator: NodeSelectorRequirement['operator'], values?: string[], key = 'metadata.name'): NodeSelectorTerm => ({
  matchFields: [{ key, operator, ...(values ? { values } : {}) }],
});

describe('matchNodeSelectorTerm', () => {
  it.each<[string, NodeSelectorTerm, boolean]>([
    ['In with the label value', expr('zone', 'In', ['a', 'b']), true],
    ['In without the value', expr('zone', 'In', ['b']), false],
    ['In on a missing label', expr('rack', 'In', ['r1']), false],
    ['In with no values is invalid', expr('zone', 'In', []), false],
    ['NotIn with another value', expr('zone', 'NotIn', ['b']), true],
    ['NotIn with the value', expr('zone', 'NotIn', ['a']), false],
    ['NotIn on a missing label matches', expr('rack', 'NotIn', ['r1']), true],
    ['NotIn with no values is invalid', expr('rack', 'NotIn', []), false],
    ['Exists', expr('disk', 'Exists'), true],
    ['Exists on a missing label', expr('rack', 'Exists'), false],
    ['Exists with values is invalid', expr('disk', 'Exists', ['ssd']), false],
    ['DoesNotExist on a missing label', expr('rack', 'DoesNotExist'), true],
    ['DoesNotExist on a present label', expr('zone', 'DoesNotExist'), false],
    ['Gt compares integers', expr('cores', 'Gt', ['4']), true],
    ['Gt not greater', expr('cores', 'Gt', ['8']), false],
    ['Lt compares integers', expr('cores', 'Lt', ['16']), true],
    ['Gt on a non-integer label', expr('zone', 'Gt', ['1']), false],
    ['Gt on a missing label', expr('rack', 'Gt', ['1']), false],
    ['Gt with two values is invalid', expr('cores', 'Gt', ['1', '2']), false],
    ['Lt with a non-integer bound is invalid', expr('cores', 'Lt', ['x']), false],
    ['matchFields metadata.name In', field('In', ['node-1']), true],
    ['matchFields metadata.name In another node', field('In', ['node-2']), false],
    ['matchFields metadata.name NotIn another node', field('NotIn', ['node-2']), true],
    ['matchFields In needs exactly one value', field('In', ['node-1', 'node-2']), false],
    ['matchFields Exists is not a field operator', field('Exists'), false],
    ['matchFields on another field', field('In', ['node-1'], 'metadata.uid'), false],
    ['an empty term matches nothing', {}, false],
    ['expressions and fields are ANDed', { ...expr('zone', 'In', ['a']), ...field('In', ['node-2']) }, false],
  ])('%s', (_name, term, want) => {
    expect(matchNodeSelectorTerm(term, node)).toBe(want);
  });

  it('terms of a NodeSelector are ORed; no terms match nothing', () => {
    expect(matchNodeSelector({ nodeSelectorTerms: [expr('zone', 'In', ['b']), field('In', ['node-1'])] }, node)).toBe(true);
    expect(matchNodeSelector({ nodeSelectorTerms: [expr('zone', 'In', ['b'])] }, node)).toBe(false);
    expect(matchNodeSelector({ nodeSelectorTerms: [] }, node)).toBe(false);
  });
});

describe('podMatchesNodeSelectorAndAffinityTerms', () => {
  const pod = (spec: Partial<NonNullable<Pod['spec']>>): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [], ...spec } });
  it.each<[string, Pod, boolean]>([
    ['no constraints', pod({}), true],
    ['nodeSelector matches', pod({ nodeSelector: { zone: 'a' } }), true],
    ['nodeSelector value differs', pod({ nodeSelector: { zone: 'b' } }), false],
    ['required affinity matches', pod({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [field('In', ['node-1'])] } } } }), true],
    [
      'nodeSelector matches but affinity does not',
      pod({ nodeSelector: { zone: 'a' }, affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [expr('disk', 'In', ['hdd'])] } } } }),
      false,
    ],
  ])('%s', (_name, p, want) => {
    expect(podMatchesNodeSelectorAndAffinityTerms(p, node)).toBe(want);
  });
});
