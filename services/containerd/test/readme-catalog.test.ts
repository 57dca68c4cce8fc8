// The README's image table stays true: every image of the runtime's
// catalogue is listed with every tag it answers to.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOG } from '@kubelab/images';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const section = README.slice(README.indexOf("### Images: the runtime's catalogue"), README.indexOf("### The course's lab commands on kubelab"));

/** How the table names a repository: Docker Hub's prefixes dropped, registry.k8s.io's kube-* by their short name. */
const shortName = (repository: string) => repository.replace(/^docker\.io\/(library\/)?/, '');

describe("README's image catalogue", () => {
  it('has its section', () => {
    expect(section.length).toBeGreaterThan(100);
  });

  it.each(CATALOG.map((d) => [shortName(d.repository), d.tags] as const))('%s', (name, tags) => {
    const row = section.split('\n').find((l) => l.startsWith('| ') && (l.includes(`\`${name}\``) || l.includes(`\`${name.split('/').pop()}\``)));
    expect(row, `a row for ${name}`).toBeDefined();
    for (const tag of tags) expect(row, `${name}:${tag}`).toContain(`\`${tag}\``);
  });
});
