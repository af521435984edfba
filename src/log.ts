// The broker's logger: the part of pino's Logger the code uses, and a logger that loads pino only when a line
// is first written at an enabled level. A broker that logs nothing (a silent one inside a test suite, or one
// at warn while all is well) never initialises pino, its worker-thread transport and sonic-boom: ~0.7 MB of
// idle RSS (BENCHMARKS.md, "Idle RSS"). Any pino Logger is a Log too, so callers may pass their own.

import { createRequire } from 'node:module';
import type { Level, Logger } from 'pino';

export type LogLevel = Level | 'silent';

export interface LogFn {
  (message: string): void;
  (fields: object, message?: string): void;
}

export interface Log {
  trace: LogFn;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  fatal: LogFn;
  /** Lowest level written; a child without a level of its own follows its parent's. */
  level: string;
  child(bindings: Record<string, unknown>): Log;
}

const LEVEL_VALUES: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/**
 * pino, initialised on this first call. In the bundled command esbuild turns this require() into its own
 * on-demand initialiser of the bundled pino (an import statement would run pino at start-up); in the
 * unbundled modules, which have no require, node loads it from node_modules.
 */
function loadPino(): typeof import('pino') {
  return (typeof require === 'function' ? require('pino') : createRequire(import.meta.url)('pino')) as typeof import('pino');
}

/** A logger at `level` that calls `create` for its pino logger only when a line at an enabled level is written. */
export function deferredLog(level: LogLevel, create: (pinoModule: typeof import('pino')) => Logger = (p) => p.pino({ level })): Log {
  return new DeferredLog({ create: () => create(loadPino()) }, level);
}

/** A logger that writes nothing (the default of a broker started in-process without one). */
export function silentLog(): Log {
  return deferredLog('silent');
}

/** The root creates its pino logger; a child is its parent's pino child with its bindings. */
type Origin = { create: () => Logger } | { parent: DeferredLog; bindings: Record<string, unknown> };

class DeferredLog implements Log {
  private real: Logger | undefined;

  constructor(
    private readonly origin: Origin,
    /** Set on the root always; on a child only once given a level of its own. */
    private ownLevel: string | undefined,
  ) {}

  get level(): string {
    return this.ownLevel ?? ('parent' in this.origin ? this.origin.parent.level : 'silent');
  }

  set level(level: string) {
    if (!Object.hasOwn(LEVEL_VALUES, level)) throw new Error(`unknown log level ${level}`);
    this.ownLevel = level;
    if (this.real !== undefined) this.real.level = level;
  }

  child(bindings: Record<string, unknown>): Log {
    return new DeferredLog({ parent: this, bindings }, undefined);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  private write(level: Level, args: unknown[]): void {
    if (LEVEL_VALUES[level]! < LEVEL_VALUES[this.level]!) return;
    const real = this.materialize();
    (real[level] as (...a: unknown[]) => void).apply(real, args);
  }

  /** The pino logger behind this one, created with the ancestors' on first need. */
  private materialize(): Logger {
    if (this.real === undefined) {
      const origin = this.origin;
      this.real = 'parent' in origin ? origin.parent.materialize().child(origin.bindings) : origin.create();
      if (this.ownLevel !== undefined) this.real.level = this.ownLevel;
    }
    return this.real;
  }
}
