// Original file: ../../proto/runtime/v1/api.proto


export interface UpdateRuntimeConfigResponse {
}

export interface UpdateRuntimeConfigResponse__Output {
}
