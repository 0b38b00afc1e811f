CREATE TABLE "tax_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"activity_description" text,
	"activity_key" text,
	"iae_epigraph" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_settings_activity_key_known" CHECK ("tax_settings"."activity_key" ~ '^(A0[1-5]|B0[1-5]|C)$'),
	CONSTRAINT "tax_settings_iae_format" CHECK ("tax_settings"."iae_epigraph" ~ '^[0-9]{3,4}$')
);
--> statement-breakpoint
ALTER TABLE "tax_settings" ADD CONSTRAINT "tax_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;