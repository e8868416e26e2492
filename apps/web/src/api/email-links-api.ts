import { apiJson } from './http';
import type { TeamMemberDto } from '@gaia/contracts';

/** Links mailed by the platform: email verification and team invitations (single-use tokens). */
export const verifyEmail = (token: string) => apiJson<{ verified: true; email: string }>('/api/auth/verify-email', { method: 'POST', body: { token } });
export const resendVerification = () => apiJson<{ success: true }>('/api/auth/verify-email/resend', { method: 'POST' });
export const acceptInvitation = (token: string) => apiJson<TeamMemberDto>('/api/team/invitations/accept', { method: 'POST', body: { token } });
