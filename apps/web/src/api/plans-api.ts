import type { PlanId, PlanRequestResponse } from '@gaia/contracts';
import { apiJson } from './http';

/** Pricing's Get Started: Free applies at once; Starter/Enterprise become a request the provider grants. */
export const requestPlan = (plan: PlanId) =>
  apiJson<PlanRequestResponse>('/api/plans/request', { method: 'POST', body: { plan } }, 'Failed to request the plan');
