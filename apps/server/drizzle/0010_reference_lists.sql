CREATE TABLE "reference_lists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"values" jsonb NOT NULL,
	"value_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reference_lists_value_count_ck" CHECK ("reference_lists"."value_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "reference_lists" ADD CONSTRAINT "reference_lists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reference_lists_user_id_name_idx" ON "reference_lists" USING btree ("user_id","name");--> statement-breakpoint
CREATE INDEX "reference_lists_user_id_created_at_idx" ON "reference_lists" USING btree ("user_id","created_at");