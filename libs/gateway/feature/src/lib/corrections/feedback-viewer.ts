import { DomainError } from '@gaia/shared/kernel';
import { viewerOf, type Principal } from '../auth/principal';

/**
 * The person behind a feedback call: the signed-in user or the owner of a personal API key. The shared public
 * key belongs to nobody and cannot correct or edit an agent (403).
 */
export function feedbackViewer(p: Principal): { uid: string; email: string } {
  const v = viewerOf(p);
  if (!v) throw DomainError.forbidden('You do not have permission to modify this agent.', 'forbidden');
  return v;
}
