import { describe, expect, it } from 'vitest';
import { callRoute } from '@/tests/helpers/http';
import { registerNativeClient } from '@/tests/helpers/oauth';

// Found by the bad-input properties (tests/properties): the provider's error handler for the resume
// step read client_id from the query and failed with a TypeError for a client with one redirect URI.
describe('the resume step', () => {
  it('answers an unknown interaction with our error page, whatever the query says', async () => {
    const clientId = await registerNativeClient();
    for (const query of [`client_id=${clientId}`, `client_id=${clientId}&state=s&response_type=code`, '']) {
      const response = await callRoute('GET', '/oauth/authorize/{uid}', { params: { uid: 'unknown-interaction' }, query });
      expect(response.status, query).toBe(303);
      const location = new URL(response.headers.get('location')!, 'http://localhost:3000');
      expect(location.pathname, query).toBe('/oauth/error');
      expect(location.searchParams.get('error'), query).toBe('invalid_request');
    }
  });
});
