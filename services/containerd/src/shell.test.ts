import { describe, expect, it } from 'vitest';
import { parse, serialize } from 'just-bash';
import { canTrap, insertCheckpoints, rewriteJobs, shellScript } from './shell.js';

describe('job control rewrite', () => {
  it('turns a background statement into a job started at its position, with its output streamed', () => {
    expect(shellScript(`(sleep 150; rm -f /tmp/ready) & nginx -g 'daemon off;'`, 1)).toBe(
      "__kubelab_job 1 '(sleep 150 1>> /proc/1/fd/1 2>> /proc/1/fd/2\nrm -f /tmp/ready 1>> /proc/1/fd/1 2>> /proc/1/fd/2)'\nnginx -g 'daemon off;' 1>> /proc/1/fd/1 2>> /proc/1/fd/2",
    );
  });

  it('streams an exec to its own fds, and leaves streaming out when asked', () => {
    expect(shellScript('sleep 5 & echo started', 7)).toBe("__kubelab_job 7 'sleep 5 1>> /proc/7/fd/1 2>> /proc/7/fd/2'\necho started 1>> /proc/7/fd/1 2>> /proc/7/fd/2");
    expect(shellScript('a && b & c', 9, false)).toBe("__kubelab_job 9 'a && b'\nc");
  });

  it('rewrites wait and $! (braced, so following text stays apart)', () => {
    expect(shellScript('sleep 5 & echo "pid $!x"; wait $!; wait', 3, false)).toBe(
      '__kubelab_job 3 \'sleep 5\'\necho "pid ${__kubelab_last_job-}x"\n__kubelab_wait 3 ${__kubelab_last_job-}\n__kubelab_wait 3',
    );
  });

  it("finds & in loop bodies and function bodies, and leaves a job's own text for the job", () => {
    expect(shellScript('for i in 1 2; do echo $i & done', 1, false)).toBe("for i in 1 2; do\n__kubelab_job 1 'echo $i'\ndone");
    expect(shellScript('(sleep 1 & wait; echo $!) &', 1, false)).toBe("__kubelab_job 1 '(sleep 1 &\nwait\necho $!)'");
  });

  it('keeps & inside a command substitution synchronous, so its output is captured', () => {
    expect(shellScript('x=$(echo sub & wait)', 1, false)).toBe('x=$(echo sub &\n__kubelab_wait 1)');
  });

  it('gives a job the functions defined before it', () => {
    expect(shellScript('f() { echo hi; }; f &', 1, false)).toBe("f() { echo hi; }\n__kubelab_job 1 'f() { echo hi; }\nf'");
  });

  it('asks for an owner only when there is something to rewrite', () => {
    let asked = 0;
    expect(rewriteJobs(parse('echo a; sleep 1'), () => ++asked)).toBe(false);
    expect(asked).toBe(0);
    expect(rewriteJobs(parse('echo a & echo b &'), () => ++asked)).toBe(true);
    expect(asked).toBe(1);
  });

  it('gives trap its shell, and puts trap points after the commands the shell runs itself (not inside a subshell or pipeline)', () => {
    const point = '__kubelab_trap_point $? || eval "$__kubelab_trap_eval"';
    expect(shellScript("trap 'exit 0' TERM; while sleep 1; do (a; b) | c; done", 1, false, true)).toBe(
      `__kubelab_trap 1 'exit 0' TERM\n${point}\nwhile sleep 1\n${point}; do\n(a\nb) | c\n${point}\ndone\n${point}`,
    );
    expect(canTrap('touch /tmp/healthy; sleep 30; rm /tmp/healthy; sleep 600')).toBe(false);
    expect(canTrap('. /etc/profile; run')).toBe(true);
  });

  it('returns an unparsable script as it is', () => {
    expect(shellScript('echo "unterminated &', 1)).toBe('echo "unterminated &');
  });
});

describe('loop checkpoints', () => {
  const checkpointed = (script: string) => {
    const ast = parse(script);
    insertCheckpoints(ast);
    return serialize(ast);
  };
  const cp = '19>> /proc/kubelab/checkpoint';

  it("redirect the first command of a while/until condition or a for body, leaving $? and the command's fds alone", () => {
    expect(checkpointed('while [ $i -lt 3 ]; do i=$((i+1)); done')).toBe(`while [ $i -lt 3 \\] ${cp}; do\ni=$((i + 1))\ndone`);
    expect(checkpointed('until false; do :; done')).toBe(`until false ${cp}; do\n:\ndone`);
    expect(checkpointed('for ((;;)); do i=1; done')).toBe(`for ((; ; )); do\ni=1 ${cp}\ndone`);
    expect(checkpointed('for f in a b; do echo "$?" >&2; done')).toBe(`for f in a b; do\necho "$?" ${cp} >& 2\ndone`);
  });

  it('find loops in functions, substitutions and pipelines, and put a no-op first where a function is defined', () => {
    expect(checkpointed('f() { while :; do :; done; }; x=$(until a; do b; done) | for i in 1; do g() { :; }; done')).toBe(
      `f() { while : ${cp}; do\n:\ndone; }\nx=$(until a ${cp}; do\nb\ndone) | for i in 1; do\n: ${cp}\ng() { :; }\ndone`,
    );
  });

  it('leave loops whose condition or body streams its output (the filesystem checkpoints there), and change nothing a second time', () => {
    const streamed = shellScript('while true; do echo tick; done', 1);
    expect(checkpointed(streamed)).toBe(streamed);
    const once = checkpointed('while [ -f /x ]; do i=1; done');
    expect(checkpointed(once)).toBe(once);
  });

  it('streams what loop and if conditions print as they run', () => {
    expect(shellScript('until nslookup db; do sleep 2; done; if grep -q x /f; then :; fi', 1)).toBe(
      'until nslookup db 1>> /proc/1/fd/1 2>> /proc/1/fd/2; do\nsleep 2 1>> /proc/1/fd/1 2>> /proc/1/fd/2\ndone\nif grep -q x /f 1>> /proc/1/fd/1 2>> /proc/1/fd/2; then\n: 1>> /proc/1/fd/1 2>> /proc/1/fd/2\nfi',
    );
  });
});
