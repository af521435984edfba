// Apache Kafka's stock command-line tools (compat-tests/bin launchers over the reference install's jars).
import { join } from 'node:path';
import { describeFailure, runCommand } from './command.js';
import { binDir } from './paths.js';

/** Runs bin/<name> and returns its stdout; throws with its last stderr lines if it exits non-zero. */
export async function tool(name: string, args: string[], input?: string): Promise<string> {
  const result = await runCommand(join(binDir, name), args, input === undefined ? {} : { input });
  if (result.code !== 0) throw new Error(describeFailure(`${name} ${args.join(' ')}`, result));
  return result.stdout;
}

/**
 * kafka-consumer-groups --reset-offsets for one topic of a group (the group must have no members), returning
 * "partition:new-offset" pairs from the tool's table.
 */
export async function resetGroupOffsets(bootstrap: string, group: string, topic: string, how: string[]): Promise<string[]> {
  const output = await tool('kafka-consumer-groups', [
    '--bootstrap-server', bootstrap, '--group', group, '--topic', topic, '--reset-offsets', ...how, '--execute',
  ]);
  return output
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[0] === group && fields[1] === topic)
    .map((fields) => `${fields[2]}:${fields[3]}`);
}
