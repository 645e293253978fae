/**
 * Requests of Microsoft's SCIM validator collection that fail against this service, numbered as the
 * run prints them (after its "Get Token" folder, which is not run), each with the reason. README.md,
 * "SCIM conformance", says the same. Most follow from three decisions (docs/decisions.md, SCIM): one
 * e-mail address is one account (the collection gives several users the same address), filters are
 * equality only, and PATCH answers 200 with the resource (RFC 7644 §3.5.2's first option).
 */
const SAME_ADDRESS = 'the collection gives this user an address another live user of the directory has; one address is one account (409 uniqueness)';
const AFTER_SAME_ADDRESS = 'follows from the refused user above (the collection uses its id, or counts it)';
const PATCH_200 = 'PATCH answers 200 with the resource (the RFC 7644 §3.5.2 option Okta expects); the collection expects 204';
const FILTERS = 'only equality filters are answered (docs/scim.md); this one is refused with 400 invalidFilter';

export const EXPECTED_FAILURES: readonly { request: string; reason: string }[] = [
  { request: '4. Get ServiceProviderConfig', reason: 'the collection reads /serviceConfiguration; the RFC 7644 endpoint is /ServiceProviderConfig (served)' },
  { request: '20. Create user 4 for group 2', reason: SAME_ADDRESS },
  { request: '24. Put replace group3', reason: AFTER_SAME_ADDRESS },
  { request: '25. Validate group 3', reason: AFTER_SAME_ADDRESS },
  {
    request: '29. Get group by id',
    reason: "looks for the display name the client sent in a member reference; a member's display is read-only, the user's own name",
  },
  { request: '33. Delete user id4', reason: AFTER_SAME_ADDRESS },
  { request: '46. Post emp2', reason: SAME_ADDRESS },
  { request: '47. Post emp3', reason: SAME_ADDRESS },
  { request: '54. Post enterprise user', reason: SAME_ADDRESS },
  { request: '55. Patch user omalley new username', reason: PATCH_200 },
  { request: '56. patch user omalley active with boolean', reason: PATCH_200 },
  { request: '58. Put a user OMalley', reason: 'looks for an address ("Germany"): addresses are not kept (attributes beyond those documented are ignored)' },
  { request: '59. Paginate', reason: AFTER_SAME_ADDRESS },
  { request: '60. get user attributes', reason: AFTER_SAME_ADDRESS },
  { request: '62. filter eq and (val or val)', reason: FILTERS },
  { request: '63. filter starts with', reason: FILTERS },
  { request: '64. filter greater than', reason: FILTERS },
  { request: '66. Group patch add member', reason: 'adds a member "string id 1", no user of the directory: 400 invalidValue' },
  { request: '67. Group patch add member2', reason: 'adds a member "string id 2", no user of the directory: 400 invalidValue' },
  { request: '70. group put', reason: "changes the group's externalId, which is fixed once set: 400 mutability" },
  { request: '73. Delete user3 emp2', reason: AFTER_SAME_ADDRESS },
  { request: '74. Delete user4 emp3', reason: AFTER_SAME_ADDRESS },
  { request: '75. Delete enterprise user', reason: AFTER_SAME_ADDRESS },
];
