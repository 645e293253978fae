import { bindDelegated, type AnyOperation } from '@/lib/contract/operation';
import * as contract from './mcp.contract';

export const mcpOperations: AnyOperation[] = [
  // Loaded on first use: the registry is imported everywhere, the SDK only where /mcp is served.
  bindDelegated(contract.mcp, { webHandler: async () => (await import('./server')).handleMcpRequest }),
];
