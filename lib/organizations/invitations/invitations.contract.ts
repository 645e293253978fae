import { z } from 'zod';
import { emailField } from '@/lib/contract/email-address';
import type { SessionActor } from '@/lib/contract/actor';
import { BEARER_TAG, inOrganization, nestedParams, ORGANIZATION_BEARER, ORGANIZATION_STEP_UP, organizationParams, SESSION, TAG } from '../terms';
import { collectionContract, resourceContract } from '@/lib/contract/wire';

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;

const invitationItem = z.object({
  id: z.string(),
  email: z.string(),
  role: z.string(),
  role_name: z.string(),
  status: z.enum(INVITATION_STATUSES),
  expires_at: z.string(),
  created_at: z.string(),
});

const invitationParams = nestedParams('invitation_id');
const listQuery = z.strictObject({ status: z.enum(INVITATION_STATUSES).optional() });
/** The link's token, posted in the body so that it never sits in an API URL (or its access logs). */
const tokenBody = z.strictObject({ token: z.string().min(1).max(256) });

/**
 * Anyone may create an organization, so invitations could make the service mail any address without
 * end: new and resent invitations share one bucket per inviting account.
 */
const INVITATION_MAIL = { bucket: 'invitation_mail', subject: ({ actor }: { actor: SessionActor }) => `invitation:${actor.userId}` } as const;

export const listOrganizationInvitations = collectionContract({
  id: 'listOrganizationInvitations',
  method: 'GET',
  path: '/api/organizations/{id}/invitations',
  tag: TAG,
  summary: "The organization's invitations (`expired`: pending past its expiry)",
  auth: SESSION,
  tenant: inOrganization('invitations.manage'),
  origin: 'if-present',
  idempotency: 'none',
  params: organizationParams,
  query: listQuery,
  collection: 'invitations',
  item: invitationItem,
  errorStatuses: [404],
});

export const listOrganizationInvitationsBearer = collectionContract({
  id: 'listOrganizationInvitationsBearer',
  method: 'GET',
  path: '/api/v1/organizations/{id}/invitations',
  tag: BEARER_TAG,
  summary: "The bound organization's invitations (the credential's owner needs invitations.manage, as in the browser)",
  auth: ORGANIZATION_BEARER('identity.organization.read'),
  // A token acts for its owner and never sees more than they do: invited addresses are not for every member.
  tenant: inOrganization('invitations.manage'),
  origin: 'none',
  idempotency: 'none',
  params: organizationParams,
  query: listQuery,
  collection: 'invitations',
  item: invitationItem,
});

export const createOrganizationInvitation = resourceContract({
  id: 'createOrganizationInvitation',
  method: 'POST',
  path: '/api/organizations/{id}/invitations',
  tag: TAG,
  summary: 'Invite an e-mail address with a role; the link travels only in the mail',
  auth: ORGANIZATION_STEP_UP,
  tenant: inOrganization('invitations.manage'),
  subjectRateLimit: INVITATION_MAIL,
  origin: 'required',
  idempotency: 'optional',
  params: organizationParams,
  body: z.strictObject({ email: emailField, role: z.string().min(1).max(64) }),
  successStatus: 201,
  errorStatuses: [404, 409, 503],
  emits: ['identity.organization.invitation.created'],
  response: invitationItem,
});

export const resendOrganizationInvitation = resourceContract({
  id: 'resendOrganizationInvitation',
  method: 'POST',
  path: '/api/organizations/{id}/invitations/{invitation_id}',
  tag: TAG,
  summary: 'Resend a pending or expired invitation: a new link (the old one stops working) and a new expiry',
  auth: ORGANIZATION_STEP_UP,
  tenant: inOrganization('invitations.manage'),
  subjectRateLimit: INVITATION_MAIL,
  origin: 'required',
  idempotency: 'optional',
  params: invitationParams,
  body: z.strictObject({}),
  successStatus: 200,
  errorStatuses: [404, 409, 503],
  response: invitationItem,
});

export const revokeOrganizationInvitation = resourceContract({
  id: 'revokeOrganizationInvitation',
  method: 'DELETE',
  path: '/api/organizations/{id}/invitations/{invitation_id}',
  tag: TAG,
  summary: 'Revoke a pending invitation',
  auth: ORGANIZATION_STEP_UP,
  tenant: inOrganization('invitations.manage'),
  origin: 'required',
  idempotency: 'optional',
  params: invitationParams,
  successStatus: 200,
  errorStatuses: [404, 409],
  response: z.object({ revoked: z.literal(true) }),
});

export const acceptOrganizationInvitation = resourceContract({
  id: 'acceptOrganizationInvitation',
  method: 'POST',
  path: '/api/organizations/invitations/accept',
  tag: TAG,
  summary: "Accept an invitation with the link's token, as the account that uses the invited address",
  auth: SESSION,
  origin: 'required',
  idempotency: 'optional',
  body: tokenBody,
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.organization.invitation.accepted', 'identity.organization.member.added'],
  response: z.object({ organization_id: z.string(), membership_id: z.string() }),
});

export const previewOrganizationInvitation = resourceContract({
  id: 'previewOrganizationInvitation',
  method: 'POST',
  path: '/api/organizations/invitations/preview',
  tag: TAG,
  summary: 'What a pending invitation link offers (organization name, role name, expiry), before signing in or accepting; never the invited address',
  auth: { kind: 'public' },
  origin: 'required',
  // Tokens cannot be tried at speed; every unusable link gets the same 404.
  rateLimit: 'invitation_preview',
  idempotency: 'none',
  extension: true,
  body: tokenBody,
  successStatus: 200,
  errorStatuses: [404],
  response: z.object({ organization: z.object({ name: z.string() }), role_name: z.string(), expires_at: z.string() }),
});
