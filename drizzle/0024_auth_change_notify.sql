-- Every change to what the JWT guard checks (user row, session, deny list, authz epoch) is
-- announced on channel cuadra_auth when its transaction commits, so each node's session-state cache
-- (src/modules/identity/auth/session-cache.ts, ADR 034) forgets it. Payloads: 'u:<user id>',
-- 't:<access token jti>', '*' (forget everything: the epoch moved, or a table was truncated).
-- PostgreSQL folds identical notifications of one transaction into one.
CREATE FUNCTION cuadra_notify_auth_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' OR TG_TABLE_NAME = 'authz_epoch' THEN
    PERFORM pg_notify('cuadra_auth', '*');
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('cuadra_auth', 'u:' || OLD.id);
  ELSIF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('cuadra_auth', 'u:' || OLD.user_id);
    IF TG_OP = 'UPDATE' AND NEW.user_id <> OLD.user_id THEN
      PERFORM pg_notify('cuadra_auth', 'u:' || NEW.user_id);
    END IF;
  ELSIF TG_TABLE_NAME = 'revoked_access_tokens' THEN
    PERFORM pg_notify('cuadra_auth', 't:' || NEW.jti);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_auth_change AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION cuadra_notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER sessions_auth_change AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION cuadra_notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER revoked_access_tokens_auth_change AFTER INSERT OR UPDATE ON revoked_access_tokens
  FOR EACH ROW EXECUTE FUNCTION cuadra_notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER authz_epoch_auth_change AFTER INSERT OR UPDATE OR DELETE ON authz_epoch
  FOR EACH STATEMENT EXECUTE FUNCTION cuadra_notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER users_auth_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION cuadra_notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER sessions_auth_truncate AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION cuadra_notify_auth_change();
