CREATE TABLE "company_logos" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "owner_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "site_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "contract_amount" numeric(18, 2);--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "file_number" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "site_manager_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "contractor_signatory" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "owner_signatory" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "certifications" ADD COLUMN "issue_place" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "certifications" ADD COLUMN "issue_date" date;--> statement-breakpoint
ALTER TABLE "certifications" ADD COLUMN "retention_pct" numeric(7, 2);--> statement-breakpoint
ALTER TABLE "company_logos" ADD CONSTRAINT "company_logos_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;