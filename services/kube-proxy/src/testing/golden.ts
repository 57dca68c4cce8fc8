// Golden files, in src/testdata. iptables-restore.golden.txt and
// nft-script.golden.txt were checked by hand against upstream's proxier_test
// expectations; iptables-save.golden.txt and nft-list.golden.txt are what
// iptables 1.8.9 / nft 1.0.6 printed after applying those in a network namespace.

import { readFileSync } from 'node:fs';

export function golden(name: string): string {
  return readFileSync(new URL(`../testdata/${name}`, import.meta.url), 'utf8');
}
