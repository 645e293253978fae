/** Runtime status: health, capabilities, readiness and the launch rehearsal. */
export { authStatus, capabilityDetail, capabilityMatrix, health, readiness, rehearsal } from './status.service';
export { describeCapabilitySummary } from './summary';
