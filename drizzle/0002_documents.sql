CREATE TABLE "document_counters" (
	"company_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"kind" text NOT NULL,
	"series_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	"last_date" date,
	CONSTRAINT "document_counters_company_id_direction_kind_series_id_year_pk" PRIMARY KEY("company_id","direction","kind","series_id","year")
);
--> statement-breakpoint
CREATE TABLE "document_dues" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"contact_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"code" text NOT NULL,
	"due_date" date NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"paid_amount" numeric(18, 2) DEFAULT '0' NOT NULL,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_dues_estado_known" CHECK (estado in ('pendiente', 'parcial', 'pagado'))
);
--> statement-breakpoint
CREATE TABLE "document_line_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"from_document_id" uuid NOT NULL,
	"from_line_id" uuid NOT NULL,
	"to_document_id" uuid NOT NULL,
	"to_line_id" uuid NOT NULL,
	"quantity" numeric(18, 4) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_lines" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"product_id" uuid,
	"reference" text DEFAULT '' NOT NULL,
	"description" text NOT NULL,
	"quantity" numeric(18, 4) NOT NULL,
	"unit_price" numeric(18, 6) NOT NULL,
	"discount1" numeric(7, 2) DEFAULT '0' NOT NULL,
	"discount2" numeric(7, 2) DEFAULT '0' NOT NULL,
	"tax_code_id" uuid,
	"vat_rate" numeric(7, 2) DEFAULT '0' NOT NULL,
	"re_rate" numeric(7, 2) DEFAULT '0' NOT NULL,
	"irpf_code_id" uuid,
	"irpf_rate" numeric(7, 2) DEFAULT '0' NOT NULL,
	"supplied" boolean DEFAULT false NOT NULL,
	"account_code" text,
	"net" numeric(18, 6) DEFAULT '0' NOT NULL,
	"served_quantity" numeric(18, 4) DEFAULT '0' NOT NULL,
	"corrects_line_id" uuid,
	CONSTRAINT "document_lines_discounts_range" CHECK ("document_lines"."discount1" between 0 and 100 and "document_lines"."discount2" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "document_series" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_series_code_format" CHECK ("document_series"."code" ~ '^[A-Z0-9]{1,4}$'),
	CONSTRAINT "document_series_kind_known" CHECK (kind in ('general', 'rectifying', 'simplified'))
);
--> statement-breakpoint
CREATE TABLE "document_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"tax_regime" text DEFAULT 'general' NOT NULL,
	"auto_posting" boolean DEFAULT true NOT NULL,
	"sales_account" text DEFAULT '700' NOT NULL,
	"purchases_account" text DEFAULT '600' NOT NULL,
	"sales_returns_account" text,
	"supplied_account" text DEFAULT '555' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_taxes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"tax_code_id" uuid,
	"rate" numeric(7, 2) NOT NULL,
	"re_rate" numeric(7, 2) DEFAULT '0' NOT NULL,
	"base" numeric(18, 2) NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"re_amount" numeric(18, 2) DEFAULT '0' NOT NULL,
	"self_assessed" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"kind" text NOT NULL,
	"series_id" uuid NOT NULL,
	"year" integer,
	"number" integer,
	"code" text,
	"estado" text NOT NULL,
	"contact_id" uuid NOT NULL,
	"contact_name" text NOT NULL,
	"contact_tax_id" text,
	"contact_address" text DEFAULT '' NOT NULL,
	"contact_postal_code" text DEFAULT '' NOT NULL,
	"contact_city" text DEFAULT '' NOT NULL,
	"contact_province" text DEFAULT '' NOT NULL,
	"contact_country" text DEFAULT 'ES' NOT NULL,
	"contact_tax_regime" text DEFAULT 'general' NOT NULL,
	"agent_id" uuid,
	"issue_date" date NOT NULL,
	"operation_date" date,
	"valid_until" date,
	"payment_term_id" uuid,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"discount1" numeric(7, 2) DEFAULT '0' NOT NULL,
	"discount2" numeric(7, 2) DEFAULT '0' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"supplier_number" text,
	"corrects_document_id" uuid,
	"rectification_type" text,
	"rectification_reason" text,
	"rejection_reason" text,
	"entry_id" uuid,
	"gross_net" numeric(18, 2) DEFAULT '0' NOT NULL,
	"net" numeric(18, 2) DEFAULT '0' NOT NULL,
	"vat" numeric(18, 2) DEFAULT '0' NOT NULL,
	"re" numeric(18, 2) DEFAULT '0' NOT NULL,
	"irpf" numeric(18, 2) DEFAULT '0' NOT NULL,
	"supplied" numeric(18, 2) DEFAULT '0' NOT NULL,
	"total" numeric(18, 2) DEFAULT '0' NOT NULL,
	"importe_total" numeric(18, 2) DEFAULT '0' NOT NULL,
	"paid_amount" numeric(18, 2) DEFAULT '0' NOT NULL,
	"created_by" uuid,
	"finalized_at" timestamp with time zone,
	"finalized_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "documents_direction_known" CHECK (direction in ('sale', 'purchase')),
	CONSTRAINT "documents_kind_known" CHECK (kind in ('estimate', 'order', 'delivery_note', 'invoice')),
	CONSTRAINT "documents_estado_known" CHECK (estado in ('borrador', 'abierto', 'parcial', 'convertido', 'rechazado', 'cancelado', 'caducado', 'emitida', 'pendiente', 'aprobada', 'rechazada')),
	CONSTRAINT "documents_numbered_together" CHECK (("documents"."number" is null) = ("documents"."code" is null) and ("documents"."number" is null) = ("documents"."year" is null)),
	CONSTRAINT "documents_discounts_range" CHECK ("documents"."discount1" between 0 and 100 and "documents"."discount2" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "payment_terms" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"lines" jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"rate" numeric(7, 2) NOT NULL,
	"re_rate" numeric(7, 2) DEFAULT '0' NOT NULL,
	"operation" text,
	"exemption_reason" text,
	"irpf_kind" text,
	"capital_goods" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_codes_kind_known" CHECK (kind in ('vat', 'irpf')),
	CONSTRAINT "tax_codes_rate_range" CHECK ("tax_codes"."rate" >= 0 and "tax_codes"."rate" <= 100 and "tax_codes"."re_rate" >= 0),
	CONSTRAINT "tax_codes_kind_fields" CHECK (("tax_codes"."kind" = 'vat' and "tax_codes"."operation" is not null and "tax_codes"."irpf_kind" is null)
        or ("tax_codes"."kind" = 'irpf' and "tax_codes"."operation" is null and "tax_codes"."irpf_kind" is not null and "tax_codes"."re_rate" = 0))
);
--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "source_type" text;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "source_id" uuid;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "tax_regime" text DEFAULT 'general' NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "payment_days" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "product_families" ADD COLUMN "sales_account" text;--> statement-breakpoint
ALTER TABLE "product_families" ADD COLUMN "purchases_account" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sales_account" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "purchases_account" text;--> statement-breakpoint
ALTER TABLE "document_counters" ADD CONSTRAINT "document_counters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_counters" ADD CONSTRAINT "document_counters_series_id_document_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."document_series"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_dues" ADD CONSTRAINT "document_dues_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_dues" ADD CONSTRAINT "document_dues_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_dues" ADD CONSTRAINT "document_dues_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_line_links" ADD CONSTRAINT "document_line_links_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_line_links" ADD CONSTRAINT "document_line_links_from_document_id_documents_id_fk" FOREIGN KEY ("from_document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_line_links" ADD CONSTRAINT "document_line_links_from_line_id_document_lines_id_fk" FOREIGN KEY ("from_line_id") REFERENCES "public"."document_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_line_links" ADD CONSTRAINT "document_line_links_to_document_id_documents_id_fk" FOREIGN KEY ("to_document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_line_links" ADD CONSTRAINT "document_line_links_to_line_id_document_lines_id_fk" FOREIGN KEY ("to_line_id") REFERENCES "public"."document_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_tax_code_id_tax_codes_id_fk" FOREIGN KEY ("tax_code_id") REFERENCES "public"."tax_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_irpf_code_id_tax_codes_id_fk" FOREIGN KEY ("irpf_code_id") REFERENCES "public"."tax_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_corrects_line_id_document_lines_id_fk" FOREIGN KEY ("corrects_line_id") REFERENCES "public"."document_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_series" ADD CONSTRAINT "document_series_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_settings" ADD CONSTRAINT "document_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_taxes" ADD CONSTRAINT "document_taxes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_taxes" ADD CONSTRAINT "document_taxes_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_taxes" ADD CONSTRAINT "document_taxes_tax_code_id_tax_codes_id_fk" FOREIGN KEY ("tax_code_id") REFERENCES "public"."tax_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_series_id_document_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."document_series"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_payment_term_id_payment_terms_id_fk" FOREIGN KEY ("payment_term_id") REFERENCES "public"."payment_terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_corrects_document_id_documents_id_fk" FOREIGN KEY ("corrects_document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_terms" ADD CONSTRAINT "payment_terms_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_codes" ADD CONSTRAINT "tax_codes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_dues_document_sequence_key" ON "document_dues" USING btree ("document_id","sequence");--> statement-breakpoint
CREATE INDEX "document_dues_open_idx" ON "document_dues" USING btree ("company_id","direction","estado","due_date");--> statement-breakpoint
CREATE INDEX "document_dues_contact_idx" ON "document_dues" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "document_line_links_from_idx" ON "document_line_links" USING btree ("from_document_id");--> statement-breakpoint
CREATE INDEX "document_line_links_to_idx" ON "document_line_links" USING btree ("to_document_id");--> statement-breakpoint
CREATE INDEX "document_line_links_from_line_idx" ON "document_line_links" USING btree ("from_line_id");--> statement-breakpoint
CREATE UNIQUE INDEX "document_lines_document_line_key" ON "document_lines" USING btree ("document_id","line_no");--> statement-breakpoint
CREATE INDEX "document_lines_product_idx" ON "document_lines" USING btree ("product_id") WHERE "document_lines"."product_id" is not null;--> statement-breakpoint
CREATE INDEX "document_lines_corrects_idx" ON "document_lines" USING btree ("corrects_line_id") WHERE "document_lines"."corrects_line_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "document_series_company_code_key" ON "document_series" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "document_taxes_document_idx" ON "document_taxes" USING btree ("document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_number_key" ON "documents" USING btree ("company_id","direction","kind","series_id","year","number") WHERE "documents"."number" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "documents_code_key" ON "documents" USING btree ("company_id","direction","kind","code") WHERE "documents"."code" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "documents_supplier_number_key" ON "documents" USING btree ("company_id","contact_id","supplier_number",extract(year from "issue_date")) WHERE "documents"."direction" = 'purchase' and "documents"."kind" = 'invoice' and "documents"."supplier_number" is not null;--> statement-breakpoint
CREATE INDEX "documents_list_idx" ON "documents" USING btree ("company_id","direction","kind","issue_date","id");--> statement-breakpoint
CREATE INDEX "documents_kind_date_idx" ON "documents" USING btree ("direction","kind","issue_date","id");--> statement-breakpoint
CREATE INDEX "documents_contact_idx" ON "documents" USING btree ("contact_id","issue_date");--> statement-breakpoint
CREATE INDEX "documents_corrects_idx" ON "documents" USING btree ("corrects_document_id") WHERE "documents"."corrects_document_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_terms_company_code_key" ON "payment_terms" USING btree ("company_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_codes_company_code_key" ON "tax_codes" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "entries_source_idx" ON "entries" USING btree ("source_id") WHERE "entries"."source_id" is not null;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_tax_regime_known" CHECK ("contacts"."tax_regime" in ('general', 'recargo_equivalencia', 'exento', 'intracomunitario', 'exportacion'));