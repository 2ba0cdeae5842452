/** Time comes from an injected clock so that schedules and expiry can be tested exactly. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
