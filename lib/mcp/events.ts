import type { EventType } from '@/lib/contract/events';

/**
 * The events a /mcp request may write to the outbox (create_api_key's, the portal's own event). The
 * operation declares them, and every tool runs inside that declaration (server.ts), so an event a
 * tool writes without it being listed here is refused, as on any other operation.
 */
export const MCP_EMITS: readonly EventType[] = ['identity.api_key.created'];
