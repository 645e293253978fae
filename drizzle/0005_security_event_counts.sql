CREATE TABLE "security_event_counts" (
	"kind" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "security_event_counts_kind_window_start_pk" PRIMARY KEY("kind","window_start")
);
--> statement-breakpoint
CREATE INDEX "security_event_counts_window_idx" ON "security_event_counts" USING btree ("window_start");