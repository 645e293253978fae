ALTER TABLE "oidc_grant_organizations" ADD COLUMN "sign_in_methods" text[];--> statement-breakpoint
ALTER TABLE "oidc_grant_organizations" ADD COLUMN "authenticated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "created_by_client_id" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "grant_id" text;--> statement-breakpoint
CREATE INDEX "api_keys_grant_idx" ON "api_keys" USING btree ("grant_id");