import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@kubelab/testing';
import { nodeFaultsFile, normalizeNodeFaults, readNodeFaults, watchNodeFaults, writeNodeFaults, type NodeFaultState } from './node-faults.js';

describe('the node fault state', () => {
  it.each<[string, NodeFaultState, NodeFaultState]>([
    ['nothing set', {}, {}],
    ['read-only', { readonlyFilesystem: true }, { readonlyFilesystem: true }],
    ['read-only off is no fault', { readonlyFilesystem: false }, {}],
    ['usage keeps positive numbers only', { usage: { diskBytes: 5, memoryBytes: 0, pids: -1 } }, { usage: { diskBytes: 5 } }],
    ['empty usage is no fault', { usage: { pids: 0 } }, {}],
  ])('%s', (_name, s, want) => expect(normalizeNodeFaults(s)).toEqual(want));

  const roots: string[] = [];
  const root = () => {
    const r = mkdtempSync(join(tmpdir(), 'node-faults-'));
    roots.push(r);
    return r;
  };
  afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));

  it('round-trips through <root>/run/kubelab/faults/node.json and removes the file when cleared', () => {
    const r = root();
    expect(readNodeFaults(r)).toEqual({});
    writeNodeFaults(r, { readonlyFilesystem: true, usage: { pids: 40000 } });
    expect(nodeFaultsFile(r)).toBe(join(r, 'run', 'kubelab', 'faults', 'node.json'));
    expect(readNodeFaults(r)).toEqual({ readonlyFilesystem: true, usage: { pids: 40000 } });
    writeNodeFaults(r, {});
    expect(readNodeFaults(r)).toEqual({});
  });

  it('tells a watcher the state now and each change, once per change', async () => {
    const r = root();
    const seen: NodeFaultState[] = [];
    const stop = watchNodeFaults(r, (s) => seen.push(s));
    try {
      writeNodeFaults(r, { readonlyFilesystem: true });
      await waitFor('read-only seen', () => (seen.length >= 2 ? true : undefined), { timeoutMs: 10_000 });
      writeNodeFaults(r, {});
      await waitFor('cleared seen', () => (seen.length >= 3 ? true : undefined), { timeoutMs: 10_000 });
      expect(seen).toEqual([{}, { readonlyFilesystem: true }, {}]);
    } finally {
      stop();
    }
  });
});
