CREATE TABLE "bank_imports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"format" text NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"sha256" text NOT NULL,
	"statement_count" integer NOT NULL,
	"date_from" date NOT NULL,
	"date_to" date NOT NULL,
	"opening_balance" numeric(18, 2) NOT NULL,
	"closing_balance" numeric(18, 2) NOT NULL,
	"movement_count" integer NOT NULL,
	"imported_count" integer NOT NULL,
	"skipped_count" integer NOT NULL,
	"imported_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_imports_format_known" CHECK ("bank_imports"."format" in ('norma43', 'camt053'))
);
--> statement-breakpoint
CREATE TABLE "bank_movement_suggestions" (
	"movement_id" uuid NOT NULL,
	"due_id" uuid NOT NULL,
	"target" text NOT NULL,
	"score" integer NOT NULL,
	CONSTRAINT "bank_movement_suggestions_movement_id_due_id_pk" PRIMARY KEY("movement_id","due_id"),
	CONSTRAINT "bank_movement_suggestions_score_range" CHECK ("bank_movement_suggestions"."score" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "bank_movements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"import_id" uuid NOT NULL,
	"position" text NOT NULL,
	"operation_date" date NOT NULL,
	"value_date" date NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"common_concept" text DEFAULT '' NOT NULL,
	"own_concept" text DEFAULT '' NOT NULL,
	"document" text DEFAULT '' NOT NULL,
	"reference_1" text DEFAULT '' NOT NULL,
	"reference_2" text DEFAULT '' NOT NULL,
	"concepts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"foreign_currency" text,
	"foreign_amount" numeric(18, 2),
	"dedupe_key" text NOT NULL,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_movements_estado_known" CHECK ("bank_movements"."estado" in ('pendiente', 'sugerido', 'conciliado', 'ignorado'))
);
--> statement-breakpoint
CREATE TABLE "bank_reconciliations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"movement_id" uuid NOT NULL,
	"target" text NOT NULL,
	"due_id" uuid,
	"payment_id" uuid,
	"entry_id" uuid NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"fees" numeric(18, 2) DEFAULT '0' NOT NULL,
	"origin" text DEFAULT 'manual' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_at" timestamp with time zone,
	"undone_by" uuid,
	CONSTRAINT "bank_reconciliations_target_known" CHECK ("bank_reconciliations"."target" in ('receipt', 'payment', 'entry')),
	CONSTRAINT "bank_reconciliations_origin_known" CHECK ("bank_reconciliations"."origin" in ('manual', 'auto')),
	CONSTRAINT "bank_reconciliations_target_refs" CHECK (("bank_reconciliations"."target" = 'entry' and "bank_reconciliations"."payment_id" is null and "bank_reconciliations"."due_id" is null) or ("bank_reconciliations"."target" <> 'entry' and "bank_reconciliations"."payment_id" is not null and "bank_reconciliations"."due_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "bank_imports" ADD CONSTRAINT "bank_imports_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_imports" ADD CONSTRAINT "bank_imports_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_movement_suggestions" ADD CONSTRAINT "bank_movement_suggestions_movement_id_bank_movements_id_fk" FOREIGN KEY ("movement_id") REFERENCES "public"."bank_movements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_movement_suggestions" ADD CONSTRAINT "bank_movement_suggestions_due_id_document_dues_id_fk" FOREIGN KEY ("due_id") REFERENCES "public"."document_dues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_movements" ADD CONSTRAINT "bank_movements_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_movements" ADD CONSTRAINT "bank_movements_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_movements" ADD CONSTRAINT "bank_movements_import_id_bank_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."bank_imports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_reconciliations" ADD CONSTRAINT "bank_reconciliations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_reconciliations" ADD CONSTRAINT "bank_reconciliations_movement_id_bank_movements_id_fk" FOREIGN KEY ("movement_id") REFERENCES "public"."bank_movements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_reconciliations" ADD CONSTRAINT "bank_reconciliations_due_id_document_dues_id_fk" FOREIGN KEY ("due_id") REFERENCES "public"."document_dues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_reconciliations" ADD CONSTRAINT "bank_reconciliations_payment_id_treasury_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."treasury_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_reconciliations" ADD CONSTRAINT "bank_reconciliations_entry_id_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_imports_account_sha_key" ON "bank_imports" USING btree ("bank_account_id","sha256");--> statement-breakpoint
CREATE INDEX "bank_imports_company_idx" ON "bank_imports" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "bank_movement_suggestions_due_idx" ON "bank_movement_suggestions" USING btree ("due_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_movements_dedupe_key" ON "bank_movements" USING btree ("bank_account_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "bank_movements_list_idx" ON "bank_movements" USING btree ("company_id","operation_date","id");--> statement-breakpoint
CREATE INDEX "bank_movements_state_idx" ON "bank_movements" USING btree ("company_id","estado","operation_date");--> statement-breakpoint
CREATE INDEX "bank_movements_import_idx" ON "bank_movements" USING btree ("import_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_reconciliations_live_movement_key" ON "bank_reconciliations" USING btree ("movement_id") WHERE "bank_reconciliations"."undone_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_reconciliations_live_entry_key" ON "bank_reconciliations" USING btree ("entry_id") WHERE "bank_reconciliations"."undone_at" is null and "bank_reconciliations"."target" = 'entry';--> statement-breakpoint
CREATE INDEX "bank_reconciliations_company_idx" ON "bank_reconciliations" USING btree ("company_id","created_at");