/**
 * Whether this api node can serve (`GET /api/business/health/ready`): MongoDB
 * answers a ping, the transporter is connected (cluster mode), and the
 * services the api calls are available somewhere in the cluster. Pure over
 * the probes the api service hands it.
 */
export interface ReadinessProbes {
  pingMongo: () => Promise<void>;
  /** undefined on the embedded broker (no transporter). */
  transporterConnected: () => boolean | undefined;
  availableServices: () => Set<string>;
  /** Services every request path needs. */
  needed: readonly string[];
  timeoutMs: number;
}

export interface Readiness {
  ready: boolean;
  checks: { name: string; ok: boolean; detail?: string }[];
}

export async function readiness(p: ReadinessProbes): Promise<Readiness> {
  const checks: Readiness['checks'] = [];
  try {
    await withTimeout(p.pingMongo(), p.timeoutMs);
    checks.push({ name: 'mongodb', ok: true });
  } catch (err) {
    checks.push({ name: 'mongodb', ok: false, detail: String((err as Error).message ?? err) });
  }
  const transporter = p.transporterConnected();
  if (transporter !== undefined)
    checks.push({
      name: 'transporter',
      ok: transporter,
      ...(transporter ? {} : { detail: 'not connected' }),
    });
  const available = p.availableServices();
  for (const name of p.needed) {
    const ok = available.has(name);
    checks.push({ name: `service:${name}`, ok, ...(ok ? {} : { detail: 'no node runs it' }) });
  }
  return { ready: checks.every((c) => c.ok), checks };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
