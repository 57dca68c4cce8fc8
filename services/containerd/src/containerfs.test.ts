import { describe, expect, it } from 'vitest';
import { Bash, InMemoryFs, defineCommand } from 'just-bash';
import { ContainerFs } from './containerfs.js';
import { startProcess } from './testing/process.js';

const files = { '/etc/hostname': 'web\n', '/usr/share/nginx/html/index.html': '<h1>hi</h1>\n' };
const env = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root' };

/** A shell as SimProcess builds it, over `fs`, with `programs` as extra commands. */
function shell(fs: InMemoryFs, programs: string[]): Bash {
  const bash = new Bash({
    fs,
    cwd: '/',
    env,
    defenseInDepth: false,
    customCommands: programs.map((p) => defineCommand(p, async () => ({ stdout: `${p} ran\n`, stderr: '', exitCode: 0 }))),
  });
  if (fs instanceof ContainerFs) fs.sealStubs();
  return bash;
}

const run = async (bash: Bash, script: string) => {
  const r = await bash.exec(script);
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
};

describe('container filesystem with shared command stubs', () => {
  // Each script runs once over a fully written filesystem (what just-bash
  // does alone) and once over ContainerFs: what a user sees must not differ.
  const scripts = [
    'ls /bin | head -5; ls /usr/bin | wc -l; ls /bin/nginx',
    'which sh; which ls nginx; command -v sleep; command -v nosuch; echo "status $?"',
    'type echo; cat /bin/ls; wc -c /usr/bin/echo',
    '[ -x /bin/ls ] && echo exec; [ -f /usr/bin/cat ] && echo file; test -e /bin/nosuch || echo none; [ -d /bin ] && echo dir',
    'realpath /bin//ls /usr/bin/../bin/cat; readlink /bin/ls; echo "readlink $?"',
    'rm /bin/ls; ls /bin | grep -c "^ls$"; command -v ls; ls /usr/bin/ls',
    'rm /usr/bin/cat /bin/cat; cat /etc/hostname; echo "status $?"',
    'echo "echo mine" > /bin/mytool; chmod +x /bin/mytool; ls /bin | grep mytool; cat /bin/mytool',
    'echo changed > /usr/bin/echo; cat /usr/bin/echo; echo still works',
    'mv /bin/ls /tmp/ls; ls /tmp; ls /bin/ls',
    'ln -s /bin/ls /tmp/l; readlink /tmp/l; cat /tmp/l',
    'find /usr/bin -name "ec*"; cd /bin && echo e*',
    'cp /bin/echo /tmp/e; cat /tmp/e; cp -r /usr/bin /tmp/ub; ls /tmp/ub | wc -l',
    'rm -rf /usr; ls /; command -v tr; echo a | tr a b',
    'mkdir /bin/ls; echo "mkdir $?"; mkdir -p /usr/local/bin; ls /usr',
    'stat -c "%s %F" /bin/ls /usr/bin/nginx',
    'ls -la / | wc -l; nginx',
  ];
  it.each(scripts)('%s', async (script) => {
    const want = await run(shell(new InMemoryFs(files), ['nginx']), script);
    const got = await run(shell(new ContainerFs(files, () => {}), ['nginx']), script);
    expect(got).toEqual(want);
    expect(got.stdout + got.stderr).not.toBe('');
  });

  it('keeps each container to its own commands and writes', async () => {
    const a = shell(new ContainerFs(files, () => {}), ['nginx']);
    const b = shell(new ContainerFs(files, () => {}), []);
    expect(await run(a, 'echo mine > /bin/sh; cat /bin/sh; ls /bin/nginx')).toEqual({ stdout: 'mine\n/bin/nginx\n', stderr: '', exitCode: 0 });
    expect(await run(b, 'cat /bin/sh; ls /bin/nginx')).toEqual({
      stdout: '#!/bin/bash\n# Built-in command: sh\n',
      stderr: 'ls: /bin/nginx: No such file or directory\n',
      exitCode: 2,
    });
  });

  it('keeps an image file at a command path instead of sharing the stub', async () => {
    const fs = new ContainerFs({ ...files, '/bin/sh': 'image shell\n' }, () => {});
    const bash = shell(fs, []);
    // just-bash replaces the image's file with its stub, as before.
    expect(await run(bash, 'cat /bin/sh')).toEqual({ stdout: '#!/bin/bash\n# Built-in command: sh\n', stderr: '', exitCode: 0 });
  });

  it('routes /proc/PID/fd/1 and 2 to the sink and counts written bytes', async () => {
    const out: string[] = [];
    // The redirection opens the fd with an empty write first: only text counts.
    const fs = new ContainerFs(files, (pid, stream, text) => text && out.push(`${pid} ${stream} ${text}`));
    const bash = shell(fs, []);
    await bash.exec('echo hello >> /proc/1/fd/1; echo oops >> /proc/7/fd/2; echo 12345 > /tmp/x');
    expect(out).toEqual(['1 stdout hello\n', '7 stderr oops\n']);
    expect(fs.writtenBytes).toBe(6);
  });
});

describe("the runtime's shell helpers", () => {
  it('resolve as commands but are not in the listing of /bin', async () => {
    const { p } = startProcess(['sleep', '30']);
    try {
      const r = await p.execSync(['sh', '-c', 'ls /bin /usr/bin | grep -c kubelab; sleep 0.01 & wait; echo waited'], 5000);
      expect(r.stdout).toBe('0\nwaited\n');
    } finally {
      p.kill();
    }
  });
});
