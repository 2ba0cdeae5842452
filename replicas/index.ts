/**
 * The site replicas by platform: what `npm run replica -- <platform>`, the
 * driver check's own test and the web benchmark start. Each is a loopback
 * stand-in for the real consumer site (its login page, chat page, endpoint,
 * wire format, page-computed signature and misbehaviours).
 */
import type { CallFrom } from './common/drift.js';
import type { Replica, ReplicaOptions } from './common/replica.js';

export type { Replica, ReplicaOptions } from './common/replica.js';

type Start = (opts?: ReplicaOptions) => Promise<Replica>;

const REPLICAS: Readonly<Record<string, () => Promise<Start>>> = {
  doubao: async () => (await import('./doubao/server.js')).startDoubaoReplica,
  kimi: async () => (await import('./kimi/server.js')).startKimiReplica,
  deepseek: async () => (await import('./deepseek/server.js')).startDeepseekReplica,
  yuanbao: async () => (await import('./yuanbao/server.js')).startYuanbaoReplica,
  qwen: async () => (await import('./qwen/server.js')).startQwenReplica,
  zhipu: async () => (await import('./zhipu/server.js')).startZhipuReplica,
  wenxin: async () => (await import('./wenxin/server.js')).startWenxinReplica,
  perplexity: async () => (await import('./perplexity/server.js')).startPerplexityReplica,
  chatgpt: async () => (await import('./chatgpt/server.js')).startChatgptReplica,
  gemini: async () => (await import('./gemini/server.js')).startGeminiReplica,
};

export const REPLICA_PLATFORMS = Object.keys(REPLICAS);

/** Where each replica's page makes its chat call (the drifts it can show depend on it). */
export const REPLICA_CALL_FROM: Readonly<Record<string, CallFrom>> = {
  doubao: 'worker',
  kimi: 'page',
  deepseek: 'page',
  yuanbao: 'page',
  qwen: 'page',
  zhipu: 'page',
  wenxin: 'page',
  perplexity: 'page',
  chatgpt: 'page',
  gemini: 'page',
};

export async function startReplica(platform: string, opts: ReplicaOptions = {}): Promise<Replica> {
  const load = REPLICAS[platform];
  if (!load) {
    throw new Error(
      `no replica for ${JSON.stringify(platform)}; replicas: ${REPLICA_PLATFORMS.join(', ')}`,
    );
  }
  return (await load())(opts);
}
