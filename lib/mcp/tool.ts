/**
 * One MCP tool: its name and words for the agent, the scope it needs, its input and output schemas,
 * and the service call behind it. `runTool` is the one place that checks the scope, strips the output
 * to its schema (nothing undeclared, so no secret, leaves) and turns service errors into tool errors.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ServiceError } from '@/lib/contract/errors';
import { logLine } from '@/lib/platform';
import type { McpScope } from './scopes';
import type { McpActor } from './token';

export interface ToolContext {
  requestId: string;
  now: Date;
}

export interface McpTool<I extends z.ZodRawShape = z.ZodRawShape, O extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  scope: McpScope;
  /** Changes nothing (MCP tool annotation readOnlyHint). */
  readOnly: boolean;
  input: I;
  output: O;
  run: (actor: McpActor, args: z.output<z.ZodObject<I>>, context: ToolContext) => Promise<z.input<z.ZodObject<O>>>;
}

export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(tool: McpTool<I, O>): McpTool {
  return tool as unknown as McpTool;
}

function failure(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

export async function runTool(tool: McpTool, actor: McpActor, args: unknown, context: ToolContext): Promise<CallToolResult> {
  if (!actor.scopes.includes(tool.scope)) {
    return failure(`${tool.name} needs the scope ${tool.scope}, which this access token was not granted. Authorize again asking for ${tool.scope}.`);
  }
  try {
    const output = z.object(tool.output).parse(await tool.run(actor, args as never, context));
    return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
  } catch (error) {
    // Catalogued errors are meant for the caller; anything else is ours, logged and named by request id only.
    if (error instanceof ServiceError) return failure(`${error.code}: ${error.detail ?? error.title}`);
    logLine(
      'error',
      'mcp_tool_failed',
      { tool: tool.name, request_id: context.requestId, error: error instanceof Error ? error.name : 'unknown' },
      context.now,
    );
    return failure(`internal_error: the service failed to run ${tool.name} (request id ${context.requestId}).`);
  }
}
