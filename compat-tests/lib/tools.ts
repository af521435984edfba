// Apache Kafka's stock command-line tools (compat-tests/bin launchers over the reference install's jars).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { describeFailure, runCommand, type CommandResult } from './command.js';
import { binDir } from './paths.js';

/** Runs bin/<name> and returns its stdout; throws with its last stderr lines if it exits non-zero. */
export async function tool(name: string, args: string[], input?: string): Promise<string> {
  const result = await runCommand(join(binDir, name), args, input === undefined ? {} : { input });
  if (result.code !== 0) throw new Error(describeFailure(`${name} ${args.join(' ')}`, result));
  return result.stdout;
}

/** Runs bin/<name>, which must fail, and returns what it printed. */
export async function toolFails(name: string, args: string[], input?: string): Promise<CommandResult> {
  const result = await runCommand(join(binDir, name), args, input === undefined ? {} : { input });
  if (result.code === 0 && !/Exception|ERROR/.test(result.stderr)) {
    throw new Error(`${name} ${args.join(' ')} succeeded; Kafka refuses it`);
  }
  return result;
}

/** The Kafka exception a tool reported (e.g. "InvalidTopicException"), from its output. */
export function reportedException(result: CommandResult): string {
  const output = `${result.stderr}\n${result.stdout}`;
  const named = /org\.apache\.kafka\.common\.errors\.(\w+)/.exec(output) ?? /\b(\w+Exception)\b/.exec(output);
  return named?.[1] ?? `no exception named: ${output.trim().split('\n')[0] ?? ''}`;
}

/** Starts bin/<name> in the background (a long-running consumer); the caller stops or kills it. */
export function startTool(name: string, args: string[]): ChildProcess {
  return spawn(join(binDir, name), args, { stdio: ['ignore', 'ignore', 'ignore'], detached: false });
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

/** kafka-consumer-groups --describe --offsets: "partition:current-offset" per partition of the topic. */
export async function groupOffsets(bootstrap: string, group: string, topic: string): Promise<string[]> {
  const output = await tool('kafka-consumer-groups', ['--bootstrap-server', bootstrap, '--describe', '--group', group, '--offsets']);
  return output
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[0] === group && fields[1] === topic)
    .map((fields) => `${fields[2]}:${fields[3]}`)
    .sort();
}
