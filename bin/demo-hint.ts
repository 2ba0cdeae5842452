/**
 * The demo's closing hint (pure): where to read the results with curl, the
 * dashboard and the CLI. The CLI signs in with the key from stdin, as the
 * README does: a key given after `--key` would show in npm's banner and the
 * process list (`export` and `echo` are shell builtins, so neither runs a
 * process with the key in its arguments).
 */
export interface DemoHintInput {
  base: string;
  apiKey: string;
  token: string;
  tokenTtlSeconds: number;
  pollUrl: string;
  taskId: string;
}

export function demoHint(o: DemoHintInput): string {
  return `
Read the results (token valid for ${o.tokenTtlSeconds} s):
  export TOKEN=${o.token}
  curl -s -H "Authorization: Bearer $TOKEN" ${o.base}${o.pollUrl}
  curl -s -H "Authorization: Bearer $TOKEN" ${o.base}/api/business/monitor/task/result/${o.taskId}
  curl -s -H "Authorization: Bearer $TOKEN" '${o.base}/api/business/monitor/task/list?page=1&size=10'
Dashboard: ${o.base}/ (sign in with the API key above)
CLI (the key from stdin, never on the command line):
  export KEY=${o.apiKey}
  echo "$KEY" | npm run -s cli -- login --url ${o.base} --key -
API docs:  ${o.base}/api/business/docs`;
}
