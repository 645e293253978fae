/**
 * Observability, shared infrastructure like the configuration and the database layer (every layer
 * may log and count, the database layer included): the structured logger and the metrics registry.
 */
export { logLine, type LogLevel, type LogValue } from './log';
export { countSignIn, metrics, scrape, statusClass, type Metrics, type SignInMethod, type SignInOutcome } from './metrics';
