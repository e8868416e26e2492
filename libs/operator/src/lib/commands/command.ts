import type { INestApplicationContext } from '@nestjs/common';

/** One `gaia` command: its words, usage line, and the use case it maps its arguments to. */
export interface OperatorCommand {
  /** Leading words, e.g. ['users', 'list']. */
  words: string[];
  /** Arguments after the words, for the usage text. */
  args: string;
  summary: string;
  /** How many positional arguments it needs. */
  arity: number;
  run(app: INestApplicationContext, args: string[], flags: Record<string, string | true>): Promise<unknown>;
}
