CREATE TABLE "federated_identities" (
	"id" uuid PRIMARY KEY NOT NULL,
	"connection_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_sign_in_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "federation_connection_domains" (
	"connection_id" uuid NOT NULL,
	"domain_id" uuid NOT NULL,
	CONSTRAINT "federation_connection_domains_connection_id_domain_id_pk" PRIMARY KEY("connection_id","domain_id")
);
--> statement-breakpoint
CREATE TABLE "federation_connections" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"connection_id" text NOT NULL,
	"protocol" text NOT NULL,
	"display_name" text NOT NULL,
	"status" text NOT NULL,
	"issuer" text,
	"client_id" text,
	"client_secret_sealed" text,
	"scopes" jsonb,
	"saml_metadata_xml" text,
	"saml_metadata_url" text,
	"saml_idp_entity_id" text,
	"saml_sso_url" text,
	"saml_signing_certificates" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "federation_transactions" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"connection_id" uuid NOT NULL,
	"protocol" text NOT NULL,
	"nonce_sealed" text,
	"code_verifier_sealed" text,
	"browser_binding_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "organization_domains" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"status" text NOT NULL,
	"verification_token" text NOT NULL,
	"verified_at" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saml_assertion_replays" (
	"assertion_id_hash" text PRIMARY KEY NOT NULL,
	"connection_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "federated_identities" ADD CONSTRAINT "federated_identities_connection_id_federation_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."federation_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federated_identities" ADD CONSTRAINT "federated_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federation_connection_domains" ADD CONSTRAINT "federation_connection_domains_connection_id_federation_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."federation_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federation_connection_domains" ADD CONSTRAINT "federation_connection_domains_domain_id_organization_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."organization_domains"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federation_connections" ADD CONSTRAINT "federation_connections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federation_transactions" ADD CONSTRAINT "federation_transactions_connection_id_federation_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."federation_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_domains" ADD CONSTRAINT "organization_domains_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_assertion_replays" ADD CONSTRAINT "saml_assertion_replays_connection_id_federation_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."federation_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "federated_identities_subject_idx" ON "federated_identities" USING btree ("connection_id","subject");--> statement-breakpoint
CREATE INDEX "federated_identities_user_idx" ON "federated_identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "federation_connection_domains_domain_idx" ON "federation_connection_domains" USING btree ("domain_id");--> statement-breakpoint
CREATE UNIQUE INDEX "federation_connections_connection_id_idx" ON "federation_connections" USING btree ("connection_id");--> statement-breakpoint
CREATE INDEX "federation_connections_keyset_idx" ON "federation_connections" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "federation_transactions_expiry_idx" ON "federation_transactions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_domains_org_domain_idx" ON "organization_domains" USING btree ("organization_id","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_domains_verified_idx" ON "organization_domains" USING btree ("domain") WHERE "organization_domains"."status" = 'verified';--> statement-breakpoint
CREATE INDEX "organization_domains_keyset_idx" ON "organization_domains" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "saml_assertion_replays_expiry_idx" ON "saml_assertion_replays" USING btree ("expires_at");