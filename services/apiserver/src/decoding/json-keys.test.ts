import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, objectFieldErrors, scanJson, yamlDuplicateLines } from './json-keys.js';

describe('scanJson', () => {
  const cases: Array<{ name: string; text: string; duplicates: string[] }> = [
    { name: 'no duplicates', text: '{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}', duplicates: [] },
    { name: 'a repeated top-level key', text: '{"kind":"Pod","kind":"Pod"}', duplicates: ['kind'] },
    { name: 'nested, with list indexes', text: '{"spec":{"containers":[{"name":"a"},{"name":"b","image":"x","image":"y"}]}}', duplicates: ['spec.containers[1].image'] },
    { name: 'keys with escapes compare decoded', text: '{"metadata":{"n\\u0061me":"a","name":"b"}}', duplicates: ['metadata.name'] },
    { name: 'strings that look like structure are skipped', text: '{"a":"{\\"a\\":1,\\"a\\":2}","b":"[,]","a2":"\\\\"}', duplicates: [] },
    { name: 'each repeat is reported', text: '{"a":1,"a":2,"a":3}', duplicates: ['a', 'a'] },
    { name: 'same key in sibling objects is fine', text: '[{"a":1},{"a":1}]', duplicates: [] },
    { name: 'a map repeating a key', text: '{"metadata":{"labels":{"app":"a","app":"b"}}}', duplicates: ['metadata.labels.app'] },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      JSON.parse(tc.text); // the scanner runs on text JSON.parse accepted
      const r = scanJson(tc.text);
      expect(r.duplicates.map((d) => d.path)).toEqual(tc.duplicates);
      expect(r.tooDeep).toBeUndefined();
    });
  }

  it("stops at the nesting limit with Go's decoder's words, without recursion", () => {
    const deep = (n: number, open = '[', close = ']') => open.repeat(n) + close.repeat(n);
    expect(scanJson(deep(MAX_JSON_DEPTH)).tooDeep).toBeUndefined();
    expect(scanJson(deep(MAX_JSON_DEPTH + 1)).tooDeep).toBe("invalid character '[' exceeded max depth");
    expect(scanJson(`{"a":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_001)}`).tooDeep).toBe("invalid character '{' exceeded max depth");
  });
});

describe('objectFieldErrors', () => {
  it('orders unknown and duplicate fields as the decoder meets them and drops duplicates within unknown fields', () => {
    const text =
      '{"metadata":{"name":"a","name":"b","unknownMeta":1},"spec":{"unknown1":1,"unknownDupe":1,"unknownDupe":2,"paused":true,"paused":false,' +
      '"template":{"spec":{"containers":[{"name":"c","unknownNested":1,"imagePullPolicy":"Always","imagePullPolicy":"Never"}]}}}}';
    const unknown = ['metadata.unknownMeta', 'spec.unknown1', 'spec.unknownDupe', 'spec.template.spec.containers[0].unknownNested'];
    expect(objectFieldErrors(text, unknown, scanJson(text).duplicates)).toEqual([
      'duplicate field "metadata.name"',
      'unknown field "metadata.unknownMeta"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
      'duplicate field "spec.paused"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
    ]);
  });

  it('without duplicates: the unknown fields as they are', () => {
    expect(objectFieldErrors('{"a":1}', ['a'], [])).toEqual(['unknown field "a"']);
  });
});

describe('yamlDuplicateLines', () => {
  it('names each repeated key with its 1-based line, as go-yaml does', () => {
    const text = '{"a": 1,\n "b": {"c": 1,\n\n "c": 2},\n "a": 3}';
    expect(yamlDuplicateLines(text, scanJson(text).duplicates)).toEqual(['line 4: key "c" already set in map', 'line 5: key "a" already set in map']);
  });
});
