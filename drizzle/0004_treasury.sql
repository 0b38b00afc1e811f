CREATE TABLE "bank_accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"iban" text NOT NULL,
	"bic" text,
	"subaccount_code" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "treasury_budgets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"category" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"contact_id" uuid,
	"bank_account_id" uuid,
	"date" date NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"recurrence" text DEFAULT 'none' NOT NULL,
	"until" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "treasury_budgets_recurrence_known" CHECK ("treasury_budgets"."recurrence" in ('none', 'monthly', 'quarterly', 'yearly')),
	CONSTRAINT "treasury_budgets_amount_nonzero" CHECK ("treasury_budgets"."amount" <> 0),
	CONSTRAINT "treasury_budgets_until" CHECK (("treasury_budgets"."recurrence" = 'none' and "treasury_budgets"."until" is null) or ("treasury_budgets"."recurrence" <> 'none' and ("treasury_budgets"."until" is null or "treasury_budgets"."until" >= "treasury_budgets"."date")))
);
--> statement-breakpoint
CREATE TABLE "treasury_payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"due_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"date" date NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"fees" numeric(18, 2) DEFAULT '0' NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"bank_movement_id" uuid,
	"undone_at" timestamp with time zone,
	"undone_by" uuid,
	"reversal_entry_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "treasury_payments_direction_known" CHECK ("treasury_payments"."direction" in ('sale', 'purchase')),
	CONSTRAINT "treasury_payments_amount_nonzero" CHECK ("treasury_payments"."amount" <> 0 and "treasury_payments"."fees" >= 0),
	CONSTRAINT "treasury_payments_undone_together" CHECK (("treasury_payments"."undone_at" is null) = ("treasury_payments"."reversal_entry_id" is null))
);
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treasury_budgets" ADD CONSTRAINT "treasury_budgets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treasury_budgets" ADD CONSTRAINT "treasury_budgets_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treasury_budgets" ADD CONSTRAINT "treasury_budgets_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treasury_payments" ADD CONSTRAINT "treasury_payments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treasury_payments" ADD CONSTRAINT "treasury_payments_due_id_document_dues_id_fk" FOREIGN KEY ("due_id") REFERENCES "public"."document_dues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treasury_payments" ADD CONSTRAINT "treasury_payments_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treasury_payments" ADD CONSTRAINT "treasury_payments_entry_id_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treasury_payments" ADD CONSTRAINT "treasury_payments_reversal_entry_id_entries_id_fk" FOREIGN KEY ("reversal_entry_id") REFERENCES "public"."entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_company_iban_key" ON "bank_accounts" USING btree ("company_id","iban");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_company_subaccount_key" ON "bank_accounts" USING btree ("company_id","subaccount_code");--> statement-breakpoint
CREATE INDEX "bank_accounts_list_idx" ON "bank_accounts" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "treasury_budgets_list_idx" ON "treasury_budgets" USING btree ("company_id","date","id");--> statement-breakpoint
CREATE INDEX "treasury_payments_due_idx" ON "treasury_payments" USING btree ("due_id");--> statement-breakpoint
CREATE INDEX "treasury_payments_company_date_idx" ON "treasury_payments" USING btree ("company_id","date","id");--> statement-breakpoint
CREATE INDEX "treasury_payments_movement_idx" ON "treasury_payments" USING btree ("bank_movement_id") WHERE "treasury_payments"."bank_movement_id" is not null;