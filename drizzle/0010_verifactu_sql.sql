-- VeriFactu records, events and the AEAT's answers are append-only (RD 1007/2023 art. 8:
-- integrity and inalterability): the database refuses any UPDATE, DELETE or TRUNCATE of them,
-- whatever code path tries. A record issued in error is cancelled by a new RegistroAnulacion.

CREATE FUNCTION verifactu_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'restrict_violation', CONSTRAINT = TG_TABLE_NAME || '_append_only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER verifactu_records_append_only
  BEFORE UPDATE OR DELETE ON verifactu_records
  FOR EACH ROW EXECUTE FUNCTION verifactu_refuse_change();
--> statement-breakpoint
CREATE TRIGGER verifactu_records_no_truncate
  BEFORE TRUNCATE ON verifactu_records
  FOR EACH STATEMENT EXECUTE FUNCTION verifactu_refuse_change();
--> statement-breakpoint
CREATE TRIGGER verifactu_events_append_only
  BEFORE UPDATE OR DELETE ON verifactu_events
  FOR EACH ROW EXECUTE FUNCTION verifactu_refuse_change();
--> statement-breakpoint
CREATE TRIGGER verifactu_events_no_truncate
  BEFORE TRUNCATE ON verifactu_events
  FOR EACH STATEMENT EXECUTE FUNCTION verifactu_refuse_change();
--> statement-breakpoint
CREATE TRIGGER verifactu_responses_append_only
  BEFORE UPDATE OR DELETE ON verifactu_responses
  FOR EACH ROW EXECUTE FUNCTION verifactu_refuse_change();
