/**
 * The auth and tenant declarations organization operations share. They live in lib/contract
 * (organization-terms.ts) because other contexts' organization routes (domains, federation) declare
 * the same terms; this module keeps the organizations' own imports short.
 */
export * from '@/lib/contract/organization-terms';
