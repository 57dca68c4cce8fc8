// Turning a container's argv into a script for the simulated shell, and making
// its output stream: just-bash returns a command's output when the whole
// script ends, so every simple command whose output would reach the
// container's stdout/stderr is redirected (appending) to /proc/1/fd/1 and
// /proc/1/fd/2, which the container filesystem forwards to the log as each
// command finishes — `while true; do date; sleep 1; done` logs every second.
// just-bash runs `cmd &` synchronously, so background statements, `wait` and
// `$!` are rewritten into calls of the process's job-control commands (see
// rewriteJobs and process.ts). PID 1's script also gets trap points between
// its commands, where a deferred TERM trap runs (see insertTrapPoints).

import { parse, serialize, type CommandNode, type ScriptNode, type SimpleCommandNode, type StatementNode } from 'just-bash';

type RedirectionNode = SimpleCommandNode['redirections'][number];

export const STDOUT_PATH = '/proc/1/fd/1';
export const STDERR_PATH = '/proc/1/fd/2';

/** Where process `pid`'s stdout (fd 1) or stderr (fd 2) goes; the container filesystem routes these. */
export function fdPath(pid: number, fd: 1 | 2): string {
  return `/proc/${pid}/fd/${fd}`;
}

/** The prefix of the runtime's own shell helpers below (not the image's: `ls /bin` leaves them out). */
export const HELPER_PREFIX = '__kubelab_';
/** `__kubelab_job OWNER SCRIPT`: starts SCRIPT as a background job of shell OWNER. */
export const JOB_COMMAND = '__kubelab_job';
/** `__kubelab_wait OWNER [pid|%job...]`: the `wait` builtin for shell OWNER's jobs. */
export const WAIT_COMMAND = '__kubelab_wait';
/** The shell variable holding `$!` (just-bash never sets its own). */
export const LAST_JOB_VAR = '__kubelab_last_job';
/** `__kubelab_trap OWNER ARGS...`: the `trap` builtin for shell OWNER. */
export const TRAP_COMMAND = '__kubelab_trap';
/** `__kubelab_trap_point STATUS`: fails when a trap is due or STATUS is not 0, after setting TRAP_EVAL_VAR to what restores it. */
export const TRAP_POINT_COMMAND = '__kubelab_trap_point';
/** The code a trap point has its shell eval: the trap action, then `$?` put back. */
export const TRAP_EVAL_VAR = '__kubelab_trap_eval';
/** `__kubelab_status N`: returns N (sets `$?`). */
export const STATUS_COMMAND = '__kubelab_status';
/** Where a loop's checkpoint redirection points: the container filesystem hands the thread back there (cpu.ts). */
export const CHECKPOINT_PATH = '/proc/kubelab/checkpoint';
/** The fd of that redirection: scripts keep to 0-9, so it shadows none of theirs. */
const CHECKPOINT_FD = 19;

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash']);

