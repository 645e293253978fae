import { serve } from '@/lib/http/serve';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve('/oauth/introspect');
