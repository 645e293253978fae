import { scimCatchAll } from '@/lib/http/scim-paths';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = scimCatchAll;
