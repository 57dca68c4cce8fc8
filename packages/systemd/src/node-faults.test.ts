import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@kubelab/testing';
import {
  faultedDisk,
  faultedMeminfo,
  faultedPids,
  faultedWorkingSet,
  nodeFaultsFile,
  normalizeNodeFaults,
  readNodeFaults,
  watchNodeFaults,
  writeNodeFaults,
  type NodeFaultState,
} from './node-faults.js';

describe('the node fault state', () => {
  it.each<[string, NodeFaultState, NodeFaultState]>([
    ['nothing set', {}, {}],
    ['read-only', { readonlyFilesystem: true }, { readonlyFilesystem: true }],
    ['read-only off is no fault', { readonlyFilesystem: false }, {}],
    ['partitioned', { partitioned: true }, { partitioned: true }],
    ['partition healed is no fault', { partitioned: false, readonlyFilesystem: true }, { readonlyFilesystem: true }],
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

  it('round-trips through <root>/run/systemd/kubelab-faults/node.json and removes the file when cleared', () => {
    const r = root();
    expect(readNodeFaults(r)).toEqual({});
    writeNodeFaults(r, { readonlyFilesystem: true, usage: { pids: 40000 } });
    expect(nodeFaultsFile(r)).toBe(join(r, 'run', 'systemd', 'kubelab-faults', 'node.json'));
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

describe("the faults' usage as the kubelet, df and free account it", () => {
  const s = (usage: NodeFaultState['usage']): NodeFaultState => ({ usage });
  it.each([
    ['no fault', {}, { capacityBytes: 100, usedBytes: 40, availableBytes: 55 }],
    ['50 taken', s({ diskBytes: 50 }), { capacityBytes: 100, usedBytes: 90, availableBytes: 5 }],
    ['more than is left: all of it', s({ diskBytes: 500 }), { capacityBytes: 100, usedBytes: 95, availableBytes: 0 }],
  ])('disk: %s', (_n, st, want) => expect(faultedDisk({ capacityBytes: 100, usedBytes: 40, availableBytes: 55 }, st)).toEqual(want));

  it.each([
    ['no fault', {}, { MemTotal: 1000, MemFree: 300, MemAvailable: 600 }],
    ['400 kB taken', s({ memoryBytes: 400 * 1024 }), { MemTotal: 1000, MemFree: 0, MemAvailable: 200 }],
    ['more than is available', s({ memoryBytes: 9000 * 1024 }), { MemTotal: 1000, MemFree: 0, MemAvailable: 0 }],
  ])('meminfo: %s', (_n, st, want) => expect(faultedMeminfo({ MemTotal: 1000, MemFree: 300, MemAvailable: 600 }, st)).toEqual(want));

  it.each([
    [{}, 10, 10],
    [s({ memoryBytes: 50 }), 10, 60],
    [s({ memoryBytes: 500 }), 10, 100],
  ])('working set %j', (st, ws, want) => expect(faultedWorkingSet(ws, 100, st)).toBe(want));

  it.each([
    [{}, 3, 3],
    [s({ pids: 90 }), 3, 93],
    [s({ pids: 900 }), 3, 100],
  ])('pids %j', (st, running, want) => expect(faultedPids(running, 100, st)).toBe(want));
});
