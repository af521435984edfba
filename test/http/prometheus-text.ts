// Reads Prometheus' text exposition format into samples, and picks values out of it, for the metrics tests.

export interface ParsedSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseExposition(text: string): ParsedSample[] {
  const samples: ParsedSample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (match === null) throw new Error(`not a sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample with this name and exactly these labels; undefined when there is none. */
export function valueOf(samples: readonly ParsedSample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  const found = samples.filter((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === wanted);
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${wanted}`);
  return found[0]?.value;
}

/** Every sample of a metric, as `labels → value` lines sorted, for exact comparisons. */
export function seriesOf(samples: readonly ParsedSample[], name: string): string[] {
  return samples.filter((s) => s.name === name).map((s) => `${JSON.stringify(s.labels)} ${s.value}`).sort();
}
