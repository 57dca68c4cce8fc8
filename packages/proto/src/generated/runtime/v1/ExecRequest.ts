// Original file: ../../proto/runtime/v1/api.proto


export interface ExecRequest {
  'containerId'?: (string);
  'cmd'?: (string)[];
  'tty'?: (boolean);
  'stdin'?: (boolean);
  'stdout'?: (boolean);
  'stderr'?: (boolean);
}

export interface ExecRequest__Output {
  'containerId': (string);
  'cmd': (string)[];
  'tty': (boolean);
  'stdin': (boolean);
  'stdout': (boolean);
  'stderr': (boolean);
}
