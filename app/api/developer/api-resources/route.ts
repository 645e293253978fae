import { serve } from '@/lib/http/serve';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve('/api/developer/api-resources');
