// Original file: ../../proto/runtime/v1/api.proto


export interface ListPodSandboxMetricsRequest {
}

export interface ListPodSandboxMetricsRequest__Output {
}
