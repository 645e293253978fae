/**
 * Every base seed that once found a defect, replayed as a named case by the gating suite: the one
 * property (operation, bad-input class, credential mode) that failed, with the seed that found it.
 * `npm run test:properties:search` prints such seeds; a defect it finds is fixed and its seed added
 * here. A seed replays the same draws only while the generators stay as they were: the case still
 * checks its property on that seed's draws either way. A failure that needs what earlier cases left
 * behind (PROPERTY_SEED=138830257: an Idempotency-Key another case had stored) does not replay alone;
 * it is pinned by a direct test instead (surfaces.test.ts).
 */
import type { Mode } from './probe';
import type { BadInputClass } from './bad-inputs';

export interface Regression {
  name: string;
  seed: number;
  operationId: string;
  badInput: BadInputClass;
  mode: Mode;
  /** The runs per property of the search that found it (the failing draw may come late). */
  runs?: number;
}

export const REGRESSIONS: readonly Regression[] = [
  {
    // Issue 18, section 7: a lone surrogate in a JSON string ("\ud800") answered 500.
    name: 'a lone surrogate in an application name (POST /api/developer/applications)',
    seed: 1_246_211_989,
    operationId: 'createApplication',
    badInput: 'control_characters',
    mode: 'session',
  },
  {
    // Found by the organization walk's first search: a lone surrogate in an approval's target ("\udfff")
    // answered 500 on POST /api/organizations/{id}/approvals (the same defect at the edge).
    name: 'a lone surrogate in an approval target (POST /api/organizations/{id}/approvals)',
    seed: 1_913_441_013,
    operationId: 'requestOrganizationApproval',
    badInput: 'control_characters',
    mode: 'session',
    runs: 10,
  },
  {
    // Found by a search before resolving issue 18: an instant before the year 1 in UTC
    // (`from=0000-02-29T20:00:00+10:00`) passed the format check and failed in PostgreSQL (no year 0).
    name: 'an instant in the year 0 as an audit filter (GET /api/organizations/{id}/audit-events, missing field)',
    seed: 1_510_304_809,
    operationId: 'listOrganizationAuditEvents',
    badInput: 'missing_field',
    mode: 'session',
    runs: 10,
  },
  {
    name: 'an instant in the year 0 as an audit filter (GET /api/organizations/{id}/audit-events, header junk)',
    seed: 1_510_304_809,
    operationId: 'listOrganizationAuditEvents',
    badInput: 'header_junk',
    mode: 'session',
    runs: 10,
  },
];
