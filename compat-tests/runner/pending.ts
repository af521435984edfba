// CI mode: cells expected to fail ON GREGOR because a named gregor feature has not landed (compat-tests/pending.json).
// A listed cell that fails reads "skip (pending: <reason>)"; a listed cell that passes stays a pass with a note that
// its entry can go; an unlisted failure stays a failure. Against the reference broker nothing is pending.
import { readFileSync } from 'node:fs';
import type { Result } from './matrix.js';
import { SECURITY_CELL_NAMES } from '../security/cells.js';
import { SCENARIOS } from './types.js';

export interface PendingEntry {
  /** A client name, or "*" for every client. */
  client: string;
  /** A scenario name, a security run's row ("sasl_ssl:produce-consume"), or "*" for every scenario. */
  scenario: string;
  /** Which gregor feature is missing and where it is tracked, e.g. "issue 5: transactions not built". */
  reason: string;
}

export function loadPending(file: string, clientNames: readonly string[]): PendingEntry[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { pending?: unknown };
  if (!Array.isArray(parsed.pending)) throw new Error(`${file}: no "pending" array`);
  return parsed.pending.map((raw: unknown, index) => {
    const entry = raw as Partial<PendingEntry>;
    const where = `${file}: pending[${index}]`;
    if (typeof entry.client !== 'string' || typeof entry.scenario !== 'string' || typeof entry.reason !== 'string' || entry.reason === '') {
      throw new Error(`${where}: needs string client, scenario and a reason`);
    }
    if (entry.client !== '*' && !clientNames.includes(entry.client)) throw new Error(`${where}: unknown client ${entry.client}`);
    if (entry.scenario !== '*' && !(SCENARIOS as readonly string[]).includes(entry.scenario) && !SECURITY_CELL_NAMES.includes(entry.scenario)) {
      throw new Error(`${where}: unknown scenario ${entry.scenario}`);
    }
    return { client: entry.client, scenario: entry.scenario, reason: entry.reason };
  });
}

function pendingFor(entries: readonly PendingEntry[], client: string, scenario: string): PendingEntry | undefined {
  return entries.find((e) => (e.client === '*' || e.client === client) && (e.scenario === '*' || e.scenario === scenario));
}

/** Applies the pending list to one gregor result. */
export function applyPending(result: Result, entries: readonly PendingEntry[]): Result {
  const entry = pendingFor(entries, result.client, result.scenario);
  if (entry === undefined) return result;
  if (result.outcome.status === 'fail') {
    return { ...result, outcome: { status: 'skip', reason: `pending: ${entry.reason}` }, pendingFailure: result.outcome.reason };
  }
  if (result.outcome.status === 'pass') {
    return { ...result, note: `passes now: its compat-tests/pending.json entry (${entry.reason}) can go` };
  }
  return result;
}
