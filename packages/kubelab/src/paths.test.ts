import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientStateDir } from './paths.js';

describe('clientStateDir', () => {
  let cwd: string;
  let saved: string | undefined;
  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'kubelab-paths-'));
    saved = process.env.INIT_CWD;
    process.env.INIT_CWD = cwd;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.INIT_CWD;
    else process.env.INIT_CWD = saved;
    rmSync(cwd, { recursive: true, force: true });
  });
  const cluster = (dir: string) => {
    mkdirSync(join(cwd, dir), { recursive: true });
    writeFileSync(join(cwd, dir, 'cluster.json'), '{}');
  };

  it('is the runner state dir when nothing ran', () => expect(clientStateDir(undefined)).toBe(join(cwd, '.kubelab/local')));
  it("is the compose stack's folder when only compose wrote a cluster.json", () => {
    cluster('.kubelab/compose');
    expect(clientStateDir(undefined)).toBe(join(cwd, '.kubelab/compose'));
  });
  it("prefers the local runner's when both have one", () => {
    cluster('.kubelab/compose');
    cluster('.kubelab/local');
    expect(clientStateDir(undefined)).toBe(join(cwd, '.kubelab/local'));
  });
  it('takes --state-dir as given, relative to the caller', () => {
    cluster('.kubelab/local');
    expect(clientStateDir('elsewhere')).toBe(join(cwd, 'elsewhere'));
  });
});
