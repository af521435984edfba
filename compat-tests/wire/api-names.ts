// Kafka's API names by key, for naming captured frames; the table is the generated codec's. Keys past it print as Api<key>.
import { ApiKey } from '../../src/protocol/generated/index.js';

const NAMES = new Map<number, string>(Object.entries(ApiKey).map(([name, key]) => [key, name]));

export function apiName(key: number): string {
  return NAMES.get(key) ?? `Api${key}`;
}
