// Original file: ../../proto/runtime/v1/api.proto


export interface RuntimeConfigRequest {
}

export interface RuntimeConfigRequest__Output {
}
