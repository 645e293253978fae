/** Privacy requests: the personal data export and account deletion requests. */
export { exportPersonalData } from './export';
export { completeDeletion, reviewQueue } from './deletion/deletion';
