CREATE TABLE "validation_job_parts" (
	"job_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"chunks" jsonb NOT NULL,
	"start_byte" bigint NOT NULL,
	"end_byte" bigint NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"heartbeat_at" timestamp with time zone,
	CONSTRAINT "validation_job_parts_job_id_part_pk" PRIMARY KEY("job_id","part"),
	CONSTRAINT "validation_job_parts_status_ck" CHECK ("validation_job_parts"."status" in ('queued', 'running', 'completed'))
);
--> statement-breakpoint
ALTER TABLE "validation_jobs" ADD COLUMN "split_parts" integer;--> statement-breakpoint
ALTER TABLE "validation_jobs" ADD COLUMN "parts_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "validation_jobs" ADD COLUMN "split_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "validation_job_parts" ADD CONSTRAINT "validation_job_parts_job_id_validation_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."validation_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "validation_job_parts_status_heartbeat_at_idx" ON "validation_job_parts" USING btree ("status","heartbeat_at");