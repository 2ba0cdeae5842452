/**
 * Ranks the suite's test files by wall time, from tap's per-process records
 * (.tap/processinfo/*.json): `runtime` spans the whole process, its start and
 * module loading included, unlike the `# time=` a test file reports itself.
 */
export interface ProcessInfo {
  /** The test file a process ran for; absent for the processes a test started. */
  externalID?: string;
  /** Milliseconds from the process's start to its exit. */
  runtime?: number;
}

export interface FileTime {
  file: string;
  seconds: number;
}

export function slowestFiles(infos: ProcessInfo[], count: number): FileTime[] {
  return infos
    .filter((i) => i.externalID !== undefined && typeof i.runtime === 'number')
    .map((i) => ({ file: i.externalID!, seconds: i.runtime! / 1000 }))
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file))
    .slice(0, count);
}

export function formatFileTimes(times: FileTime[]): string {
  return times.map((t) => `${t.seconds.toFixed(1).padStart(7)} s  ${t.file}`).join('\n');
}
