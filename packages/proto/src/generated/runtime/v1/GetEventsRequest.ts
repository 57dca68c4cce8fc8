// Original file: ../../proto/runtime/v1/api.proto


export interface GetEventsRequest {
}

export interface GetEventsRequest__Output {
}
