/**
 * Developer applications through the real pipeline (the portal's browser contract), and openid-client
 * relying parties configured for them: client_secret_basic for a confidential application, none
 * (PKCE only) for a public one.
 */
import * as client from 'openid-client';
import { ORIGIN } from './http';
import { REDIRECT, throughPipeline } from './oauth';
import { asBrowser, type Person } from './organizations';

export const APPLICATIONS = '/api/developer/applications';
export const ONE_APPLICATION = '/api/developer/applications/{application_id}';

export interface CreatedApplication {
  id: string;
  client_id: string;
  client_secret?: string;
  name: string;
  client_type: 'confidential' | 'public';
  redirect_uris: string[];
  scopes: string[];
  approved_scopes: string[];
  grant_types: string[];
  status: 'enabled' | 'disabled';
}

export async function createApplication(owner: Person, body: Record<string, unknown> = {}): Promise<CreatedApplication> {
  const response = await asBrowser(owner.browser, 'POST', APPLICATIONS, {
    body: {
      name: 'Billing dashboard',
      client_type: 'confidential',
      redirect_uris: [REDIRECT],
      scopes: ['openid', 'offline_access', 'identity.profile.read'],
      ...body,
    },
  });
  if (response.status !== 201) throw new Error(`create application failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as CreatedApplication;
}

/** An openid-client configuration for the application (discovery through the pipeline). */
export async function applicationRp(clientId: string, secret?: string): Promise<client.Configuration> {
  return client.discovery(new URL(ORIGIN), clientId, secret, secret === undefined ? client.None() : client.ClientSecretBasic(secret), {
    execute: [client.allowInsecureRequests],
    [client.customFetch]: throughPipeline(),
  });
}
