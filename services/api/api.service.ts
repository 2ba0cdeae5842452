/**
 * The `api` service: Koa lifecycle only. The app is built in created(),
 * listens in started() and closes in stopped(); routes live in app.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceSchema } from 'moleculer';
import type { Config } from '../shared/config.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { TokenVerifier, type VerificationMaterial } from '../users/tokens.js';
import { acquireConnection, releaseConnection } from '../shared/mongo.js';
import { ScreenshotStore } from '../tasks/screenshots.js';
import { createApp } from './app.js';

export function apiService(config: Config, clock: Clock = systemClock): ServiceSchema {
  let server: Server | undefined;
  let screenshots: ScreenshotStore | undefined;
  return {
    name: 'api',
    settings: { port: config.port, host: config.host },

    created() {
      let verifier: Promise<TokenVerifier> | undefined;
      const loadVerifier = (): Promise<TokenVerifier> => {
        verifier ??= (
          config.jwtSecret
            ? TokenVerifier.from({ alg: 'HS256', key: config.jwtSecret })
            : this.broker
                .call<VerificationMaterial>('users.verificationKey')
                .then((m) => TokenVerifier.from(m))
        ).catch((err: unknown) => {
          verifier = undefined; // try again on the next request
          throw err;
        });
        return verifier;
      };
      const app = createApp({
        config,
        clock,
        logger: this.logger,
        backend: { call: (action, params) => this.broker.call(action, params) },
        verifier: loadVerifier,
        screenshot: async (id) => screenshots?.load(id),
      });
      server = createServer(app.callback());
      server.requestTimeout = config.requestTimeoutMs * 3;
      server.headersTimeout = config.requestTimeoutMs;
    },

    async started() {
      screenshots = new ScreenshotStore(await acquireConnection(config.mongoUrl, config.mongoDb));
      const s = server!;
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(config.port, config.host, () => {
          s.off('error', reject);
          resolve();
        });
      });
      const { port } = s.address() as AddressInfo;
      this.settings.port = port;
      this.logger.info(`api listening on http://${config.host}:${port}`);
    },

    async stopped() {
      const s = server;
      if (s?.listening) {
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        });
      }
      if (screenshots) await releaseConnection(config.mongoUrl, config.mongoDb);
      screenshots = undefined;
    },
  };
}
