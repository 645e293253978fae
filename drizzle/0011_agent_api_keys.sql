ALTER TABLE "api_keys" ADD COLUMN "created_by_client_id" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "grant_id" text;--> statement-breakpoint
CREATE INDEX "api_keys_grant_idx" ON "api_keys" USING btree ("grant_id");