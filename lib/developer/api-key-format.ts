/** The API-key format (ARCHITECTURE.md, API keys): `idk_` secrets of the platform's prefixed shape. */
import { prefixedSecretFormat } from '@/lib/platform';

export { base32 } from '@/lib/platform';

const API_KEYS = prefixedSecretFormat('idk_');

export const generateApiKey = API_KEYS.generate;
export const isWellFormedApiKey = API_KEYS.isWellFormed;
export const hashApiKey = API_KEYS.hash;
export const displayPrefix = API_KEYS.displayPrefix;
