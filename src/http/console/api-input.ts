/**
 * What the console's JSON API reads from a request (query strings and JSON bodies), checked: a bad value is a
 * BadRequest, answered 400 with its one line.
 */
import type { BrowseFrom, MessageFilter } from './messages.js';
import type { ResetTarget } from './groups.js';

/** Bad input from the page: 400 with this line. */
export class BadRequest extends Error {}

export type Query = Record<string, string | undefined>;
export type Body = Record<string, unknown> | undefined;

export function intOf(value: unknown, what: string, min = 0): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new BadRequest(`${what} must be an integer of at least ${min}`);
  return n;
}

export function stringOf(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw new BadRequest(`${what} must be a non-empty string`);
  return value;
}

export function nullableString(value: unknown, what: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new BadRequest(`${what} must be a string or null`);
  return value;
}

export function stringRecord(value: unknown, what: string, nullable: boolean): Record<string, string | null> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BadRequest(`${what} must be an object`);
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string' && !(nullable && v === null)) throw new BadRequest(`${what}.${k} must be a string${nullable ? ' or null' : ''}`);
  }
  return value as Record<string, string | null>;
}

export function filterOf(query: Query): MessageFilter {
  const filter: { key?: string; value?: string; header?: string } = {};
  for (const field of ['key', 'value', 'header'] as const) if (query[field] !== undefined && query[field] !== '') filter[field] = query[field];
  return filter;
}

export function cursorOf(text: string | undefined): Record<number, number> | undefined {
  if (text === undefined || text === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BadRequest('cursor must be the JSON object a previous page returned as next');
  }
  const record = offsetsByPartition(parsed);
  if (record === undefined) throw new BadRequest('cursor must map partitions to offsets');
  return record;
}

export function offsetsByPartition(value: unknown): Record<number, number> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: Record<number, number> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!Number.isSafeInteger(Number(k)) || typeof v !== 'number' || !Number.isSafeInteger(v)) return undefined;
    out[Number(k)] = v;
  }
  return out;
}

export function browseFrom(query: Query): BrowseFrom {
  switch (query['from'] ?? 'newest') {
    case 'newest': {
      const before = cursorOf(query['cursor']);
      return before === undefined ? { kind: 'newest' } : { kind: 'newest', before };
    }
    case 'offset':
      return { kind: 'offset', offset: cursorOf(query['cursor']) ?? intOf(query['offset'], 'offset') };
    case 'timestamp': {
      const cursor = cursorOf(query['cursor']);
      return cursor !== undefined ? { kind: 'offset', offset: cursor } : { kind: 'timestamp', timestamp: intOf(query['timestamp'], 'timestamp') };
    }
    default:
      throw new BadRequest('from must be newest, offset or timestamp');
  }
}

export function resetTargetOf(body: Body): ResetTarget {
  switch (body?.['to']) {
    case 'earliest':
      return { to: 'earliest' };
    case 'latest':
      return { to: 'latest' };
    case 'offset':
      return { to: 'offset', offset: intOf(body['offset'], 'offset') };
    case 'timestamp':
      return { to: 'timestamp', timestamp: intOf(body['timestamp'], 'timestamp') };
    default:
      throw new BadRequest('to must be earliest, latest, offset or timestamp');
  }
}

