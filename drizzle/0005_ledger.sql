CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"fiscal_year_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"parent_code" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_fiscal_year_code_key" UNIQUE("fiscal_year_id","code"),
	CONSTRAINT "accounts_code_digits" CHECK ("accounts"."code" ~ '^[0-9]{1,15}$')
);
--> statement-breakpoint
CREATE TABLE "ledger_daily_balances" (
	"subaccount_id" uuid NOT NULL,
	"date" date NOT NULL,
	"company_id" uuid NOT NULL,
	"fiscal_year_id" uuid NOT NULL,
	"debit" numeric(18, 2) DEFAULT '0' NOT NULL,
	"credit" numeric(18, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "ledger_daily_balances_subaccount_id_date_pk" PRIMARY KEY("subaccount_id","date")
);
--> statement-breakpoint
CREATE TABLE "entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"fiscal_year_id" uuid NOT NULL,
	"journal_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"date" date NOT NULL,
	"concept" text NOT NULL,
	"total" numeric(18, 2) NOT NULL,
	"reversal_of" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "entries_fiscal_year_id_key" UNIQUE("fiscal_year_id","id"),
	CONSTRAINT "entries_number_positive" CHECK ("entries"."number" > 0),
	CONSTRAINT "entries_total_positive" CHECK ("entries"."total" > 0)
);
--> statement-breakpoint
CREATE TABLE "entry_lines" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"fiscal_year_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"subaccount_id" uuid NOT NULL,
	"debit" numeric(18, 2) DEFAULT '0' NOT NULL,
	"credit" numeric(18, 2) DEFAULT '0' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	CONSTRAINT "entry_lines_one_side_positive" CHECK ("entry_lines"."debit" >= 0 and "entry_lines"."credit" >= 0 and ("entry_lines"."debit" > 0) <> ("entry_lines"."credit" > 0))
);
--> statement-breakpoint
CREATE TABLE "fiscal_years" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"code" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"estado" text DEFAULT 'abierto' NOT NULL,
	"last_entry_number" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fiscal_years_estado_known" CHECK ("fiscal_years"."estado" in ('abierto', 'cerrado')),
	CONSTRAINT "fiscal_years_dates_ordered" CHECK ("fiscal_years"."end_date" >= "fiscal_years"."start_date"),
	CONSTRAINT "fiscal_years_last_entry_number_positive" CHECK ("fiscal_years"."last_entry_number" >= 0)
);
--> statement-breakpoint
CREATE TABLE "journals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journals_type_known" CHECK ("journals"."type" in ('general', 'sales', 'purchases', 'bank'))
);
--> statement-breakpoint
CREATE TABLE "ledger_monthly_balances" (
	"subaccount_id" uuid NOT NULL,
	"month" date NOT NULL,
	"company_id" uuid NOT NULL,
	"fiscal_year_id" uuid NOT NULL,
	"debit" numeric(18, 2) DEFAULT '0' NOT NULL,
	"credit" numeric(18, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "ledger_monthly_balances_subaccount_id_month_pk" PRIMARY KEY("subaccount_id","month")
);
--> statement-breakpoint
CREATE TABLE "subaccounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"fiscal_year_id" uuid NOT NULL,
	"account_code" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"contact_id" uuid,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subaccounts_fiscal_year_id_key" UNIQUE("fiscal_year_id","id"),
	CONSTRAINT "subaccounts_code_digits" CHECK ("subaccounts"."code" ~ '^[0-9]{4,15}$'),
	CONSTRAINT "subaccounts_code_under_account" CHECK (starts_with("subaccounts"."code", "subaccounts"."account_code"))
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_fiscal_year_id_fiscal_years_id_fk" FOREIGN KEY ("fiscal_year_id") REFERENCES "public"."fiscal_years"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_daily_balances" ADD CONSTRAINT "ledger_daily_balances_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_fiscal_year_id_fiscal_years_id_fk" FOREIGN KEY ("fiscal_year_id") REFERENCES "public"."fiscal_years"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_reversal_of_entries_id_fk" FOREIGN KEY ("reversal_of") REFERENCES "public"."entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_lines" ADD CONSTRAINT "entry_lines_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_lines" ADD CONSTRAINT "entry_lines_entry_fk" FOREIGN KEY ("fiscal_year_id","entry_id") REFERENCES "public"."entries"("fiscal_year_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_lines" ADD CONSTRAINT "entry_lines_subaccount_fk" FOREIGN KEY ("fiscal_year_id","subaccount_id") REFERENCES "public"."subaccounts"("fiscal_year_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiscal_years" ADD CONSTRAINT "fiscal_years_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journals" ADD CONSTRAINT "journals_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_monthly_balances" ADD CONSTRAINT "ledger_monthly_balances_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subaccounts" ADD CONSTRAINT "subaccounts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subaccounts" ADD CONSTRAINT "subaccounts_fiscal_year_id_fiscal_years_id_fk" FOREIGN KEY ("fiscal_year_id") REFERENCES "public"."fiscal_years"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subaccounts" ADD CONSTRAINT "subaccounts_account_fk" FOREIGN KEY ("fiscal_year_id","account_code") REFERENCES "public"."accounts"("fiscal_year_id","code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_company_idx" ON "accounts" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "ledger_daily_balances_year_date_idx" ON "ledger_daily_balances" USING btree ("fiscal_year_id","date","subaccount_id","debit","credit");--> statement-breakpoint
CREATE UNIQUE INDEX "entries_fiscal_year_number_key" ON "entries" USING btree ("fiscal_year_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "entries_reversal_of_key" ON "entries" USING btree ("reversal_of");--> statement-breakpoint
CREATE INDEX "entries_company_date_idx" ON "entries" USING btree ("company_id","date","number","id");--> statement-breakpoint
CREATE INDEX "entries_fiscal_year_date_idx" ON "entries" USING btree ("fiscal_year_id","date","number","id");--> statement-breakpoint
CREATE INDEX "entries_date_idx" ON "entries" USING btree ("date","number","id");--> statement-breakpoint
CREATE INDEX "entries_journal_idx" ON "entries" USING btree ("journal_id");--> statement-breakpoint
CREATE UNIQUE INDEX "entry_lines_entry_line_key" ON "entry_lines" USING btree ("entry_id","line_no");--> statement-breakpoint
CREATE INDEX "entry_lines_subaccount_entry_idx" ON "entry_lines" USING btree ("subaccount_id","entry_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fiscal_years_company_code_key" ON "fiscal_years" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "fiscal_years_company_start_idx" ON "fiscal_years" USING btree ("company_id","start_date");--> statement-breakpoint
CREATE UNIQUE INDEX "journals_company_code_key" ON "journals" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "journals_company_created_idx" ON "journals" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ledger_monthly_balances_year_month_idx" ON "ledger_monthly_balances" USING btree ("fiscal_year_id","month","subaccount_id","debit","credit");--> statement-breakpoint
CREATE UNIQUE INDEX "subaccounts_fiscal_year_code_key" ON "subaccounts" USING btree ("fiscal_year_id","code");--> statement-breakpoint
CREATE INDEX "subaccounts_fiscal_year_contact_idx" ON "subaccounts" USING btree ("fiscal_year_id","contact_id") WHERE "subaccounts"."contact_id" is not null;--> statement-breakpoint
CREATE INDEX "subaccounts_company_idx" ON "subaccounts" USING btree ("company_id");