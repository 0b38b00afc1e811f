ALTER TABLE "budgets" ADD COLUMN "company_id" uuid;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "budgets_company_id_idx" ON "budgets" USING btree ("company_id");--> statement-breakpoint
-- Budgets made before they belonged to a company go to the tenant's first company, when it has one.
UPDATE "budgets" SET "company_id" = (SELECT "id" FROM "companies" ORDER BY "created_at", "id" LIMIT 1) WHERE "company_id" IS NULL;
