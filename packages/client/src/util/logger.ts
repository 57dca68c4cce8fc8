// The logging surface this library needs; component-base's Logger fits it,
// so components pass their own and lines carry their component and node.

export interface ClientLogger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Quiet unless something goes wrong: warnings and errors reach stderr. */
export const defaultLogger: ClientLogger = {
  debug() {},
  info() {},
  warn: (msg, fields) => process.stderr.write(`W kubelab/client ${msg} ${fields ? JSON.stringify(fields, errorReplacer) : ''}\n`),
  error: (msg, fields) => process.stderr.write(`E kubelab/client ${msg} ${fields ? JSON.stringify(fields, errorReplacer) : ''}\n`),
};

export const silentLogger: ClientLogger = { debug() {}, info() {}, warn() {}, error() {} };

function errorReplacer(_k: string, v: unknown): unknown {
  return v instanceof Error ? v.message : v;
}
