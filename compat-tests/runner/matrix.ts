// Prints the scenario × client matrix, the reasons behind each fail and skip, and the closing count line.
import type { Outcome } from './types.js';

export interface Result {
  client: string;
  scenario: string;
  outcome: Outcome;
  /** Deterministic results the scenario recorded (differential mode). */
  observations?: Record<string, unknown>;
  /** Observation keys the differential mode does not compare, with the reason (ScenarioContext.excuse). */
  excused?: Record<string, string>;
  /** Said under the matrix next to the cell (e.g. a pending entry that can go). */
  note?: string;
  /** For a pending cell: the failure it showed, kept for the log. */
  pendingFailure?: string;
}

export interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

export function tally(results: readonly Result[]): Tally {
  const count = (status: Outcome['status']): number => results.filter((r) => r.outcome.status === status).length;
  return { passed: count('pass'), failed: count('fail'), skipped: count('skip') };
}

/** Scenarios down, clients across: there are more scenarios than clients. */
export function formatMatrix(results: readonly Result[], title: string): string {
  const clients = [...new Set(results.map((r) => r.client))];
  const scenarios = [...new Set(results.map((r) => r.scenario))];
  const notes: string[] = [];
  const cell = (client: string, scenario: string): string => {
    const result = results.find((r) => r.client === client && r.scenario === scenario);
    if (result === undefined) return '';
    const { outcome } = result;
    const detail = outcome.status === 'pass' ? result.note : `${outcome.status}: ${outcome.reason}`;
    if (detail === undefined) return 'pass';
    notes.push(`(${notes.length + 1}) ${client} / ${scenario}: ${detail}`);
    const label = outcome.status === 'fail' ? 'FAIL' : outcome.status === 'skip' && outcome.reason.startsWith('pending: ') ? 'pending' : outcome.status;
    return `${label} (${notes.length})`;
  };
  const header = ['scenario \\ client', ...clients];
  const rows = scenarios.map((scenario) => [scenario, ...clients.map((client) => cell(client, scenario))]);
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => (row[column] ?? '').length)));
  const line = (row: string[]): string => row.map((text, column) => text.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  const { passed, failed, skipped } = tally(results);
  return [
    title,
    '',
    line(header),
    ...rows.map(line),
    '',
    ...notes,
    ...(notes.length > 0 ? [''] : []),
    `${passed} passed, ${failed} failed, ${skipped} skipped`,
  ].join('\n');
}
