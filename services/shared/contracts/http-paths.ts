/**
 * Every HTTP path of the service, written once. The api's routers register
 * them as they are (`:param`), the OpenAPI document lists them in its own
 * form (`{param}`), and the dashboard, the CLI and the services that hand out
 * links fill them in. Pure data, no Node imports: the dashboard bundles it.
 */

export const PATHS = {
  HEALTH: '/api/business/health',
  HEALTH_LIVE: '/api/business/health/live',
  HEALTH_READY: '/api/business/health/ready',
  OPENAPI: '/api/business/openapi.json',
  DOCS: '/api/business/docs',
  DOCS_ASSET: '/api/business/docs/assets/:file',
  AUTH_TOKEN: '/api/business/auth/token',

  ME: '/api/business/monitor/me',
  PLATFORMS: '/api/business/monitor/platforms',
  SCREENSHOT: '/api/business/monitor/screenshot/:file',
  TASK_SUBMIT: '/api/business/monitor/task/batch/shared',
  TASK_LIST: '/api/business/monitor/task/list',
  TASK_STATUS: '/api/business/monitor/task/status/:taskId',
  TASK_RESULT: '/api/business/monitor/task/result/:taskId',
  SUBTASK_RESULT: '/api/business/monitor/task/result/:taskId/:subTaskId',
  SUBTASK_RAW: '/api/business/monitor/task/result/:taskId/:subTaskId/raw',
  SUBTASK_EVIDENCE: '/api/business/monitor/task/result/:taskId/:subTaskId/evidence',
  TASK_EVIDENCE: '/api/business/monitor/task/result/:taskId/evidence',
  TASK_VISIBILITY: '/api/business/monitor/task/:taskId/visibility',
  TASK_EVENTS: '/api/business/monitor/task/:taskId/events',
  TASK_EXPORT: '/api/business/monitor/task/:taskId/export',
  TASK_CALLBACKS: '/api/business/monitor/task/:taskId/callbacks',
  CALLBACK: '/api/business/monitor/callback',
  CALLBACK_SECRET_ROTATE: '/api/business/monitor/callback/secret/rotate',
  MONITORS: '/api/business/monitor/monitors',
  MONITOR: '/api/business/monitor/monitors/:monitorId',
  MONITOR_RUN: '/api/business/monitor/monitors/:monitorId/run',
  MONITOR_RUNS: '/api/business/monitor/monitors/:monitorId/runs',
  MONITOR_TRENDS: '/api/business/monitor/monitors/:monitorId/trends',
  MONITOR_CHANGES: '/api/business/monitor/monitors/:monitorId/changes',
  MONITOR_WATCH: '/api/business/monitor/monitors/:monitorId/watch',

  OPERATOR_NODES: '/api/business/operator/nodes',
  OPERATOR_PORTS: '/api/business/operator/ports',
  OPERATOR_ACCOUNTS: '/api/business/operator/accounts',
  OPERATOR_COLLECTORS: '/api/business/operator/collectors',
  OPERATOR_TASK_CALLBACKS: '/api/business/operator/task/:taskId/callbacks',

  CITY_INFO: '/api/business/eip-edge/ports/city-info',
  MCP: '/mcp',
  JWKS: '/.well-known/jwks.json',
  METRICS: '/metrics',
} as const;

export type ApiPath = (typeof PATHS)[keyof typeof PATHS];

/** The `:name` segments of a path, as a union of names. */
export type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** `/task/result/:taskId` as OpenAPI writes it: `/task/result/{taskId}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

/** Whether a request path is an instance of `path`: each `:name` one non-empty segment. */
export function matchesPath(path: string, requestPath: string): boolean {
  const segments = path.split('/');
  const actual = requestPath.split('/');
  return (
    segments.length === actual.length &&
    segments.every((s, i) => (s.startsWith(':') ? actual[i] !== '' : s === actual[i]))
  );
}

/** The path with each `:name` replaced by its value, URL-encoded. */
export function pathTo<P extends ApiPath>(path: P, params: Record<ParamsOf<P>, string>): string {
  const values: Record<string, string> = params;
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name]!));
}
