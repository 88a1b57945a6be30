ALTER TABLE "schemas" ALTER COLUMN "file_type" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "validation_jobs" ADD COLUMN "schema_text" text;