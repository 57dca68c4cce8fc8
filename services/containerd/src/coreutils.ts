// Commands every image has that just-bash lacks or answers for its own
// sandbox: the kernel a container shares with its node (uname) and the user
// it runs as (id, whoami). kubelab runs every container as root, the images'
// and Kubernetes' default without a runAsUser.

import { release, version } from 'node:os';
import { defineCommand, type Command } from 'just-bash';
import { ok } from './programs/util.js';

/** `uname [-asnrvmo]`: the host's kernel, as every container on it sees it; the node name is the pod's hostname. */
export function unameCommand(hostname: string): Command {
  return defineCommand('uname', async (args) => {
    const fields: Record<string, string> = { s: 'Linux', n: hostname, r: release(), v: version(), m: 'x86_64', o: 'GNU/Linux' };
    const letters = args.flatMap((a) => (a === '--all' ? ['a'] : a.startsWith('-') ? [...a.slice(1)] : []));
    const bad = letters.find((l) => l !== 'a' && !(l in fields));
    if (bad) return ok('', 1, `uname: invalid option -- '${bad}'\nTry 'uname --help' for more information.\n`);
    const want = letters.includes('a') ? ['s', 'n', 'r', 'v', 'm', 'o'] : letters.length ? ['s', 'n', 'r', 'v', 'm', 'o'].filter((l) => letters.includes(l)) : ['s'];
    return ok(`${want.map((l) => fields[l]).join(' ')}\n`);
  });
}

export const idCommand = defineCommand('id', async (args) => {
  const letters = new Set(args.flatMap((a) => (a.startsWith('-') ? [...a.slice(1)] : [])));
  if (letters.has('u') || letters.has('g') || letters.has('G')) return ok(letters.has('n') ? 'root\n' : '0\n');
  return ok('uid=0(root) gid=0(root) groups=0(root)\n');
});

export const whoamiCommand = defineCommand('whoami', async () => ok('root\n'));
