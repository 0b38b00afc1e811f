CREATE TABLE "ledger_entry_counts" (
	"fiscal_year_id" uuid NOT NULL,
	"journal_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"entries" bigint NOT NULL,
	CONSTRAINT "ledger_entry_counts_fiscal_year_id_journal_id_pk" PRIMARY KEY("fiscal_year_id","journal_id")
);
--> statement-breakpoint
ALTER TABLE "ledger_entry_counts" ADD CONSTRAINT "ledger_entry_counts_fiscal_year_id_fiscal_years_id_fk" FOREIGN KEY ("fiscal_year_id") REFERENCES "public"."fiscal_years"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entry_counts" ADD CONSTRAINT "ledger_entry_counts_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entry_counts_company_idx" ON "ledger_entry_counts" USING btree ("company_id");--> statement-breakpoint
-- The entries list's total, O(1) (ADR 030): entries per fiscal year and journal, added to by each
-- INSERT statement on entries in its own transaction (posted entries are never updated nor
-- deleted: entries_immutable refuses it), rows locked in key order like the balance upserts.
CREATE FUNCTION ledger_count_entries() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_entry_counts AS c (fiscal_year_id, journal_id, company_id, entries)
  SELECT n.fiscal_year_id, n.journal_id, n.company_id, count(*)
    FROM new_rows n
   GROUP BY n.fiscal_year_id, n.journal_id, n.company_id
   ORDER BY n.fiscal_year_id, n.journal_id
  ON CONFLICT (fiscal_year_id, journal_id) DO UPDATE SET entries = c.entries + excluded.entries;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER entries_count
  AFTER INSERT ON entries
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_count_entries();
--> statement-breakpoint
INSERT INTO ledger_entry_counts (fiscal_year_id, journal_id, company_id, entries)
SELECT fiscal_year_id, journal_id, company_id, count(*) FROM entries GROUP BY fiscal_year_id, journal_id, company_id;
