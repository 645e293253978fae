import type { McpTool } from '../tool';
import { createApiKeyTool } from './create-api-key';
import { listApplications } from './list-applications';
import { listWebhookDeliveries } from './list-webhook-deliveries';
import { sendTestEventTool } from './send-test-event';
import { whoami } from './whoami';

/** Every tool /mcp offers, in the order tools/list shows them. */
export const MCP_TOOLS: readonly McpTool[] = [whoami, listApplications, listWebhookDeliveries, sendTestEventTool, createApiKeyTool];
