#!/usr/bin/env node
// The `gregor` command: runs one broker in the foreground. A thin shell over startBroker.
// Exit status: 0 after a clean shutdown, 1 when the broker fails, 2 for a bad flag or config value.
// The usual command line is read without yargs (start-options.ts); help, version, --list-configs and
// anything unusual or wrong go to the yargs command (command.ts), loaded only then.
import { ConfigError } from '../config/index.js';
import { UsageError } from './config-sources.js';
import { runBroker } from './run-broker.js';
import { parseStartFast, toStartArguments, type StartOptions } from './start-options.js';

/** Exit status for a bad flag, file or config value (as command.ts exits for those yargs finds). */
const EXIT_USAGE = 2;

async function main(argv: string[]): Promise<void> {
  const start = (options: StartOptions) => runBroker(toStartArguments(options));
  const options = parseStartFast(argv);
  if (options !== null) return start(options);
  const { runCommand } = await import('./command.js');
  return runCommand(argv, start);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof UsageError) {
    process.stderr.write(`gregor: ${error.message}\n`);
    process.exit(EXIT_USAGE);
  }
  process.stderr.write(`gregor: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
