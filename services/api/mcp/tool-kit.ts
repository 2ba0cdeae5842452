/**
 * What an MCP tool is here: a name, a description an assistant reads, its
 * annotations, an input schema (a zod object the REST API validates with
 * where one exists, so the two cannot drift) and a handler that returns
 * structured content plus a short text summary an assistant can quote.
 */
import type { z } from 'zod';
import type { NodeState } from '../../shared/crawler-states.js';
import type { StatusData } from '../../shared/contracts/http.js';
import type { ViewReader } from '../result-views.js';

/** Who calls, and what the tools reach through. */
export interface Caller extends ViewReader {
  userId: number;
  /** Whether the caller has the operator role (read from the users service when asked). */
  isOperator: () => Promise<boolean>;
  crawlerStates: () => Promise<NodeState[]>;
  /** The task's status for this caller, as the status route serves it (its cache included). */
  status: (taskId: string) => Promise<StatusData>;
}

export interface ToolOutput {
  /** MCP structured content: always an object. */
  data: Record<string, unknown>;
  summary: string;
}

export interface Tool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  readOnly: boolean;
  idempotent: boolean;
  /** Operator tools are listed to everyone and refused to callers without the role. */
  operatorOnly?: boolean;
  input: S;
  run(args: z.output<S>, caller: Caller): Promise<ToolOutput>;
}

/** Declares a tool with its argument types inferred from its schema. */
export function tool<S extends z.ZodObject>(t: Tool<S>): Tool {
  return t as unknown as Tool;
}

/** REST query parameters are strings: the parsed values as the query string carried them. */
export function asQuery(values: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );
}

/** At most `max` characters, with an ellipsis when cut. */
export function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
