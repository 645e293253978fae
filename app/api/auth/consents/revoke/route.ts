import { serve } from '@/lib/http/serve';

export const { GET, POST, PUT, PATCH, DELETE } = serve('/api/auth/consents/revoke');
