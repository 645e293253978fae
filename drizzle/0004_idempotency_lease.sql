ALTER TABLE "idempotency_records" ADD COLUMN "claim_token" text;--> statement-breakpoint
ALTER TABLE "idempotency_records" ADD COLUMN "lease_expires_at" timestamp with time zone;