/**
 * The command line of the crawler's Chromium: quiet on a machine without
 * internet, and silent towards Google. Chromium's own services (autofill
 * crowdsourcing, sign-in, component and update checks, translation, safe
 * browsing, media router) are not page requests, so no route on a browser
 * context sees them: they are switched off here, and the hosts they call are
 * left unresolvable for what still slips out directly.
 */

/**
 * Features Playwright 1.65 disables itself (its chromiumSwitches.ts). A second
 * `--disable-features` replaces the first, so ours repeats them;
 * test/integration/crawler/chromium-flags.test.ts compares both lists on a
 * launched browser, so an upgrade of Playwright that adds one fails there.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/** Chromium services that call Google on their own. */
export const SILENCED_FEATURES = [
  // Form-field votes and queries to content-autofill.googleapis.com on every filled form.
  'AutofillServerCommunication',
  'Translate',
  'OptimizationHintsFetching',
  'OptimizationGuideModelDownloading',
  'InterestFeedContentSuggestions',
];

/** The browser-wide proxy's host (browser.ts): `.invalid` never resolves, and is mapped below too. */
export const NO_EGRESS_HOST = 'no-egress.invalid';

/** Hosts of Chromium's own services: unresolvable, so a direct attempt fails on the machine. */
export const GOOGLE_SERVICE_HOSTS = [
  'content-autofill.googleapis.com',
  'accounts.google.com',
  'update.googleapis.com',
  'clients2.google.com',
  'clientservices.googleapis.com',
  'optimizationguide-pa.googleapis.com',
  'safebrowsing.googleapis.com',
  'redirector.gvt1.com',
];

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-default-apps',
  '--no-pings',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...SILENCED_FEATURES].join(',')}`,
  `--host-resolver-rules=${[NO_EGRESS_HOST, ...GOOGLE_SERVICE_HOSTS].map((h) => `MAP ${h} ~NOTFOUND`).join(', ')}`,
];
