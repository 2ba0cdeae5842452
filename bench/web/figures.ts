/**
 * The web benchmark's arithmetic, apart from any I/O: each answered sub task's
 * wall time on the crawler (lease to report) paired with its own chat call at
 * the replica, the driver's overhead (the difference), and memory per context.
 */
import type { CheckoutSeen, LeaseSeen, ReportSeen } from './nats-tap.js';

/** One request as the replica recorded it, with the account whose cookie it carried. */
export interface SiteRequest {
  accountId: string;
  /** Whether it is the site's chat call (the answer stream). */
  chat: boolean;
  at: number;
  /** How long the replica took to answer it; undefined if it never finished. */
  ms?: number;
}

export interface SubTaskTiming {
  subTaskId: string;
  /** Lease reached the crawler → its report left it. */
  wallMs: number;
  /** The replica's own time for the chat call of this attempt. */
  answerMs: number;
  overheadMs: number;
  /** Where the overhead goes: lease in → account checkout asked (the node's queue) ... */
  toCheckoutMs: number;
  /** ... → the page's first request at the site (checkout, navigation; a context for an account's first page) ... */
  toFirstRequestMs: number;
  /** ... → the chat call sent (page load, the site's script, typing) ... */
  toChatMs: number;
  /** ... and the chat call answered → report out (parse end, evidence, account release, report). */
  afterChatMs: number;
}

/**
 * Pairs every answered report with the lease it ends (the sub task's last one
 * before the report) and with the one chat call its account made in between
 * (an account runs one page at a time). Reports that cannot be paired are
 * counted, not guessed.
 */
export function timingsOf(
  leases: readonly LeaseSeen[],
  checkouts: readonly CheckoutSeen[],
  reports: readonly ReportSeen[],
  requests: readonly SiteRequest[],
): { timings: SubTaskTiming[]; unpaired: number } {
  const timings: SubTaskTiming[] = [];
  let unpaired = 0;
  for (const r of reports) {
    if (!r.answered) continue;
    const lease = leases
      .filter((l) => l.subTaskId === r.subTaskId && l.at <= r.at)
      .reduce<LeaseSeen | undefined>((a, b) => (a && a.at > b.at ? a : b), undefined);
    const mine = lease
      ? requests.filter((q) => q.accountId === lease.accountId && q.at >= lease.at && q.at <= r.at)
      : [];
    const chats = mine.filter((q) => q.chat && q.ms !== undefined);
    const checkout = lease
      ? checkouts.find((c) => c.subTaskId === r.subTaskId && c.at >= lease.at && c.at <= r.at)
      : undefined;
    if (!lease || !checkout || chats.length !== 1) {
      unpaired += 1;
      continue;
    }
    const chat = chats[0]!;
    const first = Math.min(...mine.map((q) => q.at));
    const wallMs = r.at - lease.at;
    const answerMs = chat.ms!;
    timings.push({
      subTaskId: r.subTaskId,
      wallMs,
      answerMs,
      overheadMs: wallMs - answerMs,
      toCheckoutMs: checkout.at - lease.at,
      toFirstRequestMs: first - checkout.at,
      toChatMs: chat.at - first,
      afterChatMs: r.at - (chat.at + answerMs),
    });
  }
  return { timings, unpaired };
}

export const ascending = (v: readonly number[]): number[] => [...v].sort((a, b) => a - b);

/** Memory added by each of `extra` pages: (with base + extra) minus (with base), per page. */
export function marginalPerPage(baseKb: number, moreKb: number, extra: number): number {
  return (moreKb - baseKb) / extra;
}

export const median = (v: readonly number[]): number => {
  const s = ascending(v);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
