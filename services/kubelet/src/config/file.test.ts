import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pod } from '@kubelab/api';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSource } from './file.js';

describe('FileSource first read (marks the file source as seen)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const source = (dir: string, seen: string[][]) =>
    new FileSource(
      dir,
      'node-1',
      60_000,
      (pods: Pod[]) => seen.push(pods.map((p) => p.metadata.name ?? '')),
      () => {},
    );

  it('reports an empty directory once, then only changes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubelab-manifests-'));
    dirs.push(dir);
    const seen: string[][] = [];
    const fs = source(dir, seen);
    fs.scan();
    fs.scan();
    expect(seen).toEqual([[]]);
    writeFileSync(join(dir, 'web.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n    - name: app\n      image: nginx\n');
    fs.scan();
    fs.scan();
    expect(seen).toEqual([[], ['web-node-1']]);
  });

  it('reports a missing directory as an empty set', () => {
    const seen: string[][] = [];
    source(join(tmpdir(), 'kubelab-no-such-dir-for-test'), seen).scan();
    expect(seen).toEqual([[]]);
  });
});
