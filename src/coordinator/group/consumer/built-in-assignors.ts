/**
 * The server-side assignors gregor has, as Kafka 4.3.1's group.consumer.assignors default lists them (uniform, range:
 * the first is the group's default).
 */
import type { ConsumerGroupAssignor } from './assignor.js';
import { rangeAssignor } from './range-assignor.js';
import { uniformAssignor } from './uniform-assignor.js';

export const BUILT_IN_ASSIGNORS: readonly ConsumerGroupAssignor[] = [uniformAssignor, rangeAssignor];

export function builtInAssignor(name: string): ConsumerGroupAssignor | undefined {
  return BUILT_IN_ASSIGNORS.find((assignor) => assignor.name === name);
}
