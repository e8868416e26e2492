import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { vi } from 'vitest';

/**
 * The platform's embedded mailbox (no SMTP_URL): every message is an .eml file in DATA_DIR/mailbox. The browser
 * runner passes the platform's DATA_DIR as GAIA_E2E_DATA_DIR.
 */
function mailboxDir(): string {
  const dir = process.env.GAIA_E2E_DATA_DIR;
  if (!dir) throw new Error('GAIA_E2E_DATA_DIR is not set: point it at the DATA_DIR of the platform under test (its mailbox folder holds the mail).');
  return join(dir, 'mailbox');
}

async function messages(): Promise<Array<{ to: string; subject: string; text: string }>> {
  let files: string[] = [];
  try {
    files = readdirSync(mailboxDir()).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (f) => {
      const m = await simpleParser(readFileSync(join(mailboxDir(), f)));
      const to = (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase())).join(',');
      return { to, subject: m.subject ?? '', text: m.text ?? '' };
    }),
  );
}

/** Waits for a message to `to` whose subject contains `subject`, and answers the link inside it. */
export async function mailboxLink(to: string, subject: string): Promise<string> {
  return vi.waitFor(
    async () => {
      const m = (await messages()).find((x) => x.to.split(',').includes(to.toLowerCase()) && x.subject.includes(subject));
      const link = m ? /https?:\/\/\S+/u.exec(m.text)?.[0] : undefined;
      if (!link) throw new Error(`no mail "${subject}" to ${to} in ${mailboxDir()} yet`);
      return link;
    },
    { timeout: 30_000, interval: 100 },
  );
}
