import { OperatorPlanUseCase } from '../plan.use-case';
import type { OperatorCommand } from './command';

export const planSetCommand: OperatorCommand = {
  words: ['plan', 'set'],
  args: '<email> free|starter|enterprise',
  summary: 'grants a plan (effective at once, prorated for the month)',
  arity: 2,
  run: (app, [email, plan]) => app.get(OperatorPlanUseCase).set(email, plan),
};

export const plansRequestsCommand: OperatorCommand = {
  words: ['plans', 'requests'],
  args: '[--all]',
  summary: 'paid-plan requests from Pricing, oldest first (grant one with plan set)',
  arity: 0,
  run: (app, _args, flags) => app.get(OperatorPlanUseCase).requests(flags['all'] === true),
};
