/**
 * Leases on the wire: what the scheduler sends a crawler node
 * (`crawler.accept`) and how the node keeps them (`tasks.renewBatch`).
 */
import type { Channel } from '../platforms.js';

export interface LeaseMessage {
  subTaskId: string;
  taskId: string;
  token: string;
  expiresAt: number;
  leaseMs: number;
  platform: string;
  channel: Channel;
  mode: string;
  prompt: string;
  screenshot: 0 | 1 | 2;
  /**
   * Screenshot mode 2: the task's keyword entries (`Acme|阿克米`), highlighted
   * in the screenshot; absent (older schedulers, other modes): none.
   */
  keywords?: string[];
  regionCode: string | null;
  /** Proxy port of the previous attempt: the node picks another one of the region if it can. */
  avoidProxy: string | null;
  attempt: number;
  /** Web channel: the account the scheduler claimed for this sub task (contracts/accounts.ts). */
  account?: { id: string; proxyKey: string | null } | null;
}

/** `crawler.accept`: the leases of one dispatch pass for that node. */
export interface AcceptRequest {
  leases: LeaseMessage[];
}

/**
 * Per lease, in the order sent: taken, or refused and why. `cannotRun` marks
 * a refusal that will not change by waiting: the node has no driver for the
 * lease's platform and channel (as opposed to being full for a moment).
 */
export interface AcceptAnswer {
  results: { accepted: boolean; reason?: string; cannotRun?: boolean }[];
}

/** `tasks.renewBatch`: every lease a crawler node holds, renewed together. */
export interface RenewRequest {
  leases: { subTaskId: string; token: string }[];
}

/** Per lease, in the order asked: still held (false: stop, it belongs to someone else). */
export interface RenewAnswer {
  held: boolean[];
  expiresAt: number;
}