/** POSIX single-quoting. */
export function quoteArg(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/** `sh FILE [ARG...]` (not `sh -c`): the script file PID 1 runs and its arguments. */
export function scriptFileOf(argv: string[]): { path: string; args: string[] } | undefined {
  const [cmd, file, ...args] = argv;
  if (cmd === undefined || !SHELLS.has(basename(cmd)) || file === undefined || file.startsWith('-')) return undefined;
  return { path: file, args };
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

function streamCommand(cmd: CommandNode, lastInPipeline: boolean, pid: number): void {
  if (cmd.type === 'SimpleCommand') {
    if (!cmd.name) return;
    const fds = redirectedFds(cmd.redirections);
    // Prepended, so that user redirections such as `>&2` or `2>&1` apply on top.
    if (!fds.has(2)) cmd.redirections.unshift(redirect(2, fdPath(pid, 2)));
    if (lastInPipeline && !fds.has(1)) cmd.redirections.unshift(redirect(1, fdPath(pid, 1)));
    return;
  }
  // A compound command with its own redirections sends its output elsewhere.
  if (cmd.type === 'FunctionDef' || cmd.redirections.length > 0 || !lastInPipeline) return;
  switch (cmd.type) {
    // Conditions too: their output comes as they run (`until nslookup db; do ...`), not when the whole loop or if is done.
    case 'If':
      for (const c of cmd.clauses) {
        streamStatements(c.condition, pid);
        streamStatements(c.body, pid);
      }
      if (cmd.elseBody) streamStatements(cmd.elseBody, pid);
      return;
    case 'While':
    case 'Until':
      streamStatements(cmd.condition, pid);
      streamStatements(cmd.body, pid);
      return;
    case 'For':
    case 'CStyleFor':
    case 'Subshell':
    case 'Group':
      streamStatements(cmd.body, pid);
      return;
    case 'Case':
      for (const item of cmd.items) streamStatements(item.body, pid);
      return;
    default:
      return;
  }
}

function streamStatements(statements: StatementNode[], pid: number): void {
  for (const st of statements) {
    for (const p of st.pipelines) {
      p.commands.forEach((c, i) => streamCommand(c, i === p.commands.length - 1, pid));
    }
  }
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null;
const statementOf = (text: string): StatementNode => parse(text).statements[0]!;

/** A deep copy of plain AST data. */
function cloneNode<T>(node: T): T {
  if (Array.isArray(node)) return node.map(cloneNode) as T;
  if (!isNode(node)) return node;
  const copy: Node = {};
  for (const k in node) copy[k] = cloneNode(node[k]);
  return copy as T;
}

/** A constant statement parsed once; each call gives a fresh copy, so no two places in a tree share a node. */
function statementTemplate(text: string): () => StatementNode {
  const st = statementOf(text);
  return () => cloneNode(st);
}

/**
 * Job control for one shell (`owner()` gives its pid, asked only when needed):
 * each statement ending in `&` becomes `__kubelab_job OWNER 'statement'`,
 * which starts it concurrently and returns at once, as a shell forks a
 * background subshell; function definitions seen before it are prepended so
 * the job can call them. A literal `wait` becomes `__kubelab_wait OWNER ...`,
 * `trap` becomes `__kubelab_trap OWNER ...` (a trap belongs to its shell) and
 * `$!` reads LAST_JOB_VAR. The job's own text is left as written: it is
 * rewritten when it starts, with the job as the owner of its children.
 * Limits: `&` inside $(...) and <(...) stays synchronous (its output must
 * land in the substitution); `$!` inside $((...)), and `wait`/`trap`/`&`
 * produced by eval or variable expansion, are not rewritten. Returns whether anything changed.
 */
export function rewriteJobs(ast: ScriptNode, owner: () => number): boolean {
  let changed = false;
  let pid: number | undefined;
  const ownerPid = () => (pid ??= owner());
  const functions: string[] = [];
  const visit = (node: unknown, inSubstitution = false): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        if (isNode(item) && item.type === 'Statement') {
          const st = item as unknown as StatementNode;
          if (st.pipelines.length === 1 && st.pipelines[0]!.commands.length === 1 && st.pipelines[0]!.commands[0]!.type === 'FunctionDef') {
            functions.push(serialize({ type: 'Script', statements: [{ ...st, background: false }] }));
          }
          if (st.background && !inSubstitution) {
            const job = [...functions, serialize({ type: 'Script', statements: [{ ...st, background: false }] })].join('\n');
            node[i] = statementOf(`${JOB_COMMAND} ${ownerPid()} ${quoteArg(job)}`);
            changed = true;
            return;
          }
        }
        visit(item, inSubstitution);
      });
      return;
    }
    if (!isNode(node)) return;
    if (node.type === 'CommandSubstitution' || node.type === 'ProcessSubstitution') inSubstitution = true;
    if (node.type === 'SimpleCommand') {
      const cmd = node as unknown as SimpleCommandNode;
      const part = cmd.name?.parts.length === 1 ? cmd.name.parts[0] : undefined;
      if (part?.type === 'Literal' && (part.value === 'wait' || part.value === 'trap')) {
        part.value = part.value === 'wait' ? WAIT_COMMAND : TRAP_COMMAND;
        cmd.args.unshift({ type: 'Word', parts: [{ type: 'Literal', value: String(ownerPid()) }] });
        changed = true;
      }
    }
    if (node.type === 'ParameterExpansion' && node.parameter === '!' && node.operation === null) {
      // Braced with an empty default, so that text right after `$!` stays apart.
      node.parameter = LAST_JOB_VAR;
      node.operation = { type: 'DefaultValue', word: { type: 'Word', parts: [{ type: 'Literal', value: '' }] }, checkEmpty: false };
      changed = true;
    }
    for (const v of Object.values(node)) if (isNode(v)) visit(v, inSubstitution);
  };
  visit(ast.statements);
  return changed;
}

/** After every command of a list that runs in this shell: `__kubelab_trap_point $? || eval "$__kubelab_trap_eval"`. */
const trapPoint = statementTemplate(`${TRAP_POINT_COMMAND} $? || eval "$${TRAP_EVAL_VAR}"`);

function trapPointsIn(statements: StatementNode[]): void {
  for (let i = statements.length - 1; i >= 0; i--) {
    const st = statements[i]!;
    // A pipeline of several commands runs each in a subshell: a trap waits for all of it.
    if (st.pipelines.length === 1 && st.pipelines[0]!.commands.length === 1) trapPointsInCommand(st.pipelines[0]!.commands[0]!);
    statements.splice(i + 1, 0, trapPoint());
  }
}

function trapPointsInCommand(cmd: CommandNode): void {
  switch (cmd.type) {
    case 'If':
      for (const c of cmd.clauses) {
        trapPointsIn(c.condition);
        trapPointsIn(c.body);
      }
      if (cmd.elseBody) trapPointsIn(cmd.elseBody);
      return;
    case 'While':
    case 'Until':
      trapPointsIn(cmd.condition);
      trapPointsIn(cmd.body);
      return;
    case 'For':
    case 'CStyleFor':
    case 'Group':
      trapPointsIn(cmd.body);
      return;
    case 'Case':
      for (const item of cmd.items) trapPointsIn(item.body);
      return;
    case 'FunctionDef':
      trapPointsInCommand(cmd.body);
      return;
    default:
      // Subshells run in a process of their own; simple commands are the points' neighbours.
      return;
  }
}

