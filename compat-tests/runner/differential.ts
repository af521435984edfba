// Differential mode: the deterministic results a reference run observed (offsets, error codes, reported configs,
// group states) are kept in a committed file; a gregor run compares its own with them and each difference fails
// the cell. `--reference --record` rewrites the cells that run; `--differential` compares.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { Result } from './matrix.js';

export interface Recorded {
  /** The Kafka version that produced the observations. */
  kafka: string;
  /** "<client>/<scenario>" → key → value. */
  cells: Record<string, Record<string, unknown>>;
}

const cellKey = (result: Pick<Result, 'client' | 'scenario'>): string => `${result.client}/${result.scenario}`;

export function loadRecorded(file: string): Recorded | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as Recorded;
}

/** Merges a reference run's passing cells into the file (cells not run keep what they had). */
export function record(file: string, kafka: string, results: readonly Result[]): number {
  const recorded = loadRecorded(file) ?? { kafka, cells: {} };
  recorded.kafka = kafka;
  let written = 0;
  for (const result of results) {
    if (result.outcome.status !== 'pass') continue;
    const observations = result.observations ?? {};
    if (Object.keys(observations).length === 0) delete recorded.cells[cellKey(result)];
    else {
      recorded.cells[cellKey(result)] = observations;
      written += 1;
    }
  }
  const sorted = Object.fromEntries(Object.entries(recorded.cells).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(file, `${JSON.stringify({ kafka: recorded.kafka, cells: sorted }, null, 2)}\n`);
  return written;
}

function show(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/** What gregor observed differently from Kafka in one cell, one line per key (excused keys left out). */
export function differences(recorded: Recorded, result: Result): string[] {
  const kafka = recorded.cells[cellKey(result)];
  if (kafka === undefined) return [];
  const gregor = result.observations ?? {};
  const excused = result.excused ?? {};
  const keys = [...new Set([...Object.keys(kafka), ...Object.keys(gregor)])].sort();
  return keys
    .filter((key) => excused[key] === undefined && !isDeepStrictEqual(kafka[key], gregor[key]))
    .map((key) => `${key}: Kafka ${show(kafka[key])}, gregor ${show(gregor[key])}`);
}

/** A passing cell whose observations differ from Kafka's becomes a failure naming the differences. */
export function applyDifferential(result: Result, recorded: Recorded): Result {
  if (result.outcome.status !== 'pass') return result;
  const found = differences(recorded, result);
  if (found.length === 0) return result;
  return { ...result, outcome: { status: 'fail', reason: `differs from Kafka ${recorded.kafka}: ${found.join('; ')}` } };
}
