// The catalogue as people read it: `kubelab images` prints it for the
// terminal, and the README's table is the same rows in Markdown (a test
// keeps the two equal). One row per image; the teaching images last.

import { CATALOG } from './catalog.js';
import { shortRepository, type ImageDef } from './image.js';

/** docker's human size: `2.1MB`, `72.0MB` (decimal units, as `docker images` prints). */
export function humanSize(bytes: number): string {
  if (bytes < 1000 * 1000) return `${(bytes / 1000).toFixed(1)}kB`;
  if (bytes < 1000 ** 3) return `${(bytes / 1000 ** 2).toFixed(1)}MB`;
  return `${(bytes / 1000 ** 3).toFixed(2)}GB`;
}

/** The catalogue in the order it lists: registry images, then the teaching ones. */
export function listedImages(catalog: readonly ImageDef[] = CATALOG): ImageDef[] {
  return [...catalog.filter((d) => !d.teaching), ...catalog.filter((d) => d.teaching)];
}

/** `kubelab images`: a column table, as `docker images` lays one out. */
export function imagesTable(catalog: readonly ImageDef[] = CATALOG): string {
  const rows = listedImages(catalog).map((d) => [shortRepository(d.repository), d.tags.join(', '), humanSize(d.size), d.description]);
  const header = ['IMAGE', 'TAGS', 'SIZE', 'WHAT IT RUNS'];
  const widths = header.slice(0, 3).map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `${r.map((c, i) => (i < 3 ? c.padEnd(widths[i]! + 3) : c)).join('')}\n`;
  return line(header) + rows.map(line).join('');
}

/** The README's catalogue table. */
export function imagesMarkdown(catalog: readonly ImageDef[] = CATALOG): string {
  const rows = listedImages(catalog).map(
    (d) => `| \`${shortRepository(d.repository)}\` | ${d.tags.map((t) => `\`${t}\``).join(', ')} | ${humanSize(d.size)} | ${d.description.replace(/\|/g, '\\|')} |`,
  );
  return ['| image | tags | size | what runs |', '| --- | --- | --- | --- |', ...rows].join('\n') + '\n';
}
