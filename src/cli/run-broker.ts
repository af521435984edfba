// Start-up and shutdown of the broker for the command: settings → config → startBroker, one
// start-up line, then SIGINT/SIGTERM close it cleanly (a second signal exits at once). Nothing on
// stdout or stderr can hold up an exit: a closed pipe only ends the log (log-output.ts).
import { httpUrl, type BrokerConfig } from '../config/index.js';
import type { Log, LogLevel } from '../log.js';
import type { Broker } from '../server/broker.js';
import { resolveSettings, type Shortcuts } from './config-sources.js';
import { ignoreStderrErrors, streamLogOutput, type LogOutput } from './log-output.js';
import { createLogger, type LogFormat } from './logger.js';

export interface StartArguments {
  configFile: string | undefined;
  overrides: readonly string[];
  shortcuts: Shortcuts;
  logLevel: LogLevel;
  logFormat: LogFormat;
}

/** Exit status when the broker fails to start or to stop, or a second signal cuts shutdown short. */
const EXIT_FAILURE = 1;

/** Resolves the configuration (throwing ConfigError/UsageError), starts the broker and waits for a signal. */
export async function runBroker(args: StartArguments): Promise<void> {
  ignoreStderrErrors();
  const output = streamLogOutput(process.stdout);
  const logger = await createLogger(output, { level: args.logLevel, format: args.logFormat });
  const warn = (msg: string) => logger.warn(msg);
  const config = resolveSettings(
    { configFile: args.configFile, env: process.env, overrides: args.overrides, shortcuts: args.shortcuts },
    warn,
  );

  // Loaded only now, so --help and config errors answer without loading the server.
  const [{ startBroker }, { httpServer }] = await Promise.all([import('../server/broker.js'), import('../http/lazy-start.js')]);
  let broker: Broker;
  try {
    // The broker's start-up lines (log dirs loaded, recovery) come before the command's own start-up line.
    broker = await startBroker(config, { logger, logStarted: false, httpServer });
  } catch (error) {
    logger.fatal(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
    return exitAfterLogs(output, EXIT_FAILURE);
  }
  // Before the start-up line: whoever waits for that line to signal the broker must find it listening.
  closeOnSignals(logger, output, broker);
  logStarted(logger, config, broker);
}

function hostPort(address: { host: string; port: number }): string {
  return address.host.includes(':') ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
}

function logStarted(logger: Log, config: BrokerConfig, broker: Broker): void {
  // performance.now() counts from process start, so this is the whole start-up as a user sees it.
  const startupMs = Math.round(performance.now());
  const addresses = broker.addresses.map(hostPort);
  const http = broker.httpAddresses.map(httpUrl);
  const inMemory = config['gregor.log.engine'] === 'memory';
  const storage = inMemory ? 'data in memory' : `data in ${config['log.dirs'].join(',')}`;
  logger.info(
    {
      addresses,
      advertisedListeners: config['advertised.listeners'],
      nodeId: config['node.id'],
      clusterId: broker.clusterId,
      engine: config['gregor.log.engine'],
      // The memory engine uses no directory: it claims none.
      ...(inMemory ? {} : { logDirs: config['log.dirs'] }),
      ...(http.length === 0 ? {} : { http }),
      startupMs,
    },
    `gregor listening on ${addresses.join(', ')} (node ${config['node.id']}, cluster ${broker.clusterId}, ${storage}), ` +
      `started in ${startupMs} ms${http.length === 0 ? '' : `; console, metrics and health on ${http.join(', ')}`}`,
  );
}

/** Exits once the lines logged so far are written (or cannot be): a second signal does not wait for them. */
async function exitAfterLogs(output: LogOutput, code: number): Promise<never> {
  await output.flushed();
  process.exit(code);
}

function closeOnSignals(logger: Log, output: LogOutput, broker: Broker): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(`${signal} again: exiting without waiting for shutdown`);
      process.exit(EXIT_FAILURE);
    }
    stopping = true;
    logger.info(`${signal} received: shutting down`);
    broker.close().then(
      () => {
        logger.info('gregor stopped');
        return exitAfterLogs(output, 0);
      },
      (error: unknown) => {
        logger.error(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        return exitAfterLogs(output, EXIT_FAILURE);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
