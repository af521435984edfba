// Producing and consuming with the console tools, as a person does from a shell.
import { tool } from '../../lib/tools.js';
import type { ScenarioContext } from '../../runner/types.js';

/** kafka-console-producer: one record per line ("key<TAB>value" when keyed), acks=all. */
export function consoleProduce(context: ScenarioContext, topic: string, lines: string[], extra: string[] = []): Promise<string> {
  const keyed = lines.some((line) => line.includes('\t'));
  return tool(
    'kafka-console-producer',
    ['--bootstrap-server', context.target.bootstrap, '--topic', topic, '--command-property', 'acks=all',
      ...(keyed ? ['--reader-property', 'parse.key=true'] : []), ...extra],
    lines.map((line) => `${line}\n`).join(''),
  );
}

/**
 * kafka-console-consumer printing "partition:offset:value" lines; stops after `count` records. With a group it
 * commits what it printed on the way out (max.poll.records=1 keeps the position at what it printed).
 */
export async function consoleConsume(context: ScenarioContext, topic: string, count: number, extra: string[]): Promise<string[]> {
  const output = await tool('kafka-console-consumer', [
    '--bootstrap-server', context.target.bootstrap, '--topic', topic, '--max-messages', String(count), '--timeout-ms', '60000',
    '--command-property', 'max.poll.records=1',
    '--formatter-property', 'print.partition=true', '--formatter-property', 'print.offset=true',
    '--formatter-property', 'print.value=true', ...extra,
  ]);
  // The default formatter prints "Partition:0\tOffset:3\tm3".
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^Partition:(\d+)\tOffset:(\d+)\t/, '$1:$2:'));
}

export function numberedLines(from: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `m${from + i}`);
}
