/**
 * Requests of Microsoft's SCIM validator collection that fail against this service, numbered as the
 * run prints them, each with the reason (README.md, SCIM conformance, says the same).
 */
export const EXPECTED_FAILURES: readonly { request: string; reason: string }[] = [];