/**
 * A shell runs a trap for a signal that came during a foreground command once
 * that command is done (POSIX, dash, busybox ash): PID 1's script gets a trap
 * point after each command it runs itself (lists, loop and if conditions and
 * bodies, functions), which evals the due trap action in the shell, so that
 * `exit` ends it and variables it sets stay set, then puts `$?` back (with
 * `&& :`, so `set -e` sees no new failure). A `wait` is cut short instead (see
 * process.ts). Points run one command after a signal at the latest; within
 * an `a && b` list they come after the whole list.
 */
function insertTrapPoints(ast: ScriptNode): void {
  trapPointsIn(ast.statements);
}

/** Whether a command already opens one of the /proc/PID/fd/N files (streamed output): the filesystem checkpoints there. */
function opensProcFd(cmd: CommandNode): boolean {
  if (cmd.type === 'FunctionDef') return false;
  return cmd.redirections.some((r) => {
    const parts = (r.target as { parts?: { type: string; value?: string }[] }).parts;
    const p = parts?.length === 1 && parts[0]!.type === 'Literal' ? parts[0]!.value : undefined;
    return p !== undefined && (p === CHECKPOINT_PATH || /^\/proc\/\d+\/fd\/[12]$/.test(p));
  });
}

/** The command a statement list starts with: it runs whenever the list does. */
const firstCommand = (statements: StatementNode[]): CommandNode | undefined => statements[0]?.pipelines[0]?.commands[0];

/** Whether the list starts with a command that opens a /proc fd file (streamed output), where the filesystem checkpoints anyway. */
const startsWithCheckpoint = (statements: StatementNode[]): boolean => {
  const cmd = firstCommand(statements);
  return cmd !== undefined && opensProcFd(cmd);
};

/** `: 19>>CHECKPOINT_PATH`: a no-op command that opens the checkpoint path. */
const checkpointCommand = statementTemplate(`: ${CHECKPOINT_FD}>>${CHECKPOINT_PATH}`);

/** The list's first command gets a redirection to the checkpoint path: it leaves `$?` and the command's own fds as they were. */
function addCheckpoint(statements: StatementNode[]): void {
  const cmd = firstCommand(statements);
  if (cmd && cmd.type !== 'FunctionDef') cmd.redirections.unshift(redirect(CHECKPOINT_FD, CHECKPOINT_PATH));
  // Defining a function opens nothing: a no-op command goes first.
  else statements.unshift(checkpointCommand());
}

/**
 * Every pass of every loop opens the checkpoint path or a /proc fd file (see
 * cpu.ts), so that a busy loop hands the runtime's thread back now and then:
 * the first command of a for body, or of a while/until condition, gets a
 * redirection to it, unless that command or (while/until) the body's first
 * one already streams its output to a /proc fd file. Loops anywhere count:
 * functions, substitutions, subshells, pipelines. A second run changes nothing.
 */
export function insertCheckpoints(ast: ScriptNode): void {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isNode(node)) return;
    if (node.type === 'While' || node.type === 'Until') {
      const condition = node.condition as StatementNode[];
      if (!startsWithCheckpoint(condition) && !startsWithCheckpoint(node.body as StatementNode[])) addCheckpoint(condition);
    } else if (node.type === 'For' || node.type === 'CStyleFor') {
      const body = node.body as StatementNode[];
      if (!startsWithCheckpoint(body)) addCheckpoint(body);
    }
    for (const v of Object.values(node)) if (isNode(v)) visit(v);
  };
  visit(ast.statements);
}

/** Whether a script can set a trap in its own shell: only then does it need trap points (they cost a command each). */
export function canTrap(script: string): boolean {
  return /\b(trap|eval|source)\b|(^|[\s;&|({])\.\s/.test(script);
}

/**
 * The script rewritten for shell `pid`: output streamed to its fds (unless
 * `stream` is false), job control, trap points when `trapPoints`, and loop
 * checkpoints when `checkpoints` (text the shell evals, which no transform
 * plugin sees); unparsable scripts are returned as they are (the shell
 * reports the error).
 */
export function shellScript(script: string, pid: number, stream = true, trapPoints = false, checkpoints = false): string {
  try {
    const ast = parse(script);
    if (stream) streamStatements(ast.statements, pid);
    rewriteJobs(ast, () => pid);
    if (checkpoints) insertCheckpoints(ast);
    // Last, so that job texts and streaming leave the points alone.
    if (trapPoints) insertTrapPoints(ast);
    return serialize(ast);
  } catch {
    return script;
  }
}

/** The script rewritten to stream its output to the container log (PID 1's fds). */
export function streamingScript(script: string): string {
  return shellScript(script, 1);
}
