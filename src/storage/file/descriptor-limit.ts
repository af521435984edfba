// How many file descriptors this process may hold (RLIMIT_NOFILE's soft limit), and how many of them segment
// files may keep open. Node has no getrlimit: Linux shows the limit in /proc/self/limits (no child process, no
// native addon); elsewhere a shell inherits our limits and prints them with `ulimit -n`. Both read the limit as it
// is after Node's start-up, which raises the soft limit to the hard one.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Segment files may hold half the limit, short-lived files (checkpoints, indexes written or read whole) an eighth;
 * the rest is for connections and Node's own (about 25 at start-up).
 */
const SEGMENT_SHARE = 0.5;
const SHORT_LIVED_SHARE = 0.125;
/** Below these a broker could not work on a few partitions at once. */
const MIN_SEGMENT_FILES = 8;
const MIN_SHORT_LIVED_FILES = 4;

/** The soft limit on open descriptors, Infinity when unlimited or unknown. */
export function descriptorLimit(): number {
  return fromProcLimits() ?? fromShell() ?? Infinity;
}

/** How many segment files the process keeps open at most, and short-lived files at once (see segment-file-pool.ts). */
export function fileBudget(limit = descriptorLimit()): { segments: number; shortLived: number } {
  if (!Number.isFinite(limit)) return { segments: Infinity, shortLived: Infinity };
  return {
    segments: Math.max(MIN_SEGMENT_FILES, Math.floor(limit * SEGMENT_SHARE)),
    shortLived: Math.max(MIN_SHORT_LIVED_FILES, Math.floor(limit * SHORT_LIVED_SHARE)),
  };
}

/** `Max open files  <soft>  <hard>  files`. */
function fromProcLimits(): number | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
  const match = /^Max open files\s+(\S+)/m.exec(text);
  return match === null ? undefined : parseLimit(match[1]!);
}

function fromShell(): number | undefined {
  const result = spawnSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return result.status === 0 ? parseLimit(result.stdout.trim()) : undefined;
}

function parseLimit(text: string): number | undefined {
  if (text === 'unlimited') return Infinity;
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
