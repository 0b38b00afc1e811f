CREATE TABLE "agents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"tax_id" text,
	"email" text DEFAULT '' NOT NULL,
	"commission_pct" numeric(7, 2) DEFAULT '0' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agents_commission_pct_range" CHECK ("agents"."commission_pct" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "product_families" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"description" text NOT NULL,
	"family_id" uuid,
	"sale_price" numeric(18, 2) DEFAULT '0' NOT NULL,
	"cost_price" numeric(18, 2) DEFAULT '0' NOT NULL,
	"vat_rate" text DEFAULT '21' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_prices_not_negative" CHECK ("products"."sale_price" >= 0 and "products"."cost_price" >= 0),
	CONSTRAINT "products_vat_rate_known" CHECK ("products"."vat_rate" in ('21', '10', '4', '0'))
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"slug" text PRIMARY KEY NOT NULL,
	"database_url" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_families" ADD CONSTRAINT "product_families_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_family_id_product_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."product_families"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agents_company_code_key" ON "agents" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "agents_company_created_idx" ON "agents" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_families_company_code_key" ON "product_families" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "product_families_company_created_idx" ON "product_families" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_company_reference_key" ON "products" USING btree ("company_id","reference");--> statement-breakpoint
CREATE INDEX "products_company_created_idx" ON "products" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "products_family_idx" ON "products" USING btree ("family_id");