// policy/v1 Eviction: the body of the pods/eviction subresource.
import type { DeleteOptions, KubeObject, ObjectMeta } from '../../meta/types.js';

export interface Eviction extends KubeObject {
  apiVersion?: 'policy/v1';
  kind?: 'Eviction';
  metadata: ObjectMeta;
  deleteOptions?: DeleteOptions;
}
