import { serve } from '@/lib/http/serve';

export const { GET, POST, PUT, PATCH, DELETE } = serve('/.well-known/oauth-protected-resource');
