CREATE TABLE "ledger_balance_check_runs" (
	"xact_id" "xid8" PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_balance_checks" (
	"xact_id" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"entry_ids" uuid[] NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ledger_balance_checks_xact_idx" ON "ledger_balance_checks" USING btree ("xact_id");--> statement-breakpoint
-- The ledger's per-row triggers become per statement, with the same guarantees (ADR 026): an
-- entry is balanced, has two lines or more and its lines add up to its total at COMMIT (whatever
-- statements wrote it, SET CONSTRAINTS ALL IMMEDIATE included); an entry goes only into an open
-- year of its company, within the year's dates, with a journal of its company. Before, 100,000
-- entries of two lines ran 300,000 balance checks at COMMIT and 100,000 year checks.
DROP TRIGGER entry_lines_balanced ON entry_lines;
--> statement-breakpoint
DROP TRIGGER entries_balanced ON entries;
--> statement-breakpoint
DROP TRIGGER entries_open_year ON entries;
--> statement-breakpoint
DROP FUNCTION ledger_check_line_entry();
--> statement-breakpoint
DROP FUNCTION ledger_check_entry();
--> statement-breakpoint
DROP FUNCTION ledger_check_entry_year();
--> statement-breakpoint
DROP FUNCTION ledger_assert_entry_balanced(uuid);
--> statement-breakpoint
-- After each INSERT into entries or entry_lines: the entries it touched are queued for the check
-- at COMMIT (one row per statement), and the transaction's run row inserted once.
CREATE FUNCTION ledger_queue_balance_check() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'entries' THEN
    INSERT INTO ledger_balance_checks (xact_id, entry_ids)
    SELECT pg_current_xact_id(), array_agg(n.id) FROM new_rows n HAVING count(*) > 0;
  ELSE
    INSERT INTO ledger_balance_checks (xact_id, entry_ids)
    SELECT pg_current_xact_id(), array_agg(DISTINCT n.entry_id) FROM new_rows n HAVING count(*) > 0;
  END IF;
  IF FOUND THEN
    INSERT INTO ledger_balance_check_runs (xact_id) VALUES (pg_current_xact_id()) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER entries_queue_balance_check
  AFTER INSERT ON entries
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_queue_balance_check();
--> statement-breakpoint
CREATE TRIGGER entry_lines_queue_balance_check
  AFTER INSERT ON entry_lines
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_queue_balance_check();
--> statement-breakpoint
-- Once per transaction, at COMMIT: every queued entry checked in one query, the first one that
-- breaks a rule refused with the messages of before; the queue of the transaction emptied.
CREATE FUNCTION ledger_check_queued_entries() RETURNS trigger
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
  SELECT e.number, e.total, s.lines, s.debit, s.credit
    INTO v
    FROM unnest(v_ids) AS q(id)
   CROSS JOIN LATERAL (SELECT en.number, en.total FROM entries en WHERE en.id = q.id OFFSET 0) e
   CROSS JOIN LATERAL (
         SELECT count(*) AS lines, coalesce(sum(l.debit), 0) AS debit, coalesce(sum(l.credit), 0) AS credit
           FROM entry_lines l
          WHERE l.entry_id = q.id) s
   WHERE (s.lines < 2 OR s.debit <> s.credit OR s.debit <> e.total)
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
    ELSE
      RAISE EXCEPTION 'entry %: its lines total % but the entry says %', v.number, v.debit, v.total
        USING ERRCODE = 'check_violation', CONSTRAINT = 'entries_balanced';
    END IF;
  END IF;
  DELETE FROM ledger_balance_checks WHERE xact_id = NEW.xact_id;
  DELETE FROM ledger_balance_check_runs WHERE xact_id = NEW.xact_id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER entries_balanced
  AFTER INSERT ON ledger_balance_check_runs
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_check_queued_entries();
--> statement-breakpoint
-- After each INSERT into entries: the first new entry (by number) into another company's or a
-- closed year, outside the year's dates or with another company's journal refuses the statement.
CREATE FUNCTION ledger_check_entries_year() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v record;
BEGIN
  SELECT n.number, n.date, f.code, f.company_id <> n.company_id AS other_company,
         f.estado <> 'abierto' AS closed, n.date < f.start_date OR n.date > f.end_date AS outside
    INTO v
    FROM new_rows n JOIN fiscal_years f ON f.id = n.fiscal_year_id
   WHERE f.company_id <> n.company_id OR f.estado <> 'abierto'
      OR n.date < f.start_date OR n.date > f.end_date
      OR NOT EXISTS (SELECT 1 FROM journals j WHERE j.id = n.journal_id AND j.company_id = n.company_id)
   ORDER BY n.number
   LIMIT 1;
  IF FOUND THEN
    IF v.other_company THEN
      RAISE EXCEPTION 'the fiscal year of entry % belongs to another company', v.number
        USING ERRCODE = 'check_violation';
    ELSIF v.closed THEN
      RAISE EXCEPTION 'fiscal year % is closed', v.code USING ERRCODE = 'check_violation';
    ELSIF v.outside THEN
      RAISE EXCEPTION 'the date % is outside fiscal year %', v.date, v.code
        USING ERRCODE = 'check_violation';
    ELSE
      RAISE EXCEPTION 'the journal of entry % belongs to another company', v.number
        USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER entries_open_year
  AFTER INSERT ON entries
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_check_entries_year();
--> statement-breakpoint
-- The balance upserts read each posted line's entry through its primary key: joined as a table,
-- a batch of 10,000 lines made the planner hash-join a sequential scan of every entry of the
-- ledger, twice per INSERT statement (the cost grew with the ledger, not with the batch).
CREATE OR REPLACE FUNCTION ledger_post_balances() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_daily_balances AS b (subaccount_id, date, company_id, fiscal_year_id, debit, credit)
  SELECT x.subaccount_id, (x.e).date, (x.e).company_id, (x.e).fiscal_year_id, sum(x.debit), sum(x.credit)
    FROM (SELECT l.subaccount_id, l.debit, l.credit, (SELECT e FROM entries e WHERE e.id = l.entry_id) AS e
            FROM posted_lines l OFFSET 0) x
   GROUP BY x.subaccount_id, (x.e).date, (x.e).company_id, (x.e).fiscal_year_id
   ORDER BY x.subaccount_id, (x.e).date
  ON CONFLICT (subaccount_id, date)
  DO UPDATE SET debit = b.debit + excluded.debit, credit = b.credit + excluded.credit;

  INSERT INTO ledger_monthly_balances AS b (subaccount_id, month, company_id, fiscal_year_id, debit, credit)
  SELECT x.subaccount_id, date_trunc('month', (x.e).date)::date, (x.e).company_id, (x.e).fiscal_year_id,
         sum(x.debit), sum(x.credit)
    FROM (SELECT l.subaccount_id, l.debit, l.credit, (SELECT e FROM entries e WHERE e.id = l.entry_id) AS e
            FROM posted_lines l OFFSET 0) x
   GROUP BY x.subaccount_id, date_trunc('month', (x.e).date)::date, (x.e).company_id, (x.e).fiscal_year_id
   ORDER BY x.subaccount_id, date_trunc('month', (x.e).date)::date
  ON CONFLICT (subaccount_id, month)
  DO UPDATE SET debit = b.debit + excluded.debit, credit = b.credit + excluded.credit;
  RETURN NULL;
END;
$$;
