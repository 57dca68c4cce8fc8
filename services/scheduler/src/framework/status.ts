// framework.Status: what a plugin answers at an extension point — a code and
// the human-readable reasons that end up in the FailedScheduling summary.

/** Upstream's status codes (framework.Code), with the same meaning. */
export enum Code {
  Success = 0,
  /** Internal error: the pod is retried with backoff, nothing is reported per node. */
  Error = 1,
  /** The node does not fit now; preemption might help. */
  Unschedulable = 2,
  /** The node does not fit and preemption cannot change that. */
  UnschedulableAndUnresolvable = 3,
  /** Wait (Permit). */
  Wait = 4,
  /** This plugin has nothing to do for this pod (PreFilter/PreScore). */
  Skip = 5,
  /** The pod waits for something outside the scheduler. */
  Pending = 6,
}

const CODE_NAMES: Record<Code, string> = {
  [Code.Success]: 'Success',
  [Code.Error]: 'Error',
  [Code.Unschedulable]: 'Unschedulable',
  [Code.UnschedulableAndUnresolvable]: 'UnschedulableAndUnresolvable',
  [Code.Wait]: 'Wait',
  [Code.Skip]: 'Skip',
  [Code.Pending]: 'Pending',
};

export function codeName(code: Code): string {
  return CODE_NAMES[code];
}

export class Status {
  /** The plugin that produced this status (set by the framework runtime). */
  plugin = '';

  constructor(
    readonly code: Code,
    readonly reasons: readonly string[] = [],
    readonly error?: Error,
  ) {}

  isSuccess(): boolean {
    return this.code === Code.Success;
  }

  isSkip(): boolean {
    return this.code === Code.Skip;
  }

  /** Unschedulable, UnschedulableAndUnresolvable or Pending: a rejection, not a failure. */
  isRejected(): boolean {
    return this.code === Code.Unschedulable || this.code === Code.UnschedulableAndUnresolvable || this.code === Code.Pending;
  }

  /** Reasons joined as upstream's Status.Message(). */
  message(): string {
    return this.reasons.join(', ');
  }

  withPlugin(name: string): this {
    this.plugin = name;
    return this;
  }
}

/** The shared success status; plugins return it (or undefined) to say "fits". */
export const SUCCESS = new Status(Code.Success);

export function newStatus(code: Code, ...reasons: string[]): Status {
  return new Status(code, reasons);
}

/** An internal error as a status (upstream framework.AsStatus). */
export function asStatus(err: unknown): Status {
  const e = err instanceof Error ? err : new Error(String(err));
  return new Status(Code.Error, [e.message], e);
}

/** A missing status means success, as a nil *Status does upstream. */
export function isSuccess(s: Status | undefined | null): boolean {
  return !s || s.code === Code.Success;
}
