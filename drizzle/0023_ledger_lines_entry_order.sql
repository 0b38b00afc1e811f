-- A subaccount's ledger in the entries list's order through one index (ADR 030): each line carries
-- its entry's date and number. Filled from the entry by a trigger when an INSERT leaves them out,
-- checked against the entry at COMMIT when it gives them. Existing lines are filled here.
ALTER TABLE "entry_lines" ADD COLUMN "entry_date" date;--> statement-breakpoint
ALTER TABLE "entry_lines" ADD COLUMN "entry_number" integer;--> statement-breakpoint
ALTER TABLE "entry_lines" DISABLE TRIGGER "entry_lines_immutable";--> statement-breakpoint
UPDATE "entry_lines" l SET "entry_date" = e."date", "entry_number" = e."number" FROM "entries" e WHERE e."id" = l."entry_id";--> statement-breakpoint
ALTER TABLE "entry_lines" ENABLE TRIGGER "entry_lines_immutable";--> statement-breakpoint
ALTER TABLE "entry_lines" ALTER COLUMN "entry_date" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "entry_lines" ALTER COLUMN "entry_number" SET NOT NULL;--> statement-breakpoint
DROP INDEX "entry_lines_subaccount_entry_idx";--> statement-breakpoint
CREATE INDEX "entry_lines_subaccount_order_idx" ON "entry_lines" USING btree ("subaccount_id","entry_date","entry_number","entry_id");--> statement-breakpoint
CREATE FUNCTION ledger_line_entry_order() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  SELECT e.date, e.number INTO NEW.entry_date, NEW.entry_number FROM entries e WHERE e.id = NEW.entry_id;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
-- Only for rows that leave them out: the API's inserts give them and pay no per-row call.
CREATE TRIGGER entry_lines_entry_order
  BEFORE INSERT ON entry_lines
  FOR EACH ROW WHEN (NEW.entry_date IS NULL OR NEW.entry_number IS NULL)
  EXECUTE FUNCTION ledger_line_entry_order();
--> statement-breakpoint
-- The check at COMMIT (ADR 026) also refuses a line whose entry_date or entry_number differs from
-- its entry's; otherwise unchanged.
CREATE OR REPLACE FUNCTION ledger_check_queued_entries() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v record;
  v_ids uuid[];
BEGIN
  SELECT array_agg(DISTINCT q.id) INTO v_ids
    FROM ledger_balance_checks c CROSS JOIN LATERAL unnest(c.entry_ids) AS q(id)
   WHERE c.xact_id = NEW.xact_id;
  -- Each queued entry read by its key and its lines summed through the (entry_id, line_no) index
  -- (OFFSET 0 keeps the lookups per entry): at COMMIT after a large batch the statistics are
  -- stale, and a join let the planner scan the whole ledger (once per entry in the worst plan).
  SELECT e.number, e.total, s.lines, s.debit, s.credit, s.in_order
    INTO v
    FROM unnest(v_ids) AS q(id)
   CROSS JOIN LATERAL (SELECT en.number, en.total, en.date FROM entries en WHERE en.id = q.id OFFSET 0) e
   CROSS JOIN LATERAL (
         SELECT count(*) AS lines, coalesce(sum(l.debit), 0) AS debit, coalesce(sum(l.credit), 0) AS credit,
                coalesce(bool_and(l.entry_date = e.date AND l.entry_number = e.number), true) AS in_order
           FROM entry_lines l
          WHERE l.entry_id = q.id) s
   WHERE (s.lines < 2 OR s.debit <> s.credit OR s.debit <> e.total OR NOT s.in_order)
   ORDER BY e.number
   LIMIT 1;
  IF FOUND THEN
    IF v.lines < 2 THEN
      RAISE EXCEPTION 'entry % has % line(s); an entry needs at least two', v.number, v.lines
        USING ERRCODE = 'check_violation', CONSTRAINT = 'entries_balanced';
    ELSIF v.debit <> v.credit THEN
      RAISE EXCEPTION 'entry % does not balance: debits % != credits % (difference %)',
        v.number, v.debit, v.credit, abs(v.debit - v.credit)
        USING ERRCODE = 'check_violation', CONSTRAINT = 'entries_balanced';
    ELSIF v.debit <> v.total THEN
      RAISE EXCEPTION 'entry %: its lines total % but the entry says %', v.number, v.debit, v.total
        USING ERRCODE = 'check_violation', CONSTRAINT = 'entries_balanced';
    ELSE
      RAISE EXCEPTION 'entry %: a line''s entry_date or entry_number is not its entry''s', v.number
        USING ERRCODE = 'check_violation', CONSTRAINT = 'entry_lines_entry_order';
    END IF;
  END IF;
  DELETE FROM ledger_balance_checks WHERE xact_id = NEW.xact_id;
  DELETE FROM ledger_balance_check_runs WHERE xact_id = NEW.xact_id;
  RETURN NULL;
END;
$$;
