/**
 * Watches the cluster's own request packets on NATS, as a plain extra
 * subscriber (the nodes and their messages untouched): when each lease
 * reached the crawler node (`crawler.accept`, with the lease's account) and
 * when it checked the lease's account out (`accounts.checkout`) and when the
 * node sent each sub task's report (`tasks.settleBatch`). The
 * difference is the sub task's wall time on the crawler, lease to result.
 * Moleculer's NATS transporter sends requests as JSON on
 * `MOL-<namespace>.REQ.<node>` (`REQB.<action>` when balancing is left to NATS).
 */
import { connect, type NatsConnection } from 'nats';

export interface LeaseSeen {
  subTaskId: string;
  accountId: string | null;
  /** Epoch ms the lease packet reached NATS on its way to the crawler node. */
  at: number;
}

/** The crawler node checking the lease's account out (`accounts.checkout`), its first step. */
export interface CheckoutSeen {
  subTaskId: string;
  at: number;
}

export interface ReportSeen {
  subTaskId: string;
  /** Whether the report carries an answer (a failure otherwise). */
  answered: boolean;
  at: number;
}

interface RequestPacket {
  action?: string;
  params?: {
    leases?: { subTaskId: string; account?: { id: string } | null }[];
    reports?: { subTaskId: string; result?: unknown }[];
    holder?: string;
  };
}

export interface NatsTap {
  leases: LeaseSeen[];
  checkouts: CheckoutSeen[];
  reports: ReportSeen[];
  close(): Promise<void>;
}

export async function tapRequests(natsUrl: string, namespace: string): Promise<NatsTap> {
  const nc: NatsConnection = await connect({ servers: natsUrl, name: 'bench-web-tap' });
  const leases: LeaseSeen[] = [];
  const checkouts: CheckoutSeen[] = [];
  const reports: ReportSeen[] = [];
  const decoder = new TextDecoder();
  const onPacket = (data: Uint8Array) => {
    const at = Date.now();
    let packet: RequestPacket;
    try {
      packet = JSON.parse(decoder.decode(data)) as RequestPacket;
    } catch {
      return;
    }
    if (packet.action === 'crawler.accept')
      for (const l of packet.params?.leases ?? [])
        leases.push({ subTaskId: l.subTaskId, accountId: l.account?.id ?? null, at });
    // The holder is "<subTaskId> <token>" (crawler/web/web-attempt.ts holderOf).
    if (packet.action === 'accounts.checkout' && packet.params?.holder)
      checkouts.push({ subTaskId: packet.params.holder.split(' ')[0]!, at });
    if (packet.action === 'tasks.settleBatch')
      for (const r of packet.params?.reports ?? [])
        reports.push({ subTaskId: r.subTaskId, answered: r.result !== undefined, at });
  };
  for (const subject of [`MOL-${namespace}.REQ.>`, `MOL-${namespace}.REQB.>`]) {
    const sub = nc.subscribe(subject);
    void (async () => {
      for await (const m of sub) onPacket(m.data);
    })();
  }
  await nc.flush();
  return {
    leases,
    checkouts,
    reports,
    close: () => nc.drain(),
  };
}
