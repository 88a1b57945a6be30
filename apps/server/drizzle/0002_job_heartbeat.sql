ALTER TABLE "validation_jobs" ADD COLUMN "bytes_processed" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "validation_jobs" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "validation_jobs_status_heartbeat_at_idx" ON "validation_jobs" USING btree ("status","heartbeat_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries" USING btree ("status","next_attempt_at");