// Kafka's text checkpoint files (recovery-point-offset-checkpoint, log-start-offset-checkpoint,
// leader-epoch-checkpoint): a version line, a count line, then one space-separated entry per line.
import { readTextIfExists, writeFileAtomic } from './atomic-file.js';

export const CHECKPOINT_VERSION = 0;

export async function writeCheckpoint(path: string, entries: ReadonlyArray<readonly (string | number)[]>): Promise<void> {
  const lines = [String(CHECKPOINT_VERSION), String(entries.length), ...entries.map((e) => e.join(' '))];
  await writeFileAtomic(path, lines.join('\n') + '\n');
}

/** The entries' fields, or undefined when the file is missing or malformed (callers then assume nothing). */
export async function readCheckpoint(path: string, fieldsPerEntry: number): Promise<string[][] | undefined> {
  const text = await readTextIfExists(path);
  if (text === undefined) return undefined;
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines[0]?.trim() !== String(CHECKPOINT_VERSION)) return undefined;
  const count = Number(lines[1]);
  if (!Number.isInteger(count) || count !== lines.length - 2) return undefined;
  const entries = lines.slice(2).map((l) => l.trim().split(/\s+/));
  return entries.every((e) => e.length === fieldsPerEntry) ? entries : undefined;
}

/** `<topic> <partition> <offset>` entries (recovery point, log start offset). */
export async function readOffsetCheckpoint(path: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [topic, partition, offset] of (await readCheckpoint(path, 3)) ?? []) {
    const p = Number(partition);
    const o = Number(offset);
    if (Number.isInteger(p) && Number.isSafeInteger(o)) out.set(`${topic}-${p}`, o);
  }
  return out;
}
