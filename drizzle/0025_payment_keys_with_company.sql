-- One key checks a payment's company and bank account together, one a reconciliation's company,
-- payment, due and entry against its payment (ADR 035): the unique keys they point at come first.
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_company_id_key" UNIQUE("company_id","id");--> statement-breakpoint
ALTER TABLE "treasury_payments" ADD CONSTRAINT "treasury_payments_reconciliation_key" UNIQUE("company_id","id","due_id","entry_id");--> statement-breakpoint
ALTER TABLE "bank_reconciliations" DROP CONSTRAINT "bank_reconciliations_due_id_document_dues_id_fk";
--> statement-breakpoint
ALTER TABLE "bank_reconciliations" DROP CONSTRAINT "bank_reconciliations_payment_id_treasury_payments_id_fk";
--> statement-breakpoint
ALTER TABLE "treasury_payments" DROP CONSTRAINT "treasury_payments_company_id_companies_id_fk";
--> statement-breakpoint
ALTER TABLE "treasury_payments" DROP CONSTRAINT "treasury_payments_bank_account_id_bank_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "bank_reconciliations" ADD CONSTRAINT "bank_reconciliations_payment_fk" FOREIGN KEY ("company_id","payment_id","due_id","entry_id") REFERENCES "public"."treasury_payments"("company_id","id","due_id","entry_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treasury_payments" ADD CONSTRAINT "treasury_payments_bank_account_fk" FOREIGN KEY ("company_id","bank_account_id") REFERENCES "public"."bank_accounts"("company_id","id") ON DELETE no action ON UPDATE no action;
