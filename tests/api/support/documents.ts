import type { User } from './api-app';

export interface UploadFields {
  src_lang: string;
  tgt_lang: string;
  custom_prompt: string;
  core_memory?: string;
  /** Sent as a browser sends it (the server ignores it: the caller is the session). */
  uid?: string;
}

/**
 * POST /api/documents/process/ as the signed-in `user` (CSRF token set): the form fields, then one `files` part per
 * file. Answers the request, so the caller says what it expects (`.expect(200)`, `.expect(400)`).
 */
export function uploadDocuments(user: User, fields: UploadFields, files: Array<{ name: string; data: string | Buffer }>) {
  let req = user.agent.post('/api/documents/process/').set('X-CSRF-Token', user.csrf);
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) req = req.field(name, value);
  for (const f of files) req = req.attach('files', Buffer.isBuffer(f.data) ? f.data : Buffer.from(f.data), f.name);
  return req;
}
