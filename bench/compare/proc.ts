// What the kernel knows about a broker process (Linux /proc): resident memory, CPU time, start time.
// Read the same way for gregor (node) and Kafka (the JVM), so the two are measured alike.
import { readFileSync, writeFileSync } from 'node:fs';

/** USER_HZ: /proc reports CPU times and start times in these ticks (100 on every mainstream Linux). */
const TICKS_PER_SECOND = 100;

function statusField(pid: number, name: string): number {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
  if (match === null) throw new Error(`/proc/${pid}/status has no ${name}`);
  return Number(match[1]) * 1024;
}

/** Resident set size now, in bytes. */
export function rssBytes(pid: number): number {
  return statusField(pid, 'VmRSS');
}

/** Peak resident set size since start or since the last resetPeakRss, in bytes (VmHWM: no sampling to miss it). */
export function peakRssBytes(pid: number): number {
  return statusField(pid, 'VmHWM');
}

/** Starts VmHWM again from the current RSS (clear_refs "5", Linux 4.0+); false where the kernel refuses. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** The fields of /proc/<pid>/stat after the command name (which may itself hold spaces and parentheses). */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).trim().split(' ');
}

function stat(pid: number): string[] {
  return statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** User plus system CPU time of the process (all its threads), in seconds. */
export function cpuSeconds(pid: number): number {
  const fields = stat(pid);
  // utime and stime are fields 14 and 15 of stat(5); fields[0] here is field 3.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** When the process started, in seconds since boot (10 ms resolution). */
export function startedAtSinceBoot(pid: number): number {
  return Number(stat(pid)[19]) / TICKS_PER_SECOND;
}

/** Seconds since boot now, on the same clock as startedAtSinceBoot. */
export function uptimeSeconds(): number {
  return Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
}

/** Running (a zombie, exited but not yet reaped, counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return stat(pid)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Samples RSS every intervalMs until stopped; returns the highest value seen. */
export function sampleRss(pid: number, intervalMs = 100): { stop(): number } {
  let peak = 0;
  const take = () => {
    try {
      peak = Math.max(peak, rssBytes(pid));
    } catch {
      // The process ended between samples; the peak so far stands.
    }
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return peak;
    },
  };
}
