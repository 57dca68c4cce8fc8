import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOG } from './catalog.js';
import { shortRepository } from './image.js';
import { humanSize, imagesMarkdown, imagesTable } from './listing.js';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

describe('the catalogue', () => {
  it('names each repository:tag once', () => {
    const refs = CATALOG.flatMap((d) => d.tags.map((t) => `${d.repository}:${t}`));
    expect(refs.length).toBe(new Set(refs).size);
  });

  it('has the images courses name', () => {
    const names = new Set(CATALOG.flatMap((d) => d.tags.map((t) => `${shortRepository(d.repository)}:${t}`)));
    for (const ref of ['nginx:1.14.2', 'busybox:1.28', 'redis:latest', 'httpd:latest', 'postgres:latest', 'mysql:latest', 'python:3.13', 'node:22', 'registry.k8s.io/e2e-test-images/agnhost:2.53'])
      expect(names, ref).toContain(ref);
  });

  it.each([
    [730_000, '730.0kB'],
    [2_200_000, '2.2MB'],
    [72 * 1024 * 1024, '75.5MB'],
  ])('sizes %d as %s', (bytes, text) => {
    expect(humanSize(bytes)).toBe(text);
  });

  it('prints a column table with the teaching images last', () => {
    const lines = imagesTable().split('\n');
    expect(lines[0]).toMatch(/^IMAGE {2,}TAGS {2,}SIZE {2,}WHAT IT RUNS$/);
    expect(lines.find((l) => l.startsWith('redis '))).toMatch(/^redis +7\.4, 7\.4\.1, 7, latest +47\.2MB +Redis 7\.4\.1: RESP on :6379/);
    expect(lines.filter(Boolean).at(-1)).toMatch(/^registry\.kubelab\.io\/private\/app /);
  });

  it("is the README's table", () => {
    expect(README).toContain(imagesMarkdown());
  });
});
