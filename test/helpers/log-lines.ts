/**
 * The WARN, ERROR and FATAL lines of a node's output, in either log format
 * (text: `[time] WARN  NAME: …`; json: `"level":"warn"`). A normal start logs
 * none: a warning at every start teaches operators to ignore warnings.
 */
const TEXT = /^\[[^\]]+\] (WARN|ERROR|FATAL) /;
const JSON_LEVEL = /"level":"(warn|error|fatal)"/;

export function noisyLines(output: string): string[] {
  return output.split('\n').filter((line) => TEXT.test(line) || JSON_LEVEL.test(line));
}
