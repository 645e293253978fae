/** Privacy requests: the personal data export (and, later, deletion requests). */
export { exportPersonalData } from './export';
