import type { PlanDto, PlanId, PlanRequestDto } from '@gaia/contracts';
import { apiJson } from './http';

export interface PlanRequestAnswer {
  status: 'active' | 'requested';
  plan: PlanDto;
  request: PlanRequestDto | null;
}

/** Pricing's Get Started: Free applies at once; Starter/Enterprise become a request the provider grants. */
export const requestPlan = (plan: PlanId) => apiJson<PlanRequestAnswer>('/api/plans/request', { method: 'POST', body: { plan } }, 'Failed to request the plan');
