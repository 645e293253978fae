CREATE TABLE "oidc_grant_organizations" (
	"model" text DEFAULT 'Grant' NOT NULL,
	"grant_id" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "oidc_grant_organizations_model_check" CHECK ("oidc_grant_organizations"."model" = 'Grant')
);
--> statement-breakpoint
ALTER TABLE "oidc_grant_organizations" ADD CONSTRAINT "oidc_grant_organizations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oidc_grant_organizations" ADD CONSTRAINT "oidc_grant_organizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oidc_grant_organizations" ADD CONSTRAINT "oidc_grant_organizations_grant_fk" FOREIGN KEY ("model","grant_id") REFERENCES "public"."oidc_models"("model","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oidc_grant_organizations_member_idx" ON "oidc_grant_organizations" USING btree ("organization_id","user_id");