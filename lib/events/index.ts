/** Domain events, written to the outbox inside the business transaction. */
export { emitEvent, withDeclaredEvents, type EventType } from './emit';
export { EVENT_TYPES, INTERNAL_EVENTS } from '@/lib/contract/events';
