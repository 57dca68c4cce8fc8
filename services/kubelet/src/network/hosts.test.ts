import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { ensureHostsFile, managedHostsFileContent } from './hosts.js';

const LOCAL =
  '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n';

describe('kubelet-managed /etc/hosts (upstream managedHostsFileContent)', () => {
  it.each([
    ['pod IP and hostname', ['10.244.1.5'], 'web-0', '', undefined, `${LOCAL}10.244.1.5\tweb-0\n`],
    ['with a subdomain: the FQDN first', ['10.244.1.5'], 'db-0', 'db.shop.svc.cluster.local', undefined, `${LOCAL}10.244.1.5\tdb-0.db.shop.svc.cluster.local\tdb-0\n`],
    [
      'hostAliases after their comment',
      ['10.244.1.5'],
      'web-0',
      '',
      [
        { ip: '127.0.0.1', hostnames: ['foo.local', 'bar.local'] },
        { ip: '10.1.2.3', hostnames: ['foo.remote'] },
      ],
      `${LOCAL}10.244.1.5\tweb-0\n\n# Entries added by HostAliases.\n127.0.0.1\tfoo.local\tbar.local\n10.1.2.3\tfoo.remote\n`,
    ],
  ])('%s', (_n, ips, host, domain, aliases, want) => {
    expect(managedHostsFileContent(ips, host, domain, aliases)).toBe(want);
  });

  it('a host-network pod gets the node hosts file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hosts-'));
    const nodeHosts = join(dir, 'node-hosts');
    writeFileSync(nodeHosts, '127.0.0.1\tlocalhost\n172.18.0.3\tnode-1\n');
    const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u9' }, spec: { hostNetwork: true, containers: [] } };
    const m = await ensureHostsFile({ rootDir: dir, nodeHostsPath: nodeHosts }, pod, [], 'p', '');
    expect(m).toEqual({ hostPath: join(dir, 'pods', 'u9', 'etc-hosts'), containerPath: '/etc/hosts', readonly: false });
    expect(readFileSync(m.hostPath, 'utf8')).toBe('# Kubernetes-managed hosts file (host network).\n127.0.0.1\tlocalhost\n172.18.0.3\tnode-1\n');
  });
});
