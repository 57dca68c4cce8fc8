import { readFileSync } from 'node:fs';

/** The probedemo pod of the seed lab (000: kubelet und kube-proxy), as README users apply it: examples/probedemo.yaml. */
export const PROBEDEMO_MANIFEST = readFileSync(new URL('../../../examples/probedemo.yaml', import.meta.url), 'utf8');
