// Helpers shared by the stock-tool scenarios: kafka-topics and its --describe output.
import { tool } from '../../lib/tools.js';
import type { ScenarioContext } from '../../runner/types.js';

export const topics = (context: ScenarioContext, ...args: string[]): Promise<string> =>
  tool('kafka-topics', ['--bootstrap-server', context.target.bootstrap, ...args]);

interface Described {
  summary: Record<string, string>;
  partitions: Record<string, string>[];
}

/** Parses kafka-topics --describe: tab-separated "Name: value" fields, the summary line then one line per partition. */
export function parseDescribe(output: string): Described {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  const fields = (line: string): Record<string, string> =>
    Object.fromEntries(
      line
        .trim()
        .split('\t')
        .map((field) => {
          const colon = field.indexOf(':');
          return [field.slice(0, colon).trim(), field.slice(colon + 1).trim()];
        }),
    );
  const [summary, ...partitions] = lines.map(fields);
  if (summary === undefined) throw new Error(`kafka-topics --describe printed nothing`);
  return { summary, partitions };
}

