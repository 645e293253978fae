/** Shapes of the developer API's answers that the portal shows (API.md, the browser contract). */

export interface ScopeChoice {
  scope: string;
  /** The consent screen's plain words for it. */
  description: string;
}

export interface Application {
  id: string;
  client_id: string;
  name: string;
  client_type: 'confidential' | 'public';
  redirect_uris: string[];
  scopes: string[];
  approved_scopes: string[];
  grant_types: string[];
  status: 'enabled' | 'disabled';
  created_at: string;
  updated_at: string;
}

export interface Certification {
  application_id: string;
  status: 'certified' | 'pending_review';
  approved_scopes: string[];
  pending_scopes: string[];
  checks: { name: string; passed: boolean; detail?: string }[];
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  status: 'active' | 'expired' | 'revoked';
  created_by: { kind: 'person' | 'application'; client_id: string | null; grant_id: string | null };
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  created_at: string;
  updated_at: string;
}

export interface Delivery {
  id: string;
  webhook_id: string;
  event_type: string;
  status: 'queued' | 'retrying' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_failure_code: string | null;
  last_response_status: number | null;
  created_at: string;
}

export interface DeveloperEvent {
  id: string;
  action: string;
  outcome: string;
  subject_type: string | null;
  subject_id: string | null;
  /** The subject's name, read now (null once it is gone). */
  subject_name?: string | null;
  created_at: string;
  request_id: string | null;
}
