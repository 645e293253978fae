/** Domain events, written to the outbox inside the business transaction. */
export { emitEvent, type EventType } from './emit';
