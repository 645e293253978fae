/** The service's own documentation and the advisory help-question answers drawn from it. */
export { DOC_SECTIONS, type DocSection } from './content';
