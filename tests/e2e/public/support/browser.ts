import type { Browser, Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { vi } from 'vitest';
import { baseUrl, openTrackedContext, SCREENSHOT_DIR, SCREENSHOT_JPEG_QUALITY, type OpenOptions, type TrackedPage } from '../../support/browser-common';

export { CHROMIUM_FLAGS, DESKTOP, MOBILE, SCREENSHOT_DIR, baseUrl, launchBrowser, type OpenOptions, type TrackedPage } from '../../support/browser-common';

export function openContext(browser: Browser, opts: OpenOptions = {}): Promise<TrackedPage> {
  return openTrackedContext(browser, opts);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = join(SCREENSHOT_DIR, `${name}.jpg`);
  await page.screenshot({ path: file, fullPage: true, type: 'jpeg', quality: SCREENSHOT_JPEG_QUALITY });
  return file;
}

export { seriousA11yViolations, type AxeViolation } from '../../support/a11y';

export interface PublicAgent {
  id: string;
  src_lang: string;
  tgt_lang: string;
}

/**
 * One public agent to translate with: GAIA_E2E_PUBLIC_AGENT_ID, else the newest public agent, else one this
 * suite creates through the public API (sign up, upload a small JSON file of pairs, wait for the task, publish).
 */
export async function findPublicAgent(): Promise<PublicAgent> {
  const res = await fetch(`${baseUrl()}/api/agents/public`);
  if (!res.ok) throw new Error(`GET /api/agents/public answered ${res.status}`);
  const { agents } = (await res.json()) as { agents: PublicAgent[] };
  const wanted = process.env.GAIA_E2E_PUBLIC_AGENT_ID;
  if (wanted) {
    const agent = agents.find((a) => a.id === wanted);
    if (!agent) throw new Error(`GAIA_E2E_PUBLIC_AGENT_ID=${wanted} is not a public agent of the platform under test.`);
    return agent;
  }
  return agents[0] ?? seedPublicAgent();
}

const SEED_PAIRS = [
  { source: 'Allinllachu kashanki', target: '¿Cómo estás?' },
  { source: 'Allinmi kashani', target: 'Estoy bien' },
  { source: 'Sulpayki', target: 'Gracias' },
  { source: 'Tupananchikkama', target: 'Hasta luego' },
  { source: 'Imataq sutiyki?', target: '¿Cómo te llamas?' },
  { source: 'Ñuqapa sutiymi Ana', target: 'Me llamo Ana' },
];

async function seedPublicAgent(): Promise<PublicAgent> {
  const base = baseUrl();
  const email = `web-e2e-${Date.now().toString(36)}@example.org`;
  const signUp = await fetch(`${base}/api/auth/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery staple', fullName: 'Web E2E' }),
  });
  if (!signUp.ok) throw new Error(`seeding a public agent: signup answered ${signUp.status} ${await signUp.text()}`);
  const cookies = signUp.headers.getSetCookie().map((c) => c.split(';')[0]);
  const cookie = cookies.join('; ');
  const csrf = cookies.find((c) => c.startsWith('gaia_csrf='))?.slice('gaia_csrf='.length) ?? '';
  const session = { cookie, 'X-CSRF-Token': csrf };

  const form = new FormData();
  form.set('src_lang', 'quechua');
  form.set('tgt_lang', 'spanish');
  form.set('custom_prompt', 'Quechua → Spanish (web e2e)');
  form.set('core_memory', '');
  form.append('files', new Blob([JSON.stringify(SEED_PAIRS)], { type: 'application/json' }), 'quechua-spanish.json');
  const upload = await fetch(`${base}/api/documents/process/`, { method: 'POST', headers: session, body: form });
  if (!upload.ok) throw new Error(`seeding a public agent: documents/process answered ${upload.status} ${await upload.text()}`);
  const { task_id, model_id } = (await upload.json()) as { task_id: string; model_id: string };

  let failure: string | null = null;
  await vi.waitFor(
    async () => {
      const status = await fetch(`${base}/api/documents/status?task_id=${encodeURIComponent(task_id)}`, { headers: { cookie } });
      const { task } = (await status.json()) as { task: { status: string; message: string } };
      if (task.status === 'FAILED') failure = task.message;
      else if (task.status !== 'COMPLETED') throw new Error(`task ${task_id} is ${task.status}`);
    },
    { timeout: 60_000, interval: 250 },
  );
  if (failure) throw new Error(`seeding a public agent: processing failed: ${failure}`);

  const publish = await fetch(`${base}/api/agents/${encodeURIComponent(model_id)}/visibility`, {
    method: 'POST',
    headers: { ...session, 'Content-Type': 'application/json' },
    body: JSON.stringify({ public: true }),
  });
  if (!publish.ok) throw new Error(`seeding a public agent: visibility answered ${publish.status} ${await publish.text()}`);
  return (await publish.json()) as PublicAgent;
}
