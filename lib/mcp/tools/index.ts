import type { McpTool } from '../tool';
import { createApiKeyTool } from './create-api-key';
import { whoami } from './whoami';

/** Every tool /mcp offers, in the order tools/list shows them. */
export const MCP_TOOLS: readonly McpTool[] = [whoami, createApiKeyTool];
