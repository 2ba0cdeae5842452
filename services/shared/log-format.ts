/**
 * The one log line format of every node. A log call may start with a plain
 * object of fields (`{ requestId, taskId }`): with LOG_FORMAT=json each line is
 * one JSON object with those fields at the top level, ready for a log store to
 * index; with text they lead the message as key=value pairs.
 */
type Printer = { printArgs: (args: unknown[]) => unknown[] };
type Bindings = { nodeID?: string; mod?: string; svc?: string };

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export function logFormatter(format: 'text' | 'json') {
  return function formatLine(
    level: string,
    args: unknown[],
    bindings: Bindings,
    { printArgs }: Printer,
  ): string[] {
    const fields = isFields(args[0]) ? args[0] : undefined;
    const message = printArgs(fields ? args.slice(1) : args).join(' ');
    const time = new Date().toISOString();
    if (format === 'json') {
      return [
        JSON.stringify({
          time,
          level,
          node: bindings.nodeID,
          module: bindings.svc ?? bindings.mod,
          ...fields,
          message,
        }),
      ];
    }
    const pairs = fields
      ? Object.entries(fields)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => `${k}=${String(v)} `)
          .join('')
      : '';
    return [
      `[${time.substring(11)}] ${level.toUpperCase().padEnd(5)} ${(bindings.mod ?? '').toUpperCase()}: ${pairs}${message}`,
    ];
  };
}

/** A plain object literal (not an error, array or class instance) is a set of fields. */
function isFields(value: unknown): value is LogFields {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}
