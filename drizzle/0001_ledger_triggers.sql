-- General ledger invariants enforced by the database, whatever code path writes:
-- balanced entries of two lines or more (checked at COMMIT), immutable posted entries,
-- entries only into an open year and within its dates, balance tables kept in step with the lines,
-- and no two overlapping fiscal years in one company.

CREATE FUNCTION ledger_assert_entry_balanced(p_entry_id uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_number integer;
  v_total numeric;
  v_lines integer;
  v_debit numeric;
  v_credit numeric;
BEGIN
  SELECT e.number, e.total, count(l.id), coalesce(sum(l.debit), 0), coalesce(sum(l.credit), 0)
    INTO v_number, v_total, v_lines, v_debit, v_credit
    FROM entries e LEFT JOIN entry_lines l ON l.entry_id = e.id
   WHERE e.id = p_entry_id
   GROUP BY e.id;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF v_lines < 2 THEN
    RAISE EXCEPTION 'entry % has % line(s); an entry needs at least two', v_number, v_lines
      USING ERRCODE = 'check_violation', CONSTRAINT = 'entries_balanced';
  END IF;
  IF v_debit <> v_credit THEN
    RAISE EXCEPTION 'entry % does not balance: debits % != credits % (difference %)',
      v_number, v_debit, v_credit, abs(v_debit - v_credit)
      USING ERRCODE = 'check_violation', CONSTRAINT = 'entries_balanced';
  END IF;
  IF v_debit <> v_total THEN
    RAISE EXCEPTION 'entry %: its lines total % but the entry says %', v_number, v_debit, v_total
      USING ERRCODE = 'check_violation', CONSTRAINT = 'entries_balanced';
  END IF;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION ledger_check_line_entry() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_assert_entry_balanced(NEW.entry_id);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION ledger_check_entry() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_assert_entry_balanced(NEW.id);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Deferred to COMMIT: an entry and its lines are inserted by separate statements.
CREATE CONSTRAINT TRIGGER entry_lines_balanced
  AFTER INSERT ON entry_lines
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_check_line_entry();
--> statement-breakpoint
-- The lines trigger never fires for an entry without lines.
CREATE CONSTRAINT TRIGGER entries_balanced
  AFTER INSERT ON entries
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_check_entry();
--> statement-breakpoint
CREATE FUNCTION ledger_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'posted % cannot be changed or deleted: reverse the entry instead', TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER entries_immutable
  BEFORE UPDATE OR DELETE ON entries
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER entry_lines_immutable
  BEFORE UPDATE OR DELETE ON entry_lines
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE FUNCTION ledger_check_entry_year() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_year fiscal_years%ROWTYPE;
BEGIN
  SELECT * INTO v_year FROM fiscal_years WHERE id = NEW.fiscal_year_id;
  IF v_year.company_id <> NEW.company_id THEN
    RAISE EXCEPTION 'the fiscal year of entry % belongs to another company', NEW.number
      USING ERRCODE = 'check_violation';
  END IF;
  IF v_year.estado <> 'abierto' THEN
    RAISE EXCEPTION 'fiscal year % is closed', v_year.code USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.date < v_year.start_date OR NEW.date > v_year.end_date THEN
    RAISE EXCEPTION 'the date % is outside fiscal year %', NEW.date, v_year.code
      USING ERRCODE = 'check_violation';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM journals j WHERE j.id = NEW.journal_id AND j.company_id = NEW.company_id) THEN
    RAISE EXCEPTION 'the journal of entry % belongs to another company', NEW.number
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER entries_open_year
  BEFORE INSERT ON entries
  FOR EACH ROW EXECUTE FUNCTION ledger_check_entry_year();
--> statement-breakpoint
-- One upsert per statement (not per line), ordered so concurrent writers lock rows in the same order.
CREATE FUNCTION ledger_post_balances() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_daily_balances AS b (subaccount_id, date, company_id, fiscal_year_id, debit, credit)
  SELECT l.subaccount_id, e.date, e.company_id, e.fiscal_year_id, sum(l.debit), sum(l.credit)
    FROM posted_lines l JOIN entries e ON e.id = l.entry_id
   GROUP BY l.subaccount_id, e.date, e.company_id, e.fiscal_year_id
   ORDER BY l.subaccount_id, e.date
  ON CONFLICT (subaccount_id, date)
  DO UPDATE SET debit = b.debit + excluded.debit, credit = b.credit + excluded.credit;

  INSERT INTO ledger_monthly_balances AS b (subaccount_id, month, company_id, fiscal_year_id, debit, credit)
  SELECT l.subaccount_id, date_trunc('month', e.date)::date, e.company_id, e.fiscal_year_id,
         sum(l.debit), sum(l.credit)
    FROM posted_lines l JOIN entries e ON e.id = l.entry_id
   GROUP BY l.subaccount_id, date_trunc('month', e.date)::date, e.company_id, e.fiscal_year_id
   ORDER BY l.subaccount_id, date_trunc('month', e.date)::date
  ON CONFLICT (subaccount_id, month)
  DO UPDATE SET debit = b.debit + excluded.debit, credit = b.credit + excluded.credit;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER entry_lines_post_balances
  AFTER INSERT ON entry_lines
  REFERENCING NEW TABLE AS posted_lines
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_post_balances();
--> statement-breakpoint
CREATE FUNCTION ledger_check_fiscal_year_overlap() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_other text;
BEGIN
  -- Same key as the service's lockCompany('fiscal_years'): concurrent creations see each other.
  PERFORM pg_advisory_xact_lock(hashtextextended('cuadra:fiscal_years:' || NEW.company_id::text, 0));
  SELECT f.code INTO v_other FROM fiscal_years f
   WHERE f.company_id = NEW.company_id AND f.id <> NEW.id
     AND f.start_date <= NEW.end_date AND f.end_date >= NEW.start_date
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'fiscal year % overlaps fiscal year %', NEW.code, v_other
      USING ERRCODE = 'exclusion_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER fiscal_years_no_overlap
  BEFORE INSERT OR UPDATE OF company_id, start_date, end_date ON fiscal_years
  FOR EACH ROW EXECUTE FUNCTION ledger_check_fiscal_year_overlap();
