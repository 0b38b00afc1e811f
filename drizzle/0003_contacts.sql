CREATE TABLE "contact_code_counters" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"last_value" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"contact_type" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"legal_name" text DEFAULT '' NOT NULL,
	"tax_id" text,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL,
	"province" text DEFAULT '' NOT NULL,
	"country" text DEFAULT 'ES' NOT NULL,
	"payment_terms_days" integer DEFAULT 30 NOT NULL,
	"agent_id" uuid,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contacts_contact_type_known" CHECK ("contacts"."contact_type" in ('customer', 'supplier', 'both')),
	CONSTRAINT "contacts_payment_terms_range" CHECK ("contacts"."payment_terms_days" between 0 and 365)
);
--> statement-breakpoint
ALTER TABLE "contact_code_counters" ADD CONSTRAINT "contact_code_counters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_company_code_key" ON "contacts" USING btree ("company_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_company_tax_id_key" ON "contacts" USING btree ("company_id","tax_id") WHERE "contacts"."tax_id" is not null;--> statement-breakpoint
CREATE INDEX "contacts_company_created_idx" ON "contacts" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "contacts_agent_idx" ON "contacts" USING btree ("agent_id");