#!/usr/bin/env node
import { runGaiaTranslate } from './gaia-translate';

/** The `gaia-translate` executable: process I/O around runGaiaTranslate. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

void runGaiaTranslate({
  argv: process.argv.slice(2),
  env: process.env,
  stdin: readStdin,
  stdout: (c) => process.stdout.write(c),
  stderr: (c) => process.stderr.write(c),
  stderrIsTty: Boolean(process.stderr.isTTY),
}).then((code) => {
  process.exitCode = code;
});
