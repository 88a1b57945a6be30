ALTER TABLE "validation_jobs" DROP CONSTRAINT "validation_jobs_status_ck";--> statement-breakpoint
ALTER TABLE "validation_jobs" ADD COLUMN "multipart_upload_id" text;--> statement-breakpoint
ALTER TABLE "validation_jobs" ADD COLUMN "source_url" text;--> statement-breakpoint
ALTER TABLE "validation_jobs" ADD CONSTRAINT "validation_jobs_status_ck" CHECK ("validation_jobs"."status" in ('awaiting_upload', 'queued', 'running', 'completed', 'failed'));