// Original file: ../../proto/runtime/v1/api.proto


export interface RemovePodSandboxResponse {
}

export interface RemovePodSandboxResponse__Output {
}
