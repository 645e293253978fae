CREATE TABLE "api_resource_machine_access" (
	"api_resource_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"permissions" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "api_resource_machine_access_api_resource_id_client_id_pk" PRIMARY KEY("api_resource_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "api_resources" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"identifier" text NOT NULL,
	"name" text NOT NULL,
	"permissions" jsonb NOT NULL,
	"access_token_ttl_seconds" integer NOT NULL,
	"machine_clients" boolean NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "api_resource_machine_access" ADD CONSTRAINT "api_resource_machine_access_api_resource_id_api_resources_id_fk" FOREIGN KEY ("api_resource_id") REFERENCES "public"."api_resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_resource_machine_access" ADD CONSTRAINT "api_resource_machine_access_client_id_developer_applications_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."developer_applications"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_resources" ADD CONSTRAINT "api_resources_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_resource_machine_access_client_idx" ON "api_resource_machine_access" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_resources_identifier_idx" ON "api_resources" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "api_resources_user_keyset_idx" ON "api_resources" USING btree ("user_id","created_at","id");