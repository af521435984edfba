// The reference Apache Kafka broker from node: a thin wrapper over install.sh / start.sh / stop.sh / restart.sh,
// so node tests, the compat runner and the wire capture drive exactly what a person drives from the shell.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { referenceDir } from '../lib/paths.js';

const run = promisify(execFile);

export interface ReferenceBrokerOptions {
  /** Client port on 127.0.0.1; the controller takes port + 1. Default 19092. */
  port?: number;
  /** Wipe the broker's data first. Default true: a test wants a broker of its own. */
  fresh?: boolean;
  /** Port the broker names in metadata, when a proxy sits in front of it. */
  advertisedPort?: number;
  /** Server properties added to (or overriding) the defaults, e.g. { 'auto.create.topics.enable': 'false' }. */
  settings?: Record<string, string>;
}

export interface ReferenceBroker {
  /** "127.0.0.1:<port>" */
  readonly bootstrap: string;
  readonly port: number;
  /** Stop and start again with the same settings; data and offsets survive. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export const DEFAULT_REFERENCE_PORT = 19092;

async function script(name: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(join(referenceDir, name), args, { maxBuffer: 4 * 1024 * 1024 });
    return stdout.trim();
  } catch (error) {
    const failure = error as { stderr?: string; message: string };
    throw new Error(`reference/${name} ${args.join(' ')} failed: ${failure.stderr?.trim() || failure.message}`);
  }
}

/** Installs Apache Kafka into the cache if it is not there yet (Maven Central; idempotent). */
export async function installReference(): Promise<void> {
  await script('install.sh', []);
}

export async function startReferenceBroker(options: ReferenceBrokerOptions = {}): Promise<ReferenceBroker> {
  const port = options.port ?? DEFAULT_REFERENCE_PORT;
  const args: string[] = [];
  if (options.fresh ?? true) args.push('--fresh');
  if (options.advertisedPort !== undefined) args.push('--advertised-port', String(options.advertisedPort));
  for (const [key, value] of Object.entries(options.settings ?? {})) args.push('--set', `${key}=${value}`);
  args.push(String(port));
  const bootstrap = await script('start.sh', args);
  return {
    bootstrap,
    port,
    restart: async () => {
      await script('restart.sh', [String(port)]);
    },
    stop: async () => {
      await script('stop.sh', [String(port)]);
    },
  };
}
