// Commands every image has that just-bash lacks or answers for its own
// sandbox: the kernel a container shares with its node (uname) and its UTS
// namespace's name (hostname). The user it runs as (id, whoami) is the
// security context's: security/commands.ts.

import { release, version } from 'node:os';
import { defineCommand, type Command } from 'just-bash';
import { ok, type Result } from './programs/util.js';

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

/**
 * `hostname [-s|-i]`: the UTS namespace's name (the pod's hostname, not the
 * interpreter's "localhost"); -i the addresses /etc/hosts gives it (the pod IP),
 * each followed by a space as busybox and net-tools print them.
 */
export function hostnameCommand(name: string, readHosts: () => Promise<string>, setName?: (args: string[]) => Result | undefined): Command {
  return defineCommand('hostname', async (args) => {
    const refused = setName?.(args);
    if (refused) return refused;
    if (args.some((a) => /^-\w*[iI]/.test(a) || a === '--ip-address' || a === '--all-ip-addresses')) {
      const hosts = await readHosts().catch(() => '');
      const addrs = hosts
        .split('\n')
        .map((l) => l.replace(/#.*/, '').trim().split(/\s+/))
        .filter((f) => f.slice(1).includes(name))
        .map((f) => f[0]!);
      if (addrs.length === 0) return ok('', 1, `hostname: ${name}: Unknown host\n`);
      return ok(`${addrs.join(' ')} \n`);
    }
    if (args.some((a) => a === '-s' || a === '--short')) return ok(`${name.split('.')[0]}\n`);
    return ok(`${name}\n`);
  });
}
