/**
 * How a crawler node checks one of its proxy ports, and the fetch that sends
 * API-channel requests through a port. With a check URL (PROXY_CHECK_URL, an
 * address that answers with the caller's IP, like an "what is my IP" service)
 * the check is a real request through the proxy, and an exit address other
 * than the port's `outIp` fails it: answers would come from the wrong region.
 * Without one, the check is a TCP connect to the proxy.
 */
import { connect } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ProxyAgent, fetch as undiciFetch } from 'undici';
import type { ProxyPortConfig } from '../services/shared/proxy-ports.js';
import type { CheckResult, PortCheck } from './proxy-pool.js';

const CHECK_TIMEOUT_MS = 5_000;

export function portCheck(checkUrl: string | undefined): PortCheck {
  return checkUrl ? (port) => checkThrough(port, checkUrl) : connectCheck;
}

async function checkThrough(port: ProxyPortConfig, checkUrl: string): Promise<CheckResult> {
  const agent = new ProxyAgent(port.url);
  try {
    const res = await undiciFetch(checkUrl, {
      dispatcher: agent,
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    const body = (await res.text()).trim();
    if (!res.ok) return { ok: false, observedIp: null, error: `check answered HTTP ${res.status}` };
    const observedIp = ipaddr.isValid(body) ? normalise(body) : null;
    if (observedIp !== null && observedIp !== normalise(port.outIp)) {
      return {
        ok: false,
        observedIp,
        error: `exit address ${observedIp}, configured outIp ${port.outIp}`,
      };
    }
    return { ok: true, observedIp, error: null };
  } catch (err) {
    return { ok: false, observedIp: null, error: `check through the proxy failed: ${reason(err)}` };
  } finally {
    await agent.close().catch(() => undefined);
  }
}

function connectCheck(port: ProxyPortConfig): Promise<CheckResult> {
  const u = new URL(port.url);
  return new Promise((resolve) => {
    const socket = connect({ host: u.hostname, port: Number(u.port || 80) });
    const done = (error: string | null) => {
      socket.destroy();
      resolve({ ok: error === null, observedIp: null, error });
    };
    socket.setTimeout(CHECK_TIMEOUT_MS, () => done('proxy did not accept a connection in time'));
    socket.once('connect', () => done(null));
    socket.once('error', (err) => done(`proxy unreachable: ${err.message}`));
  });
}

/** A fetch that goes through the given proxy (one agent per port, kept for its connections). */
export function proxiedFetch(agent: ProxyAgent): typeof fetch {
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    undiciFetch(input as never, { ...(init as object), dispatcher: agent })) as typeof fetch;
}

function normalise(ip: string): string {
  const a = ipaddr.process(ip);
  return a.toString();
}

function reason(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string; code?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}
