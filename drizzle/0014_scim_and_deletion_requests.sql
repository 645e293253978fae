CREATE TABLE "scim_directories" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"next_seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scim_groups" (
	"group_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"external_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scim_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"display_prefix" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "scim_user_blocks" (
	"organization_id" uuid NOT NULL,
	"block" bigint NOT NULL,
	"live_count" integer NOT NULL,
	CONSTRAINT "scim_user_blocks_organization_id_block_pk" PRIMARY KEY("organization_id","block")
);
--> statement-breakpoint
CREATE TABLE "scim_users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"membership_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"user_name" text NOT NULL,
	"user_name_key" text NOT NULL,
	"external_id" text,
	"given_name" text,
	"family_name" text,
	"formatted_name" text,
	"display_name" text,
	"emails" jsonb NOT NULL,
	"created_account" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deprovisioned_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "deletion_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"status" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"completed_by" text
);
--> statement-breakpoint
ALTER TABLE "scim_directories" ADD CONSTRAINT "scim_directories_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_groups" ADD CONSTRAINT "scim_groups_group_id_organization_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."organization_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_groups" ADD CONSTRAINT "scim_groups_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_tokens" ADD CONSTRAINT "scim_tokens_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_tokens" ADD CONSTRAINT "scim_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_user_blocks" ADD CONSTRAINT "scim_user_blocks_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deletion_requests" ADD CONSTRAINT "deletion_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scim_groups_org_idx" ON "scim_groups" USING btree ("organization_id","created_at","group_id");--> statement-breakpoint
CREATE INDEX "scim_groups_external_id_idx" ON "scim_groups" USING btree ("organization_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_tokens_hash_idx" ON "scim_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "scim_tokens_org_keyset_idx" ON "scim_tokens" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_users_user_name_idx" ON "scim_users" USING btree ("organization_id","user_name_key") WHERE "scim_users"."deprovisioned_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "scim_users_account_idx" ON "scim_users" USING btree ("organization_id","user_id") WHERE "scim_users"."deprovisioned_at" is null;--> statement-breakpoint
CREATE INDEX "scim_users_external_id_idx" ON "scim_users" USING btree ("organization_id","external_id");--> statement-breakpoint
CREATE INDEX "scim_users_order_idx" ON "scim_users" USING btree ("organization_id","seq") WHERE "scim_users"."deprovisioned_at" is null;--> statement-breakpoint
CREATE INDEX "scim_users_user_idx" ON "scim_users" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "scim_users_membership_idx" ON "scim_users" USING btree ("membership_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deletion_requests_pending_idx" ON "deletion_requests" USING btree ("user_id") WHERE "deletion_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "deletion_requests_user_idx" ON "deletion_requests" USING btree ("user_id","requested_at");--> statement-breakpoint
CREATE INDEX "deletion_requests_status_idx" ON "deletion_requests" USING btree ("status","requested_at");