// The broker's own small JSON state files (dynamic configs, finalized features): a versioned object, read strictly.

/** A reader's one-line failure: names the file, what is wrong, and what the file holds. */
export type StateFileFail = (problem: string) => never;

/**
 * The object in `text` once it is JSON of format `version`, with the fail function for the caller's own checks;
 * anything else throws a one-line Error naming `path` and saying to fix or remove the file (which holds `holds`).
 */
export function parseStateFile(text: string, path: string, version: number, holds: string): { record: Record<string, unknown>; fail: StateFileFail } {
  const fail: StateFileFail = (problem) => {
    throw new Error(`${path}: ${problem}; fix or remove the file (it holds ${holds})`);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail('not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail('expects a JSON object');
  const record = parsed as Record<string, unknown>;
  if (record['version'] !== version) return fail(`unsupported version ${JSON.stringify(record['version'])} (expects ${version})`);
  return { record, fail };
}
