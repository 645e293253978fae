import { serve } from '@/lib/http/serve';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve('/api/v1/developer/api-resources');
