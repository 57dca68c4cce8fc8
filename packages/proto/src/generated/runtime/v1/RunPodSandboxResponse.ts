// Original file: ../../proto/runtime/v1/api.proto


export interface RunPodSandboxResponse {
  'podSandboxId'?: (string);
}

export interface RunPodSandboxResponse__Output {
  'podSandboxId': (string);
}
