import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { npdAddonObjects } from './npd-addon.js';

describe('the Node Problem Detector addon', () => {
  it("is the same ServiceAccount and npd-binding in both runners (compose's kubeadm service applies the YAML)", () => {
    const file = fileURLToPath(new URL('../../../docker/kubeadm/addons/node-problem-detector-rbac.yaml', import.meta.url));
    const docs = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as unknown);
    const { serviceAccount, binding } = npdAddonObjects();
    expect(docs).toEqual([serviceAccount, binding]);
  });
});
