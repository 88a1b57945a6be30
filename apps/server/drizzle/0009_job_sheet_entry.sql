ALTER TABLE "validation_jobs" ADD COLUMN "sheet" text;--> statement-breakpoint
ALTER TABLE "validation_jobs" ADD COLUMN "entry" text;