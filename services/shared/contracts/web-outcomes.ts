/**
 * The outcome of one web-channel attempt, as collector health counts it
 * (services/tasks/collectors/outcome.ts decides it). Pure data: the dashboard
 * bundles it.
 */
export const WEB_OUTCOMES = [
  'answered',
  'login_wall',
  'captcha',
  'rate_limited',
  'drift',
  'refused',
  'timeout',
  'error',
] as const;

export type WebOutcome = (typeof WEB_OUTCOMES)[number];

/** The account verdict a failed web attempt carries (contracts/accounts.ts), as its report names it. */
export type ReportedVerdict = 'needs_human' | 'cooling';
