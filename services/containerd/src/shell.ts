// Turning a container's argv into a script for the simulated shell, and making
// its output stream: just-bash returns a command's output when the whole
// script ends, so every simple command whose output would reach the
// container's stdout/stderr is redirected (appending) to /proc/1/fd/1 and
// /proc/1/fd/2, which the container filesystem forwards to the log as each
// command finishes — `while true; do date; sleep 1; done` logs every second.

import { parse, serialize, type CommandNode, type SimpleCommandNode, type StatementNode } from 'just-bash';

type RedirectionNode = SimpleCommandNode['redirections'][number];

export const STDOUT_PATH = '/proc/1/fd/1';
export const STDERR_PATH = '/proc/1/fd/2';

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash']);

/** POSIX single-quoting. */
export function quoteArg(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/** `sh -c SCRIPT` runs SCRIPT itself; any other argv becomes one quoted command line. */
export function argvToScript(argv: string[]): string {
  const [cmd, flag, script] = argv;
  if (cmd !== undefined && SHELLS.has(basename(cmd)) && flag === '-c' && script !== undefined) return script;
  if (cmd === undefined) return '';
  return [basename(cmd) === cmd ? cmd : basename(cmd), ...argv.slice(1)].map(quoteArg).join(' ');
}

function redirect(fd: number, path: string): RedirectionNode {
  return { type: 'Redirection', fd, operator: '>>', target: { type: 'Word', parts: [{ type: 'Literal', value: path }] } } as RedirectionNode;
}

/** The fds a command's redirections already take care of. */
function redirectedFds(redirs: RedirectionNode[]): Set<number> {
  const fds = new Set<number>();
  for (const r of redirs) {
    if (r.operator === '&>' || r.operator === '&>>') {
      fds.add(1);
      fds.add(2);
    } else if (r.operator === '>&' || r.operator === '<&') {
      // A dup (`>&2`) follows whatever its target fd points at: ours come first.
    } else if (r.operator.startsWith('<')) fds.add(r.fd ?? 0);
    else fds.add(r.fd ?? 1);
  }
  return fds;
}

function streamCommand(cmd: CommandNode, lastInPipeline: boolean): void {
  if (cmd.type === 'SimpleCommand') {
    if (!cmd.name) return;
    const fds = redirectedFds(cmd.redirections);
    // Prepended, so that user redirections such as `>&2` or `2>&1` apply on top.
    if (!fds.has(2)) cmd.redirections.unshift(redirect(2, STDERR_PATH));
    if (lastInPipeline && !fds.has(1)) cmd.redirections.unshift(redirect(1, STDOUT_PATH));
    return;
  }
  // A compound command with its own redirections sends its output elsewhere.
  if (cmd.type === 'FunctionDef' || cmd.redirections.length > 0 || !lastInPipeline) return;
  switch (cmd.type) {
    case 'If':
      for (const c of cmd.clauses) streamStatements(c.body);
      if (cmd.elseBody) streamStatements(cmd.elseBody);
      return;
    case 'For':
    case 'CStyleFor':
    case 'While':
    case 'Until':
    case 'Subshell':
    case 'Group':
      streamStatements(cmd.body);
      return;
    case 'Case':
      for (const item of cmd.items) streamStatements(item.body);
      return;
    default:
      return;
  }
}

function streamStatements(statements: StatementNode[]): void {
  for (const st of statements) {
    for (const p of st.pipelines) {
      p.commands.forEach((c, i) => streamCommand(c, i === p.commands.length - 1));
    }
  }
}

/** The script rewritten to stream its output; unparsable scripts are returned as they are (the shell reports the error). */
export function streamingScript(script: string): string {
  try {
    const ast = parse(script);
    streamStatements(ast.statements);
    return serialize(ast);
  } catch {
    return script;
  }
}
