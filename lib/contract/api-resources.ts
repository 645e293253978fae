/**
 * Bounds of a developer API's access-token lifetime (issue 23): a minute to a day, an hour by default.
 * Shared: the developer context validates it, the provider's key roll-over waits for the longest.
 */
export const API_TOKEN_TTL = { min: 60, max: 86_400, default: 3_600 } as const;
