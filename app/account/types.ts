/** Shapes of the account API's list items (GET /api/auth/sessions, GET /api/auth/passkeys). */

export interface SessionItem {
  id: string;
  current: boolean;
  device: string;
  amr: string[];
  created_at: string;
  authenticated_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface PasskeyItem {
  id: string;
  name: string;
  device_type: string;
  backed_up: boolean;
  created_at: string;
  last_used_at: string | null;
}
