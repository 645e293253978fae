import { notFound } from '@/lib/http/fallback';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = notFound;
