/**
 * Every HTTP operation the client calls (method + OpenAPI path). The client's methods go through this
 * table, and a test checks it against docs/openapi.json both ways.
 */
export const ROUTES = {
  health: { method: 'GET', path: '/healthz' },
  ready: { method: 'GET', path: '/readyz' },
  publicConfig: { method: 'GET', path: '/api/public/config' },
  signUp: { method: 'POST', path: '/api/auth/signup' },
  signIn: { method: 'POST', path: '/api/auth/signin' },
  signOut: { method: 'POST', path: '/api/auth/signout' },
  me: { method: 'GET', path: '/api/auth/me' },
  session: { method: 'GET', path: '/api/auth/session' },
  verifyEmail: { method: 'POST', path: '/api/auth/verify-email' },
  resendVerificationEmail: { method: 'POST', path: '/api/auth/verify-email/resend' },
  account: { method: 'GET', path: '/api/account' },
  updateAccount: { method: 'PATCH', path: '/api/account' },
  deleteAccount: { method: 'POST', path: '/api/account/delete' },
  exportAccount: { method: 'GET', path: '/api/account/export' },
  requestPlan: { method: 'POST', path: '/api/plans/request' },
  listPublicAgents: { method: 'GET', path: '/api/agents/public' },
  listMyAgents: { method: 'GET', path: '/api/agents/mine' },
  getAgent: { method: 'GET', path: '/api/agents/{id}' },
  updateAgent: { method: 'PATCH', path: '/api/agents/{id}' },
  setAgentVisibility: { method: 'POST', path: '/api/agents/{id}/visibility' },
  deleteAgent: { method: 'POST', path: '/api/delete-model' },
  listPublicCorpora: { method: 'GET', path: '/api/corpora' },
  importPublicCorpus: { method: 'POST', path: '/api/corpora/import' },
  processDocuments: { method: 'POST', path: '/api/documents/process' },
  documentStatus: { method: 'GET', path: '/api/documents/status' },
  updateAgentData: { method: 'POST', path: '/api/update-model' },
  downloadDataset: { method: 'GET', path: '/api/models/download' },
  createApiKey: { method: 'POST', path: '/api/api-keys/create' },
  listApiKeys: { method: 'GET', path: '/api/api-keys/list' },
  revokeApiKey: { method: 'POST', path: '/api/api-keys/revoke' },
  apiKeyUsage: { method: 'GET', path: '/api/api-keys/usage' },
  usageSummary: { method: 'GET', path: '/api/usage/summary' },
  listTeam: { method: 'GET', path: '/api/team' },
  inviteTeamMember: { method: 'POST', path: '/api/team/members' },
  removeTeamMember: { method: 'DELETE', path: '/api/team/members/{id}' },
  acceptTeamInvitation: { method: 'POST', path: '/api/team/invitations/accept' },
  translate: { method: 'POST', path: '/api/translate' },
  translateBatch: { method: 'POST', path: '/api/translate/batch' },
  translateFile: { method: 'POST', path: '/api/translate/file' },
  translateFileStatus: { method: 'GET', path: '/api/translate/file/status' },
  downloadTranslatedFile: { method: 'GET', path: '/api/translate/file/download' },
  listCorrections: { method: 'GET', path: '/api/agents/{id}/corrections' },
  addCorrection: { method: 'POST', path: '/api/agents/{id}/corrections' },
  undoCorrection: { method: 'DELETE', path: '/api/agents/{id}/corrections/{correctionId}' },
  listGlossary: { method: 'GET', path: '/api/agents/{id}/glossary' },
  addGlossaryTerm: { method: 'POST', path: '/api/agents/{id}/glossary' },
  importGlossary: { method: 'POST', path: '/api/agents/{id}/glossary/import' },
  updateGlossaryTerm: { method: 'PUT', path: '/api/agents/{id}/glossary/{termId}' },
  deleteGlossaryTerm: { method: 'DELETE', path: '/api/agents/{id}/glossary/{termId}' },
} as const satisfies Record<string, Route>;

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export interface Route {
  method: HttpMethod;
  path: string;
}

/** Operations of the document the client leaves out on purpose: browser redirects of the OIDC sign-in. */
export const BROWSER_ONLY_OPERATIONS = ['GET /api/auth/oidc/start', 'GET /api/auth/oidc/callback'] as const;
