ALTER TABLE "oidc_grant_organizations" ADD COLUMN "sign_in_methods" text[];--> statement-breakpoint
ALTER TABLE "oidc_grant_organizations" ADD COLUMN "authenticated_at" timestamp with time zone;