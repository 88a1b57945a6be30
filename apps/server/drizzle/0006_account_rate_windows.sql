CREATE TABLE "account_rate_windows" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_rate_windows" ADD CONSTRAINT "account_rate_windows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" DROP COLUMN "rate_window_start";--> statement-breakpoint
ALTER TABLE "api_keys" DROP COLUMN "rate_window_count";