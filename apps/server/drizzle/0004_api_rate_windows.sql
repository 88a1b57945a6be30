ALTER TABLE "api_keys" ADD COLUMN "rate_window_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "rate_window_count" integer DEFAULT 0 NOT NULL;