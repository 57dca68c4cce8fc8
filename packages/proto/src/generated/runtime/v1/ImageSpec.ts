// Original file: ../../proto/runtime/v1/api.proto


export interface ImageSpec {
  'image'?: (string);
  'annotations'?: ({[key: string]: string});
  'userSpecifiedImage'?: (string);
  'runtimeHandler'?: (string);
}

export interface ImageSpec__Output {
  'image': (string);
  'annotations': ({[key: string]: string});
  'userSpecifiedImage': (string);
  'runtimeHandler': (string);
}
