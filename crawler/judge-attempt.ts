/**
 * One sentiment-judge request on this node (services/tasks/judge.ts): the
 * judge platform's API driver in standard mode (with the judge's model when
 * one is set), through a proxy port of the sub task's region when this node
 * has one (else any of its ports, or direct), bounded by the platform's
 * deadline, its failure classified as every attempt's is.
 */
import type { JudgeAnswer, JudgeRequest } from '../services/shared/contracts/judge.js';
import { timeoutError } from './platforms/common/errors.js';
import type { PlatformDriver } from './platforms/types.js';
import type { SettingsFor } from './settings.js';
import type { ChosenPort, ProxyPool } from './proxy-pool.js';
import { toFailure } from './executor.js';

export interface JudgeAttemptDeps {
  driverFor(platform: string): PlatformDriver | undefined;
  settingsFor: SettingsFor;
  proxies: Pick<ProxyPool, 'pick'>;
  fetchVia(port: ChosenPort | null): typeof fetch;
  portFailed(key: string): void;
}

export async function judgeAttempt(d: JudgeAttemptDeps, r: JudgeRequest): Promise<JudgeAnswer> {
  const driver = d.driverFor(r.platform);
  const settings = d.settingsFor(r.platform, 'api');
  if (!driver?.api || !settings) {
    const message = `this crawler node cannot run ${r.platform} over its API`;
    return { failure: { status: 'failed', retryable: true, message } };
  }
  const judgeSettings = r.model
    ? { ...settings, models: { ...settings.models, standard: r.model } }
    : settings;
  const port = d.proxies.pick(r.regionCode) ?? d.proxies.pick(null) ?? null;
  const signal = AbortSignal.timeout(judgeSettings.timeoutMs);
  try {
    const answer = await driver.api.ask(
      { prompt: r.prompt, mode: 'standard', signal },
      { settings: judgeSettings, fetch: d.fetchVia(port) },
    );
    return { text: answer.answerContent };
  } catch (err) {
    const failure = toFailure(
      signal.aborted ? timeoutError('no judge answer before the deadline') : err,
    );
    if (port && failure.retryable) d.portFailed(port.key);
    return { failure };
  }
}
