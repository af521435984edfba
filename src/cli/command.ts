// The `gregor` command line as yargs reads it: options, help, version and their errors. main.ts reads the
// usual command lines itself (start-options.ts) and loads this only for the rest.
import { readFileSync } from 'node:fs';
import yargs from 'yargs';
import { listConfigs } from './list-configs.js';
import { LOG_LEVELS } from './logger.js';
import { LOG_FORMATS, type StartOptions } from './start-options.js';

export const EXIT_USAGE = 2;

/** gregor's version from its package.json, found upwards from this file (dist/src/cli/; bundled, dist/ or a chunk in dist/gregor-chunks/). */
function packageVersion(): string {
  for (const up of ['../../../package.json', '../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'gregor') return pkg.version ?? 'unknown';
    } catch {
      // Not at this level: try the next.
    }
  }
  return 'unknown';
}

/** One line on stderr and exit status 2: a bad flag, file or config value. */
export function usageFailure(message: string): never {
  process.stderr.write(`gregor: ${message}\n`);
  process.exit(EXIT_USAGE);
}

const EPILOGUE = `Configuration uses Kafka's own server.properties keys (see --list-configs for every key,
its type, default and valid values). Sources, lowest precedence first:
  gregor's defaults < --config file < GREGOR_* environment < --override < shortcut flags
Environment variables are GREGOR_ followed by the key upper-cased with dots as underscores, e.g.
  GREGOR_LISTENERS=PLAINTEXT://0.0.0.0:9092  GREGOR_ADVERTISED_LISTENERS=PLAINTEXT://broker.example:9092
  GREGOR_LOG_DIRS=/var/lib/gregor  GREGOR_LOG_RETENTION_HOURS=24
An unknown key is a warning. A bad value exits with status 2 and one line naming the key and what it accepts.
SIGINT or SIGTERM shuts down cleanly (requests in flight answered, files closed); a second signal exits at once.
Exit status: 0 after a clean shutdown, 1 when the broker fails, 2 for a bad flag or config value.`;

/** Runs the command line through yargs; `start` gets the start options of an accepted one. */
export async function runCommand(argv: string[], start: (options: StartOptions) => Promise<void>): Promise<void> {
  await yargs(argv)
    .scriptName('gregor')
    .usage('$0 [start] [options]\n\nRuns a Kafka-compatible broker in the foreground (default: PLAINTEXT://localhost:9092, data under ./data).')
    .command(['start', '$0'], 'Run the broker in the foreground (the default command)', (y) => y
      .option('config', { alias: 'c', type: 'string', describe: 'Read settings from a server.properties file', requiresArg: true })
      .option('override', { alias: 'o', type: 'string', array: true, describe: 'Set one config key, as key=value (repeatable), like kafka-server-start --override', requiresArg: true })
      .option('port', { alias: 'p', type: 'string', describe: 'Listen on this port (0 = any free port); rewrites the first listener', requiresArg: true })
      .option('http-port', { type: 'string', describe: 'Serve HTTP (metrics, health, console) on this port (0 = any free port; default 8080); rewrites the first of gregor.http.listeners', requiresArg: true })
      .option('host', { type: 'string', describe: 'Listen on this host (empty or 0.0.0.0 = all interfaces); rewrites the first listener', requiresArg: true })
      .option('listeners', { type: 'string', describe: 'Shortcut for listeners=NAME://host:port,...', requiresArg: true })
      .option('advertised-listeners', { type: 'string', describe: 'Shortcut for advertised.listeners (what clients are told to connect to)', requiresArg: true })
      .option('data-dir', { alias: 'd', type: 'string', describe: 'Keep data in this directory (sets log.dirs)', requiresArg: true })
      .option('in-memory', { type: 'boolean', describe: 'Keep data in memory only, gone at exit (sets gregor.log.engine=memory)' })
      .option('log-level', { type: 'string', choices: LOG_LEVELS as string[], default: 'info', describe: 'Lowest level of log line written' })
      .option('log-format', { type: 'string', choices: LOG_FORMATS as string[], default: 'auto', describe: 'Log lines readable (pretty) or JSON; auto = pretty on a terminal' })
      .option('list-configs', { type: 'boolean', describe: 'Print every config key with type, default and valid values, then exit' })
      .example('$0', 'Start on localhost:9092 with data under ./data')
      .example('$0 --port 0 --in-memory', 'Start on a free port, keeping nothing on disk')
      .example('$0 -c server.properties --override num.partitions=3', 'Kafka settings from a file, one key overridden'),
    async (args) => {
      if (args['list-configs'] === true) {
        process.stdout.write(listConfigs());
        return;
      }
      await start({
        config: args.config,
        override: args.override,
        port: args.port,
        'http-port': args['http-port'],
        host: args.host,
        listeners: args.listeners,
        'advertised-listeners': args['advertised-listeners'],
        'data-dir': args['data-dir'],
        'in-memory': args['in-memory'],
        'log-level': args['log-level'],
        'log-format': args['log-format'],
      });
    })
    // Options keep their kebab-case names only, so an unknown one is reported once, as typed.
    .parserConfiguration({ 'camel-case-expansion': false })
    .strict()
    .help()
    .alias('help', 'h')
    .version(packageVersion())
    .alias('version', 'V')
    .epilogue(EPILOGUE)
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((message, error) => {
      // yargs reports some of its own findings (an option without its value) as a YError: a usage error too.
      // Anything else was thrown by the start handler and is the caller's to report.
      if (error !== undefined && error !== null && error.name !== 'YError') throw error;
      // yargs spreads some messages over lines; the command's errors are one line.
      usageFailure(`${(message ?? error?.message ?? '').replace(/\s*\n\s*/g, ' ')} (see gregor --help)`);
    })
    .parseAsync();
}

