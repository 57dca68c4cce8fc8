// The problem daemon's vocabulary (upstream pkg/types): conditions, events
// and the status a monitor reports to the exporters.

export type ConditionStatus = 'True' | 'False' | 'Unknown';
/** An event's severity; `warn` becomes a Warning event, `info` a Normal one. */
export type Severity = 'info' | 'warn';
/** `temporary` rules make events, `permanent` rules set a node condition. */
export type RuleType = 'temporary' | 'permanent';

export interface Condition {
  type: string;
  status: ConditionStatus;
  /** Last transition, ms since the epoch. */
  transition: number;
  reason: string;
  message: string;
}

/** A condition as a monitor's config lists it: its reason and message while the problem is absent. */
export interface DefaultCondition {
  type: string;
  reason: string;
  message: string;
}

export interface ProblemEvent {
  severity: Severity;
  /** ms since the epoch. */
  timestamp: number;
  reason: string;
  message: string;
}

/** What a monitor reports: its source (the event's source component), new events, and all its conditions. */
export interface Status {
  source: string;
  events: ProblemEvent[];
  conditions: Condition[];
}

/** One log line as a monitor sees it (upstream systemlogmonitor/types.Log). */
export interface LogLine {
  timestamp: number;
  message: string;
}

/** A problem daemon (upstream types.Monitor): reports its initial status, then every change. */
export interface Monitor {
  start(report: (status: Status) => void): void;
  stop(): Promise<void>;
}
